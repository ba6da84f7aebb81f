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
    /// (the closing brackets that follow are implied by those bytes) with ``ByteHash``.
    /// Identical text gives identical hashes; whitespace and spelling count, so text that
    /// differs only in formatting hashes differently (a conservative answer to
    /// "did this change?"). Not cryptographic: collisions about 2^-64.
    ///
    /// - Complexity: O(bytes of the subtree) plus O(members) to find an excluded one.
    public func textFingerprint(_ i: Int, excluding key: StaticString? = nil) -> UInt64 {
        let end = next(i)
        let span = textSpan(i)
        let start = span.lowerBound, stop = span.upperBound
        let base = bytes.baseAddress!
        /// Bytes `from..<to` of the document, chained from `seed`.
        @inline(__always) func hash(_ from: Int, _ to: Int, _ seed: UInt64) -> UInt64 {
            ByteHash.hash(UnsafeRawBufferPointer(start: base + from, count: to - from), seed: seed)
        }
        // The subtree's entry count starts the chain.
        var h = hash(start, start, UInt64(end - i))
        guard let key, kind(i) == .object else { return hash(start, stop, h) }
        var cut: Range<Int>?
        forEachMember(i) { k, v in
            if !flag(k), payload(k) == key.utf8CodeUnitCount, memcmp(base + offset(k), key.utf8Start, key.utf8CodeUnitCount) == 0 {
                cut = (offset(k) - 1)..<tokenEnd(next(v) - 1)
                return false
            }
            return true
        }
        guard let cut else { return hash(start, stop, h) }
        h = hash(start, cut.lowerBound, h)
        return hash(cut.upperBound, stop, h)
    }

    /// The bytes ``textFingerprint(_:excluding:)`` hashes: from the subtree's first byte to
    /// the end of its last token. Two subtrees with equal spans are the same JSON text.
    public func textSpan(_ i: Int) -> Range<Int> { offset(i)..<tokenEnd(next(i) - 1) }

    /// The offset just past the last byte of entry `e`'s own token (for a container, its
    /// opening bracket: what follows is described by later entries).
    @inlinable @inline(__always)
    func tokenEnd(_ e: Int) -> Int {
        switch kind(e) {
        case .string: offset(e) + payload(e) + 1
        case .number: offset(e) + payload(e)
        case .true, .null: offset(e) + 4
        case .false: offset(e) + 5
        case .array, .object: offset(e) + 1
        }
    }
}
