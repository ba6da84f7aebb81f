import FlowJSON

/// The keyed container ``TapeDecoder`` hands out for a JSON object: members are found on
/// the index, scalars read in place.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    // One counted reference: the standard library's box copies this struct around every
    // call, through unspecialized witnesses, so each reference stored here is paid for on
    // every field a host decodes.
    let state: TapeKeyedObject

    var codingPath: [any CodingKey] { state.codingPath }

    var allKeys: [Key] {
        var result: [Key] = []
        var seen = Set<String>()
        let view = state.view
        view.forEachMember(state.object) { k, _ in
            if let s = try? view.string(k), seen.insert(s).inserted, let key = Key(stringValue: s) { result.append(key) }
            return true
        }
        return result
    }

    /// The value entry of the first member named `key`.
    ///
    /// A key of one byte or none (a `CodingKeys` enum) is known by that byte: its name is
    /// learned the first time it is asked for and kept with the container
    /// (``TapeKeyedObject/learn(_:_:)``), which saves asking the key for its name and summing
    /// it on every field of every value. Equal bytes are an equal key, and a key's name is
    /// taken to depend on nothing else, as `CodingKey` intends.
    func entry(_ key: Key) -> Int? {
        let state = self.state
        if state.plainKeys && !state.large && MemoryLayout<Key>.size <= 1 {
            // Read as a byte in place (a closure over the key's bytes would copy it first).
            let tag = MemoryLayout<Key>.size == 0 ? 0 : Int(unsafeBitCast(key, to: UInt8.self))
            let name = state.name(tag) ?? state.learn(tag, key.stringValue)
            if name.isShort { return state.plainEntry(name) }
        }
        return entry(named: key.stringValue)
    }

    /// The value entry of the first member named `name`.
    func entry(named name: String) -> Int? {
        let state = self.state
        if state.large { return state.owner.memberTable(state.object)[name] }
        var name = name
        if state.plainKeys, let found = name.withUTF8({ state.plainEntry($0) }) { return found }
        return slowEntry(state.view, name)
    }

    /// Keys compared as strings (escapes decoded, canonical equivalence), as Foundation does.
    private func slowEntry(_ view: JSONTapeView, _ name: String) -> Int? {
        var found: Int?
        view.forEachMember(state.object) { k, v in
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

    func decodeNil(forKey key: Key) throws -> Bool { state.view.kind(try require(key)) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try state.owner.decode(T.self, at: try require(key), key: key)
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
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(try require(key), key, { state.view.boolInPlace($0) }, { try state.owner.bool($0, $1) }) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(try require(key), key, { state.view.stringInPlace($0) }, { try state.owner.string($0, $1) }) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(try require(key), key, { state.view.numberInPlace(Double.self, $0) }, { try state.owner.number(Double.self, $0, $1) }) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(try require(key), key, { state.view.numberInPlace(Float.self, $0) }, { try state.owner.number(Float.self, $0, $1) }) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(try require(key), key, { state.view.integerInPlace(Int.self, $0) }, { try state.owner.integer(Int.self, $0, $1) }) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(try require(key), key, { state.view.integerInPlace(Int8.self, $0) }, { try state.owner.integer(Int8.self, $0, $1) }) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(try require(key), key, { state.view.integerInPlace(Int16.self, $0) }, { try state.owner.integer(Int16.self, $0, $1) }) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(try require(key), key, { state.view.integerInPlace(Int32.self, $0) }, { try state.owner.integer(Int32.self, $0, $1) }) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(try require(key), key, { state.view.integerInPlace(Int64.self, $0) }, { try state.owner.integer(Int64.self, $0, $1) }) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(try require(key), key, { state.view.integerInPlace(UInt.self, $0) }, { try state.owner.integer(UInt.self, $0, $1) }) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(try require(key), key, { state.view.integerInPlace(UInt8.self, $0) }, { try state.owner.integer(UInt8.self, $0, $1) }) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(try require(key), key, { state.view.integerInPlace(UInt16.self, $0) }, { try state.owner.integer(UInt16.self, $0, $1) }) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(try require(key), key, { state.view.integerInPlace(UInt32.self, $0) }, { try state.owner.integer(UInt32.self, $0, $1) }) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(try require(key), key, { state.view.integerInPlace(UInt64.self, $0) }, { try state.owner.integer(UInt64.self, $0, $1) }) }

    /// The entry for `key` when it is present and not null (Foundation's `decodeIfPresent`).
    private func present(_ key: Key) -> Int? {
        guard let i = entry(key), state.view.kind(i) != .null else { return nil }
        return i
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map { try read($0, key, { state.view.boolInPlace($0) }, { try state.owner.bool($0, $1) }) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key).map { try read($0, key, { state.view.stringInPlace($0) }, { try state.owner.string($0, $1) }) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key).map { try read($0, key, { state.view.numberInPlace(Double.self, $0) }, { try state.owner.number(Double.self, $0, $1) }) } }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(key).map { try read($0, key, { state.view.numberInPlace(Float.self, $0) }, { try state.owner.number(Float.self, $0, $1) }) } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key).map { try read($0, key, { state.view.integerInPlace(Int.self, $0) }, { try state.owner.integer(Int.self, $0, $1) }) } }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(key).map { try read($0, key, { state.view.integerInPlace(Int8.self, $0) }, { try state.owner.integer(Int8.self, $0, $1) }) } }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(key).map { try read($0, key, { state.view.integerInPlace(Int16.self, $0) }, { try state.owner.integer(Int16.self, $0, $1) }) } }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(key).map { try read($0, key, { state.view.integerInPlace(Int32.self, $0) }, { try state.owner.integer(Int32.self, $0, $1) }) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key).map { try read($0, key, { state.view.integerInPlace(Int64.self, $0) }, { try state.owner.integer(Int64.self, $0, $1) }) } }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(key).map { try read($0, key, { state.view.integerInPlace(UInt.self, $0) }, { try state.owner.integer(UInt.self, $0, $1) }) } }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(key).map { try read($0, key, { state.view.integerInPlace(UInt8.self, $0) }, { try state.owner.integer(UInt8.self, $0, $1) }) } }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(key).map { try read($0, key, { state.view.integerInPlace(UInt16.self, $0) }, { try state.owner.integer(UInt16.self, $0, $1) }) } }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(key).map { try read($0, key, { state.view.integerInPlace(UInt32.self, $0) }, { try state.owner.integer(UInt32.self, $0, $1) }) } }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(key).map { try read($0, key, { state.view.integerInPlace(UInt64.self, $0) }, { try state.owner.integer(UInt64.self, $0, $1) }) } }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let i = present(key) else { return nil }
        return try state.owner.decode(T.self, at: i, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let decoder = state.owner
        return try decoder.at(try require(key), key: key) { try decoder.container(keyedBy: NestedKey.self) }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let decoder = state.owner
        return try decoder.at(try require(key), key: key) { try decoder.unkeyedContainer() }
    }

    func superDecoder() throws -> any Decoder { subdecoder(AnyCodingKey("super")) }

    func superDecoder(forKey key: Key) throws -> any Decoder { subdecoder(key) }

    /// A decoder for the member (a decoder of `null` when it is missing, as Foundation's).
    private func subdecoder(_ key: any CodingKey) -> any Decoder {
        guard let i = entry(named: key.stringValue) else { return TapeDecoder.null(path: codingPath + [key]) }
        let decoder = state.owner
        let d = TapeDecoder(document: decoder.document, index: i, userInfo: decoder.userInfo)
        d.path = codingPath + [key]
        return d
    }
}
