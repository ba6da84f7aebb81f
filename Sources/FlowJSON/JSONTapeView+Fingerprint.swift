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

    /// Four independent multiply-mix lanes over 32-byte blocks, folded at the end.
    static func hashBytes(_ p: UnsafePointer<UInt8>, _ count: Int, _ seed: UInt64) -> UInt64 {
        let m: UInt64 = 0x9E37_79B9_7F4A_7C15
        var a = seed ^ 0x243F_6A88_85A3_08D3, b = seed &+ 0x1319_8A2E_0370_7344
        var c = seed ^ 0xA409_3822_299F_31D0, d = seed &- 0x082E_FA98_EC4E_6C89
        var i = 0
        let raw = UnsafeRawPointer(p)
        while i + 32 <= count {
            a = (a ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* m
            b = (b ^ raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)) &* m
            c = (c ^ raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)) &* m
            d = (d ^ raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)) &* m
            a ^= a >> 29; b ^= b >> 29; c ^= c >> 29; d ^= d >> 29
            i += 32
        }
        while i + 8 <= count {
            a = (a ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* m
            a ^= a >> 29
            i += 8
        }
        var tail: UInt64 = 0
        if i < count && count >= 8 {
            // The last eight bytes, overlapping those already mixed: one load, not a loop.
            tail = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else {
            var shift: UInt64 = 0
            while i < count {
                tail |= UInt64(p[i]) << shift
                shift += 8
                i += 1
            }
        }
        b = (b ^ tail ^ UInt64(count)) &* m
        var h = a ^ (b >> 7) ^ (c << 11) ^ (d >> 17) ^ (b &* 31)
        h = (h ^ (h >> 32)) &* m
        return h ^ (h >> 29)
    }
}
