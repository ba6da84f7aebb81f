// The host's fuzz target: its pages and its price_tag through every oracle (FlowWorkloads).
import Foundation
import FlowWorkloads
import HostWidgets

// The pages to splice into: HOST_PAGES, else the package's pages/ (found from this file, as
// fuzz.sh runs the binary from its working folder).
let pages = ProcessInfo.processInfo.environment["HOST_PAGES"]
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../pages").standardized.path
let target = FuzzTarget.host(name: "price-tag", registry: HostWidgets.registry, pages: OneBadWidget.basePages(folder: pages))

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { FuzzHarness.testOneInput(target, data, size) }

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt { FuzzHarness.initialize(target) }

#if !FLOW_FUZZING
// A plain `swift build` links this executable too: without libFuzzer's main, it says how to
// build it for fuzzing instead.
@main enum NotAFuzzBuild {
    static func main() {
        print("fuzz-price-tag: build with Fuzz/lib.sh's flags plus -Xswiftc -DFLOW_FUZZING (README)")
    }
}
#endif
