// The `decodable` fuzz target: FuzzTarget.decodable (FlowWorkloads) under libFuzzer.
import CLibFuzzer
import FlowWorkloads

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodableTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzHarness.testOneInput(.decodable, data, size)
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzDecodableInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    FuzzHarness.initialize(.decodable)
}

// Structure-aware mutations (EnvelopeMutator): edits that keep the page JSON, with libFuzzer's
// byte mutator as the fallback (FLOW_MUTATOR_SHARE sets the mix).
@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzDecodableCustomMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt) -> Int {
    FuzzHarness.customMutator(.decodable, data, size, maxSize, seed, bytes: LLVMFuzzerMutate)
}

@_cdecl("LLVMFuzzerCustomCrossOver")
public func fuzzDecodableCustomCrossOver(_ data1: UnsafePointer<UInt8>?, _ size1: Int, _ data2: UnsafePointer<UInt8>?, _ size2: Int,
                                     _ out: UnsafeMutablePointer<UInt8>?, _ maxOutSize: Int, _ seed: CUnsignedInt) -> Int {
    FuzzHarness.customCrossOver(.decodable, data1, size1, data2, size2, out, maxOutSize, seed)
}
