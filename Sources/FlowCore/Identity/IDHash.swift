import FlowJSON

/// The 64-bit hash of an id that widgets keep beside it: the id sets of the identity pass
/// probe with it (a widget's id is hashed once per decode), and so do the diff's tables and
/// the registry's by-bytes lookup of type names.
///
/// ``ByteHash`` over the bytes of the id's NFC form, seeded per process. An ASCII id is
/// its own NFC form and is hashed in place; any other is normalised first, as `String`
/// does to compare, so ids that are equal as strings ("K" and the Kelvin sign) hash alike.
/// The seed is secret to the process, so a page cannot be built in advance to make its
/// ids collide; the id sets also watch their probes (see ``NameSet``).
enum IDHash {
    @inline(__always)
    static func of(_ id: String) -> UInt64 {
        let inPlace = id.utf8.withContiguousStorageIfAvailable { bytes -> UInt64? in
            let (hash, isASCII) = ByteHash.hashNotingASCII(UnsafeRawBufferPointer(bytes), seed: ByteHash.processSeed)
            return isASCII ? hash : nil
        }
        if let hash = inPlace ?? nil { return hash }
        return normalising(id)
    }

    /// The hash of the id whose UTF-8 is `bytes`.
    @inline(__always)
    static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let (hash, isASCII) = ByteHash.hashNotingASCII(UnsafeRawBufferPointer(bytes), seed: ByteHash.processSeed)
        return isASCII ? hash : normalising(String(decoding: bytes, as: UTF8.self))
    }

    @inline(never)
    private static func normalising(_ id: String) -> UInt64 {
        id._nfcCodeUnits.withUnsafeBytes { ByteHash.hash($0, seed: ByteHash.processSeed) }
    }
}
