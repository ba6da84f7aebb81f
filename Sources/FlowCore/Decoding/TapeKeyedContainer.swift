import FlowJSON

/// The keyed container ``TapeDecoder`` hands out for a JSON object: members are found on
/// the index, scalars read in place.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    let object: Int
    /// For large objects: key to value entry, first occurrence kept.
    let table: [String: Int]?
    /// Whether every key of the object is written without escapes and in ASCII: then an
    /// ASCII key is found by comparing bytes (equal bytes are equal strings, and no other
    /// spelling can be canonically equivalent to it).
    let plainKeys: Bool
    let codingPath: [any CodingKey]

    init(decoder: TapeDecoder, object: Int) throws {
        self.decoder = decoder
        self.object = object
        self.codingPath = decoder.codingPath
        let view = decoder.view
        // Foundation decodes every key when it opens an object.
        var members = 0
        var failed = false
        var plain = true
        let base = view.bytes.baseAddress!
        view.forEachMember(object) { k, _ in
            members += 1
            if view.flag(k) {
                plain = false
                if (try? view.string(k)) == nil { failed = true }
            } else if plain {
                let r = view.byteRange(k)
                plain = ShortBytes.isASCII(base + r.lowerBound, r.count)
            }
            return !failed
        }
        if failed {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "An object key is not a valid string."))
        }
        plainKeys = plain
        if members > 16 {
            var table = [String: Int](minimumCapacity: members)
            view.forEachMember(object) { k, v in
                if let key = try? view.string(k), table[key] == nil { table[key] = v }
                return true
            }
            self.table = table
        } else {
            self.table = nil
        }
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
        var name = key.stringValue
        if let table { return table[name] }
        let view = decoder.view
        if plainKeys {
            let found: Int?? = name.withUTF8 { wanted -> Int?? in
                let base = view.bytes.baseAddress!
                // Not ASCII: compare as strings, below.
                guard wanted.isEmpty || ShortBytes.isASCII(wanted.baseAddress!, wanted.count) else { return .none }
                var hit: Int?
                view.forEachMember(object) { k, v in
                    let r = view.byteRange(k)
                    if r.count == wanted.count && (wanted.isEmpty || ShortBytes.equal(base + r.lowerBound, wanted.baseAddress!, wanted.count)) {
                        hit = v
                        return false
                    }
                    return true
                }
                return .some(hit)
            }
            if let found { return found }
        }
        var found: Int?
        view.forEachMember(object) { k, v in
            if TapeObject.keyMatches(view, k, name) { found = v; return false }
            return true
        }
        return found
    }

    func require(_ key: Key) throws -> Int {
        guard let i = entry(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return i
    }

    func contains(_ key: Key) -> Bool { entry(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.kind(try require(key)) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decode(T.self, at: try require(key), key: key)
    }

    // Scalars are read in place: a host's content is mostly scalars and strings, and the
    // generic route (the cursor moved, the key pushed on the path, the type's own
    // `init(from:)` asking for a single-value container) costs several times the read.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool(try require(key), key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.string(try require(key), key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.number(Double.self, try require(key), key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.number(Float.self, try require(key), key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.integer(Int.self, try require(key), key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.integer(Int8.self, try require(key), key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.integer(Int16.self, try require(key), key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.integer(Int32.self, try require(key), key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.integer(Int64.self, try require(key), key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.integer(UInt.self, try require(key), key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.integer(UInt8.self, try require(key), key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.integer(UInt16.self, try require(key), key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.integer(UInt32.self, try require(key), key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.integer(UInt64.self, try require(key), key) }

    /// The entry for `key` when it is present and not null (Foundation's `decodeIfPresent`).
    private func present(_ key: Key) -> Int? {
        guard let i = entry(key), decoder.kind(i) != .null else { return nil }
        return i
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map { try decoder.bool($0, key) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key).map { try decoder.string($0, key) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key).map { try decoder.number(Double.self, $0, key) } }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(key).map { try decoder.number(Float.self, $0, key) } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key).map { try decoder.integer(Int.self, $0, key) } }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(key).map { try decoder.integer(Int8.self, $0, key) } }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(key).map { try decoder.integer(Int16.self, $0, key) } }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(key).map { try decoder.integer(Int32.self, $0, key) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key).map { try decoder.integer(Int64.self, $0, key) } }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(key).map { try decoder.integer(UInt.self, $0, key) } }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(key).map { try decoder.integer(UInt8.self, $0, key) } }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(key).map { try decoder.integer(UInt16.self, $0, key) } }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(key).map { try decoder.integer(UInt32.self, $0, key) } }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(key).map { try decoder.integer(UInt64.self, $0, key) } }

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
