// The `merge-diff` fuzz target: FuzzTarget.mergeDiff (FlowFuzzTargets, FlowWorkloads) under libFuzzer.
import FlowFuzzTargets
import FlowWorkloads

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMergeDiffTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzHarness.testOneInput(.mergeDiff, data, size)
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzMergeDiffInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    FuzzHarness.initialize(.mergeDiff)
}
