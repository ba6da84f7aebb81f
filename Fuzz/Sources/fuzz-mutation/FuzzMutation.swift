// The `mutation` fuzz target: FuzzTarget.mutation (FlowFuzzTargets, FlowWorkloads) under libFuzzer.
import FlowFuzzTargets
import FlowWorkloads

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMutationTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzHarness.testOneInput(.mutation, data, size)
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzMutationInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    FuzzHarness.initialize(.mutation)
}
