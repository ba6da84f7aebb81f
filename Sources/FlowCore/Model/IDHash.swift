/// The 64-bit hash of an id's UTF-8 bytes that widgets keep beside their id (the diff and
/// its id table use it instead of rehashing strings). Ids compare by their bytes here.
/// The registry keys its by-bytes lookup of type names with it too.
enum IDHash {
    @inline(__always)
    static func of(_ id: String) -> UInt64 {
        var id = id
        return id.withUTF8 { of($0) }
    }

    @inline(__always)
    static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        var i = 0
        let raw = UnsafeRawPointer(bytes.baseAddress)
        while i + 8 <= bytes.count {
            h = (h ^ raw!.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
            i += 8
        }
        var tail: UInt64 = 0
        if i < bytes.count {
            if bytes.count >= 8 {
                // The last eight bytes, overlapping the previous block: one load.
                tail = raw!.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
            } else {
                var shift: UInt64 = 0
                while i < bytes.count {
                    tail |= UInt64(bytes[i]) << shift
                    shift += 8
                    i += 1
                }
            }
        }
        h = (h ^ tail) &* 0x9E37_79B9_7F4A_7C15
        return h ^ (h >> 32)
    }
}
