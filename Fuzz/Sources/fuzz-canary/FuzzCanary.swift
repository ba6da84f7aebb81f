// The `canary` fuzz target: FuzzTarget.canary (FlowWorkloads) under libFuzzer, the positive
// control of Fuzz/canaries.sh (FLOW_CANARY=1...8 arms one planted crash). Not among the
// targets CI fuzzes, OSS-Fuzz builds or hosts link.
import CLibFuzzer
import FlowWorkloads

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCanaryTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzHarness.testOneInput(.canary, data, size)
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzCanaryInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    FuzzHarness.initialize(.canary)
}

// Structure-aware mutations (EnvelopeMutator): edits that keep the page JSON, with libFuzzer's
// byte mutator as the fallback (FLOW_MUTATOR_SHARE sets the mix).
@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzCanaryCustomMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt) -> Int {
    FuzzHarness.customMutator(.canary, data, size, maxSize, seed, bytes: LLVMFuzzerMutate)
}

@_cdecl("LLVMFuzzerCustomCrossOver")
public func fuzzCanaryCustomCrossOver(_ data1: UnsafePointer<UInt8>?, _ size1: Int, _ data2: UnsafePointer<UInt8>?, _ size2: Int,
                                     _ out: UnsafeMutablePointer<UInt8>?, _ maxOutSize: Int, _ seed: CUnsignedInt) -> Int {
    FuzzHarness.customCrossOver(.canary, data1, size1, data2, size2, out, maxOutSize, seed)
}
