// The `decodable` fuzz target: FuzzTarget.decodable (FlowWorkloads) under libFuzzer.
import FlowWorkloads

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodableTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzHarness.testOneInput(.decodable, data, size)
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzDecodableInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    FuzzHarness.initialize(.decodable)
}
