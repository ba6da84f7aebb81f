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

#if FLOW_FUZZING
// Structure-aware mutations of the host's pages (EnvelopeMutator, its registry's types among
// them), libFuzzer's byte mutator as the fallback. LLVMFuzzerMutate exists only in a
// libFuzzer link, hence the fuzz build alone declares and passes it.
@_silgen_name("LLVMFuzzerMutate") func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt) -> Int {
    FuzzHarness.customMutator(target, data, size, maxSize, seed, bytes: LLVMFuzzerMutate)
}

@_cdecl("LLVMFuzzerCustomCrossOver")
public func customCrossOver(_ data1: UnsafePointer<UInt8>?, _ size1: Int, _ data2: UnsafePointer<UInt8>?, _ size2: Int,
                            _ out: UnsafeMutablePointer<UInt8>?, _ maxOutSize: Int, _ seed: CUnsignedInt) -> Int {
    FuzzHarness.customCrossOver(target, data1, size1, data2, size2, out, maxOutSize, seed)
}
#else
// A plain `swift build` links this executable too: without libFuzzer's main, it fuzzes
// nothing, so running it is an error that says how to build it for fuzzing.
@main enum NotAFuzzBuild {
    static func main() {
        FileHandle.standardError.write(Data("fuzz-price-tag: not a fuzz build; build it with Fuzz/lib.sh's flags: swift build \"${FUZZ_BUILD_FLAGS[@]}\" --product fuzz-price-tag (README)\n".utf8))
        exit(1)
    }
}
#endif
