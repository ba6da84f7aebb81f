// The `page` fuzz target: FuzzTarget.page (FlowFuzzTargets, FlowWorkloads) under libFuzzer.
import FlowFuzzTargets
import FlowWorkloads

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPageTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzHarness.testOneInput(.page, data, size)
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzPageInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    FuzzHarness.initialize(.page)
}
