#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Equality of short byte strings (object keys, widget type names) without a call to
/// `memcmp`, whose call and dispatch cost more than comparing a dozen bytes: the field
/// tables, the tape reader's key lookups and the registry's type-name lookup all compare
/// this way. In FlowCore, beside its callers, because it must inline into them: from
/// another module, even marked inlinable, it stays a call, on every member of every object.
enum ShortBytes {
    /// Whether `count` bytes at `a` and `b` are equal. Up to 16 bytes compare as their
    /// ``words(_:_:)``; longer ones through `memcmp`.
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        guard count > 0 else { return true }
        guard count <= 16 else { return memcmp(a, b, count) == 0 }
        return words(a, count) == words(b, count)
    }

    /// What stands for `count` (> 0) bytes: the first and last eight bytes (they overlap
    /// below 16), four for 4 to 7 bytes, the first, middle and last byte below that; up to
    /// 16 bytes, equal words mean equal bytes. Every load stays within the `count` bytes.
    @inline(__always)
    static func words(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> (UInt64, UInt64) {
        let raw = UnsafeRawPointer(bytes)
        switch count {
        case 8...:
            return (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
        case 4..<8:
            return (UInt64(raw.loadUnaligned(as: UInt32.self)), UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
        default:
            return (UInt64(bytes[0]) | UInt64(bytes[count >> 1]) << 8 | UInt64(bytes[count &- 1]) << 16, 0)
        }
    }

    /// Whether the `count` bytes at `bytes` are all ASCII: up to 16 bytes (most keys) from
    /// their ``words(_:_:)``, which cover every byte; longer ones eight at a time.
    @inline(__always)
    static func isASCII(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        if count <= 16 {
            guard count > 0 else { return true }
            let (a, b) = words(bytes, count)
            return (a | b) & 0x8080_8080_8080_8080 == 0
        }
        let raw = UnsafeRawPointer(bytes)
        var i = 0
        while i &+ 8 <= count {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i &+= 8
        }
        while i < count {
            if bytes[i] >= 0x80 { return false }
            i &+= 1
        }
        return true
    }
}
