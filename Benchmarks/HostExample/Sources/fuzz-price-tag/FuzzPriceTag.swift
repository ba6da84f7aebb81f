// The host's fuzz target: its pages and its price_tag through every oracle (FlowWorkloads).
import Foundation
import FlowWorkloads
import HostWidgets

// The pages to splice into: the folder HOST_PAGES names, else the package's pages/ (found
// from this file, as fuzz.sh runs the binary from its working folder). A missing or empty
// folder stops the binary at start, saying which folder and how to set it.
let target = FuzzTarget.host(
    name: "price-tag", registry: HostWidgets.registry,
    pagesFolder: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../pages").standardized.path,
    environmentVariable: "HOST_PAGES")

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { FuzzHarness.testOneInput(target, data, size) }

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt { FuzzHarness.initialize(target) }

#if !FLOW_FUZZING
// A plain `swift build` links this executable too: without libFuzzer's main, it fuzzes
// nothing, so running it is an error that says how to build it for fuzzing.
@main enum NotAFuzzBuild {
    static func main() {
        FileHandle.standardError.write(Data("fuzz-price-tag: not a fuzz build; build it with Fuzz/lib.sh's flags: swift build \"${FUZZ_BUILD_FLAGS[@]}\" --product fuzz-price-tag (README)\n".utf8))
        exit(1)
    }
}
#endif
