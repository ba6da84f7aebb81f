// The `json` fuzz target: FuzzTarget.json (FlowWorkloads) under libFuzzer.
import FlowWorkloads

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzHarness.testOneInput(.json, data, size)
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzJSONInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    FuzzHarness.initialize(.json)
}
