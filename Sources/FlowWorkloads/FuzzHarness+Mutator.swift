import Foundation

extension FuzzHarness {
    /// libFuzzer's `LLVMFuzzerMutate`, as an entry point passes it in: the fuzz executables
    /// declare the symbol (it exists only in a libFuzzer link), this module never names it.
    public typealias ByteMutator = (_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

    /// The share of mutations of a parsing input that ``EnvelopeMutator`` makes (the rest go
    /// to libFuzzer's byte mutator), from `FLOW_MUTATOR_SHARE` (a percentage: 0 is byte
    /// mutations only, as without a custom mutator; 100 is envelope edits whenever the input
    /// parses), else ``defaultEnvelopeShare``.
    public static let envelopeShare: Double = {
        guard let text = ProcessInfo.processInfo.environment["FLOW_MUTATOR_SHARE"], let percent = Double(text) else {
            return defaultEnvelopeShare
        }
        return min(max(percent / 100, 0), 1)
    }()

    /// The default share: `Fuzz/compare-mutators.sh` measures the mix against bytes alone.
    public static let defaultEnvelopeShare = 0.5

    /// `LLVMFuzzerCustomMutator`: the target's envelope mutator (byte mutations for a target
    /// without one), in place in libFuzzer's buffer of `maxSize` bytes.
    public static func customMutator(_ target: FuzzTarget, _ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int,
                                     _ seed: CUnsignedInt, bytes: ByteMutator) -> Int {
        guard let data else { return 0 }
        guard let mutator = target.mutator, envelopeShare > 0 else { return bytes(data, size, maxSize) }
        let input = Array(UnsafeBufferPointer(start: data, count: size))
        var inPlace = false
        let (output, _) = withoutActuallyEscaping(bytes) { bytes in
            // One value's bytes, in a buffer of their own: libFuzzer's buffer holds the input.
            let scalars: EnvelopeMutator.ScalarMutator = { value, limit in
                let capacity = max(limit, value.count, 1)
                let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                defer { buffer.deallocate() }
                value.withUnsafeBufferPointer { if let base = $0.baseAddress { buffer.update(from: base, count: $0.count) } }
                let n = bytes(buffer, value.count, capacity)
                return Array(UnsafeBufferPointer(start: buffer, count: n))
            }
            return mutator.mutate(input, maxSize: maxSize, seed: seed, envelopeShare: envelopeShare, bytes: { _ in
                inPlace = true
                let n = bytes(data, size, maxSize)
                return Array(UnsafeBufferPointer(start: data, count: n))
            }, scalars: scalars)
        }
        if !inPlace { output.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: output.count) } }
        return output.count
    }

    /// `LLVMFuzzerCustomCrossOver`: splices a widget, section or mutation of the second input
    /// into the first; 0 (libFuzzer then mutates otherwise) when none fits, or when the share
    /// is 0 (byte mutations only: libFuzzer's own crossover is among them).
    public static func customCrossOver(_ target: FuzzTarget, _ data1: UnsafePointer<UInt8>?, _ size1: Int,
                                       _ data2: UnsafePointer<UInt8>?, _ size2: Int,
                                       _ out: UnsafeMutablePointer<UInt8>?, _ maxOutSize: Int, _ seed: CUnsignedInt) -> Int {
        guard let mutator = target.mutator, envelopeShare > 0, let data1, let data2, let out else { return 0 }
        let a = Array(UnsafeBufferPointer(start: data1, count: size1))
        let b = Array(UnsafeBufferPointer(start: data2, count: size2))
        guard let (output, _) = mutator.crossOver(a, b, maxSize: maxOutSize, seed: seed), !output.isEmpty else { return 0 }
        output.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: output.count) }
        return output.count
    }
}
