import FlowJSON

/// The keyed container ``TapeDecoder`` hands out for a JSON object: members are found on
/// the index, scalars read in place.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    // Two counted references (the path is usually the shared empty array): the standard
    // library's box copies this struct around every call, through unspecialized witnesses,
    // so each reference stored here is paid for on every field a host decodes.
    let decoder: TapeDecoder
    let object: Int
    /// Whether every key of the object is written without escapes and in ASCII: then an
    /// ASCII key is found by comparing bytes (equal bytes are equal strings, and no other
    /// spelling can be canonically equivalent to it).
    let plainKeys: Bool
    /// More than ``tableThreshold`` members: keys are looked up in a table the decoder
    /// keeps for this object (``TapeDecoder/memberTable(_:)``), not by a scan.
    let large: Bool
    let codingPath: [any CodingKey]

    static var tableThreshold: Int { 16 }

    init(decoder: TapeDecoder, object: Int) throws {
        self.decoder = decoder
        self.object = object
        self.codingPath = decoder.codingPath
        let view = decoder.view
        // Foundation decodes every key when it opens an object.
        let base = view.bytes.baseAddress!
        let end = view.next(object)
        var members = 0
        var plain = true
        var k = object + 1
        while k < end {
            members += 1
            if view.flag(k) {
                plain = false
                if (try? view.string(k)) == nil {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "An object key is not a valid string."))
                }
            } else if plain {
                let r = view.byteRange(k)
                plain = ShortBytes.isASCII(base + r.lowerBound, r.count)
            }
            k = view.next(k + 1)
        }
        plainKeys = plain
        large = members > Self.tableThreshold
        if large { decoder.buildMemberTable(object, members: members) }
    }

    var allKeys: [Key] {
        var result: [Key] = []
        var seen = Set<String>()
        let view = decoder.view
        view.forEachMember(object) { k, _ in
            if let s = try? view.string(k), seen.insert(s).inserted, let key = Key(stringValue: s) { result.append(key) }
            return true
        }
        return result
    }

    /// The value entry of the first member named `key`.
    func entry(_ key: some CodingKey) -> Int? {
        let name = key.stringValue
        if large { return decoder.memberTable(object)[name] }
        let view = decoder.view
        if plainKeys, let found = name.utf8.withContiguousStorageIfAvailable({ wanted -> Int?? in
            // Not ASCII: compare as strings, below.
            guard let w = wanted.baseAddress else { return .some(firstMember(view) { $0.isEmpty }) }
            let n = wanted.count
            guard ShortBytes.isASCII(w, n) else { return .none }
            let base = view.bytes.baseAddress!
            return .some(firstMember(view) { r in r.count == n && ShortBytes.equal(base + r.lowerBound, w, n) })
        }), let found {
            return found
        }
        return slowEntry(view, name)
    }

    /// The value entry of the first member whose key's byte range satisfies `matches`.
    @inline(__always)
    private func firstMember(_ view: JSONTapeView, _ matches: (Range<Int>) -> Bool) -> Int? {
        let end = view.next(object)
        var k = object + 1
        while k < end {
            if matches(view.byteRange(k)) { return k + 1 }
            k = view.next(k + 1)
        }
        return nil
    }

    /// Keys compared as strings (escapes decoded, canonical equivalence), as Foundation does.
    private func slowEntry(_ view: JSONTapeView, _ name: String) -> Int? {
        var found: Int?
        view.forEachMember(object) { k, v in
            if TapeObject.keyMatches(view, k, name) { found = v; return false }
            return true
        }
        return found
    }

    func require(_ key: Key) throws -> Int {
        guard let i = entry(key) else { throw keyNotFound(key) }
        return i
    }

    @inline(never)
    private func keyNotFound(_ key: Key) -> DecodingError {
        DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
    }

    func contains(_ key: Key) -> Bool { entry(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.kind(try require(key)) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decode(T.self, at: try require(key), key: key)
    }

    // Scalars are read in place: a host's content is mostly scalars and strings, and the
    // generic route (the cursor moved, the key pushed on the path, the type's own
    // `init(from:)` asking for a single-value container) costs several times the read.

    /// Entry `i` read by `fast` (nil: not that kind, not representable, or escaped), else
    /// by `slow`, which decodes escapes or throws the error naming `key`. The key becomes an
    /// existential only on that path: boxing it for every read costs more than the read.
    @inline(__always)
    private func read<T>(_ i: Int, _ key: Key, _ fast: (Int) -> T?, _ slow: (Int, any CodingKey) throws -> T) throws -> T {
        if let value = fast(i) { return value }
        return try slow(i, key)
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(try require(key), key, { decoder.boolInPlace($0) }, { try decoder.bool($0, $1) }) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(try require(key), key, { decoder.stringInPlace($0) }, { try decoder.string($0, $1) }) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(try require(key), key, { decoder.numberInPlace(Double.self, $0) }, { try decoder.number(Double.self, $0, $1) }) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(try require(key), key, { decoder.numberInPlace(Float.self, $0) }, { try decoder.number(Float.self, $0, $1) }) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(try require(key), key, { decoder.integerInPlace(Int.self, $0) }, { try decoder.integer(Int.self, $0, $1) }) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(try require(key), key, { decoder.integerInPlace(Int8.self, $0) }, { try decoder.integer(Int8.self, $0, $1) }) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(try require(key), key, { decoder.integerInPlace(Int16.self, $0) }, { try decoder.integer(Int16.self, $0, $1) }) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(try require(key), key, { decoder.integerInPlace(Int32.self, $0) }, { try decoder.integer(Int32.self, $0, $1) }) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(try require(key), key, { decoder.integerInPlace(Int64.self, $0) }, { try decoder.integer(Int64.self, $0, $1) }) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(try require(key), key, { decoder.integerInPlace(UInt.self, $0) }, { try decoder.integer(UInt.self, $0, $1) }) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(try require(key), key, { decoder.integerInPlace(UInt8.self, $0) }, { try decoder.integer(UInt8.self, $0, $1) }) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(try require(key), key, { decoder.integerInPlace(UInt16.self, $0) }, { try decoder.integer(UInt16.self, $0, $1) }) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(try require(key), key, { decoder.integerInPlace(UInt32.self, $0) }, { try decoder.integer(UInt32.self, $0, $1) }) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(try require(key), key, { decoder.integerInPlace(UInt64.self, $0) }, { try decoder.integer(UInt64.self, $0, $1) }) }

    /// The entry for `key` when it is present and not null (Foundation's `decodeIfPresent`).
    private func present(_ key: Key) -> Int? {
        guard let i = entry(key), decoder.kind(i) != .null else { return nil }
        return i
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map { try read($0, key, { decoder.boolInPlace($0) }, { try decoder.bool($0, $1) }) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key).map { try read($0, key, { decoder.stringInPlace($0) }, { try decoder.string($0, $1) }) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key).map { try read($0, key, { decoder.numberInPlace(Double.self, $0) }, { try decoder.number(Double.self, $0, $1) }) } }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(key).map { try read($0, key, { decoder.numberInPlace(Float.self, $0) }, { try decoder.number(Float.self, $0, $1) }) } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key).map { try read($0, key, { decoder.integerInPlace(Int.self, $0) }, { try decoder.integer(Int.self, $0, $1) }) } }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(key).map { try read($0, key, { decoder.integerInPlace(Int8.self, $0) }, { try decoder.integer(Int8.self, $0, $1) }) } }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(key).map { try read($0, key, { decoder.integerInPlace(Int16.self, $0) }, { try decoder.integer(Int16.self, $0, $1) }) } }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(key).map { try read($0, key, { decoder.integerInPlace(Int32.self, $0) }, { try decoder.integer(Int32.self, $0, $1) }) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key).map { try read($0, key, { decoder.integerInPlace(Int64.self, $0) }, { try decoder.integer(Int64.self, $0, $1) }) } }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(key).map { try read($0, key, { decoder.integerInPlace(UInt.self, $0) }, { try decoder.integer(UInt.self, $0, $1) }) } }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(key).map { try read($0, key, { decoder.integerInPlace(UInt8.self, $0) }, { try decoder.integer(UInt8.self, $0, $1) }) } }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(key).map { try read($0, key, { decoder.integerInPlace(UInt16.self, $0) }, { try decoder.integer(UInt16.self, $0, $1) }) } }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(key).map { try read($0, key, { decoder.integerInPlace(UInt32.self, $0) }, { try decoder.integer(UInt32.self, $0, $1) }) } }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(key).map { try read($0, key, { decoder.integerInPlace(UInt64.self, $0) }, { try decoder.integer(UInt64.self, $0, $1) }) } }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let i = present(key) else { return nil }
        return try decoder.decode(T.self, at: i, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.at(try require(key), key: key) { try decoder.container(keyedBy: NestedKey.self) }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.at(try require(key), key: key) { try decoder.unkeyedContainer() }
    }

    func superDecoder() throws -> any Decoder { subdecoder(AnyCodingKey("super")) }

    func superDecoder(forKey key: Key) throws -> any Decoder { subdecoder(key) }

    /// A decoder for the member (a decoder of `null` when it is missing, as Foundation's).
    private func subdecoder(_ key: any CodingKey) -> any Decoder {
        guard let i = entry(key) else { return TapeDecoder.null(path: codingPath + [key]) }
        let d = TapeDecoder(document: decoder.document, index: i, userInfo: decoder.userInfo)
        d.path = codingPath + [key]
        return d
    }
}
