#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands strings spelled the same bytes one shared storage, within one decode.
///
/// Pages repeat their labels ("Added to your list", "Free delivery") over thousands of
/// widgets, and a string longer than 15 bytes is a heap object of its own (shorter ones
/// live inside the `String`). The cache remembers the last string seen in each of
/// ``slotCount`` slots, chosen by the length and the first and last bytes, and hands it
/// back when the next string there is the same bytes: one comparison instead of an
/// allocation, a copy and a UTF-8 check. Strings are values, so sharing their storage is
/// invisible; the match is on bytes, so a string is exactly what its text says. The cache
/// never grows, and when its lookups keep missing (a page of all-different strings) it
/// rests under ``SharingPolicy/strings``.
struct StringCache {
    static let slotCount = 256
    private var slots: [String?] = []
    private var lookups = LookupWindow()

    /// The string whose UTF-8 is `raw` (already validated: a scanned string without
    /// escapes, longer than 15 bytes).
    mutating func string(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        guard lookups.looks() else { return Self.make(raw) }
        let n = raw.count
        let base = UnsafeRawPointer(raw.baseAddress!)
        let first = base.loadUnaligned(as: UInt64.self), last = base.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        let slot = Int(truncatingIfNeeded: ((first &+ last &* 31 &+ UInt64(n)) &* 0x9E37_79B9_7F4A_7C15) >> 56)
        if slots.isEmpty { slots = [String?](repeating: nil, count: Self.slotCount) }
        if let known = slots[slot], known.utf8.count == n,
           known.utf8.withContiguousStorageIfAvailable({ memcmp($0.baseAddress!, base, n) == 0 }) == true {
            lookups.count(hit: true, under: .strings)
            return known
        }
        lookups.count(hit: false, under: .strings)
        let made = Self.make(raw)
        slots[slot] = made
        return made
    }

    private static func make(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: raw.count) { out in
            _ = out.initialize(fromContentsOf: raw)
            return raw.count
        }
    }
}
