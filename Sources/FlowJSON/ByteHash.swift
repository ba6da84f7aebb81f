/// The project's one hash of raw bytes: subtree fingerprints here, and in FlowCore the
/// hash of widget ids (kept beside each id, and the one the id sets and the diff's tables
/// probe with).
///
/// Two lanes, each taking sixteen bytes per step as one folded 64x64->128 multiply (the
/// high and low halves of the product xored): a word xored into the lane's state, times a
/// word xored with a constant. Every byte of the constants is 0xF8 or above, which valid
/// UTF-8 never contains, so the second factor is never zero for text. The last 0-15
/// bytes are read as two overlapping words (as two overlapping halves under eight bytes,
/// as the first, middle and last byte under four), and the count is mixed in, so each
/// length's reading covers every byte.
///
/// Not built to resist someone who knows the seed. Tables an input could flood take
/// ``processSeed`` (random per process), so their collisions cannot be worked out in
/// advance; the identity pass's id sets also watch their probes (FlowCore's `NameSet`).
public enum ByteHash {
    /// A seed drawn from `Hasher`: random per process, fixed when
    /// `SWIFT_DETERMINISTIC_HASHING` is set, as every other hash in the process.
    public static let processSeed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x6279_7465_6861_7368 as UInt64)
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }()

    /// The hash of `bytes`.
    @inlinable
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        hashNotingASCII(bytes, seed: seed).value
    }

    /// The hash of `bytes`, and whether every one of them is ASCII (the reading covers
    /// each byte, so this costs an `or` per word).
    @inlinable @inline(__always)
    public static func hashNotingASCII(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> (value: UInt64, isASCII: Bool) {
        let (k1, k2) = factors
        let count = bytes.count
        var a = seed ^ starts.0, b = seed ^ starts.1
        var x: UInt64 = 0, y: UInt64 = 0
        var seen: UInt64 = 0
        // No address means no bytes: only the count is mixed in.
        if let p = bytes.baseAddress {
            @inline(__always) func word(_ at: Int) -> UInt64 {
                let w = p.loadUnaligned(fromByteOffset: at, as: UInt64.self)
                seen |= w
                return w
            }
            var i = 0
            while i + 32 <= count {
                a = fold(word(i) ^ a, word(i + 8) ^ k1)
                b = fold(word(i + 16) ^ b, word(i + 24) ^ k2)
                i += 32
            }
            if i + 16 <= count {
                a = fold(word(i) ^ a, word(i + 8) ^ k1)
                i += 16
            }
            let rest = count - i
            if rest >= 8 {
                x = word(i)
                y = word(count - 8)
            } else if rest >= 4 {
                x = UInt64(p.loadUnaligned(fromByteOffset: i, as: UInt32.self))
                y = UInt64(p.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
                seen |= x | y
            } else if rest > 0 {
                x = UInt64(bytes[i]) | UInt64(bytes[i + rest / 2]) << 8 | UInt64(bytes[count - 1]) << 16
                seen |= x
            }
        }
        b = fold(x ^ b ^ UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15, y ^ k1)
        return (fold(a ^ k2, b ^ 0x9E37_79B9_7F4A_7C15), seen & 0x8080_8080_8080_8080 == 0)
    }

    /// What the two lanes start from, xored with the seed.
    @inlinable
    static var starts: (UInt64, UInt64) { (0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344) }

    /// What the lanes' second words are xored with.
    @inlinable
    static var factors: (UInt64, UInt64) { (0xF8F9_FAFB_FCFD_FEFF, 0xFFFE_FDFC_FBFA_F9F8) }

    /// The high and low halves of the full product, xored: every input bit reaches both
    /// the low bits a table's slot comes from and the high bits of a tag.
    @inlinable @inline(__always)
    static func fold(_ x: UInt64, _ y: UInt64) -> UInt64 {
        let product = x.multipliedFullWidth(by: y)
        return product.high ^ product.low
    }
}
