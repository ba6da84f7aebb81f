// The `one-bad-widget` fuzz target: FuzzTarget.oneBadWidget (FlowFuzzTargets, FlowWorkloads) under libFuzzer.
import FlowFuzzTargets
import FlowWorkloads

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneBadWidgetTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzHarness.testOneInput(.oneBadWidget, data, size)
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzOneBadWidgetInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    FuzzHarness.initialize(.oneBadWidget)
}
