#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension JSONTapeView {
    /// A 64-bit hash of the text of the subtree at entry `i`, optionally leaving out one
    /// member of its top level (a widget's `id`, which renaming may change).
    ///
    /// It hashes the bytes from the subtree's first byte to the end of its last token
    /// (the closing brackets that follow are implied by those bytes), four 8-byte lanes at
    /// a time. Identical text gives identical hashes; whitespace and spelling count, so
    /// text that differs only in formatting hashes differently (a conservative answer to
    /// "did this change?"). Not cryptographic: collisions about 2^-64.
    ///
    /// - Complexity: O(bytes of the subtree) plus O(members) to find an excluded one.
    public func textFingerprint(_ i: Int, excluding key: StaticString? = nil) -> UInt64 {
        let end = next(i)
        let span = textSpan(i)
        let start = span.lowerBound, stop = span.upperBound
        let base = bytes.baseAddress!
        var h = Self.hashBytes(base + start, 0, UInt64(end - i))
        guard let key, kind(i) == .object else { return Self.hashBytes(base + start, stop - start, h) }
        var cut: Range<Int>?
        forEachMember(i) { k, v in
            if !flag(k), payload(k) == key.utf8CodeUnitCount, memcmp(base + offset(k), key.utf8Start, key.utf8CodeUnitCount) == 0 {
                cut = (offset(k) - 1)..<tokenEnd(next(v) - 1)
                return false
            }
            return true
        }
        guard let cut else { return Self.hashBytes(base + start, stop - start, h) }
        h = Self.hashBytes(base + start, cut.lowerBound - start, h)
        return Self.hashBytes(base + cut.upperBound, stop - cut.upperBound, h)
    }

    /// The bytes ``textFingerprint(_:excluding:)`` hashes: from the subtree's first byte to
    /// the end of its last token. Two subtrees with equal spans are the same JSON text.
    public func textSpan(_ i: Int) -> Range<Int> { offset(i)..<tokenEnd(next(i) - 1) }

    /// The offset just past the last byte of entry `e`'s own token (for a container, its
    /// opening bracket: what follows is described by later entries).
    @inline(__always)
    func tokenEnd(_ e: Int) -> Int {
        switch kind(e) {
        case .string: offset(e) + payload(e) + 1
        case .number: offset(e) + payload(e)
        case .true, .null: offset(e) + 4
        case .false: offset(e) + 5
        case .array, .object: offset(e) + 1
        }
    }

    /// Two lanes, each taking sixteen bytes per step as one folded 64x64->128 multiply (the
    /// high and low halves xored): a word xored into the lane's state times a word xored
    /// with a constant. Every byte of the constants is 0xF8 or above, which valid UTF-8
    /// never contains, so the second factor is never zero for text. The last 0-15 bytes
    /// are read as overlapping words (as the first, middle and last byte under four), and
    /// the count is mixed in, so each length's reading covers every byte.
    static func hashBytes(_ p: UnsafePointer<UInt8>, _ count: Int, _ seed: UInt64) -> UInt64 {
        let k1: UInt64 = 0xF8F9_FAFB_FCFD_FEFF, k2: UInt64 = 0xFFFE_FDFC_FBFA_F9F8
        var a = seed ^ 0x243F_6A88_85A3_08D3, b = seed ^ 0x1319_8A2E_0370_7344
        var i = 0
        let raw = UnsafeRawPointer(p)
        @inline(__always) func word(_ at: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: at, as: UInt64.self) }
        while i + 32 <= count {
            a = fold(word(i) ^ a, word(i + 8) ^ k1)
            b = fold(word(i + 16) ^ b, word(i + 24) ^ k2)
            i += 32
        }
        if i + 16 <= count {
            a = fold(word(i) ^ a, word(i + 8) ^ k1)
            i += 16
        }
        var x: UInt64 = 0, y: UInt64 = 0
        let rest = count - i
        if rest >= 8 {
            x = word(i)
            y = word(count - 8)
        } else if rest >= 4 {
            x = UInt64(raw.loadUnaligned(fromByteOffset: i, as: UInt32.self))
            y = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
        } else if rest > 0 {
            x = UInt64(p[i]) | UInt64(p[i + rest / 2]) << 8 | UInt64(p[count - 1]) << 16
        }
        b = fold(x ^ b ^ UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15, y ^ k1)
        return fold(a ^ k2, b ^ 0x9E37_79B9_7F4A_7C15)
    }

    @inline(__always)
    private static func fold(_ x: UInt64, _ y: UInt64) -> UInt64 {
        let product = x.multipliedFullWidth(by: y)
        return product.high ^ product.low
    }
}
