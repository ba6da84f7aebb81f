import FlowJSON

/// The coding key of an array element in a path (`Index 3`, as Foundation spells it).
struct TapeIndexKey: CodingKey {
    var stringValue: String { "Index \(intValue!)" }
    var intValue: Int?
    init(_ i: Int) { intValue = i }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// The unkeyed container ``TapeDecoder`` hands out for a JSON array: a cursor over its
/// elements on the index.
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let array: Int
    private var cursor: Int
    private let end: Int
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0
    let count: Int?

    init(decoder: TapeDecoder, array: Int) {
        self.decoder = decoder
        self.array = array
        self.cursor = array + 1
        self.end = decoder.view.next(array)
        self.codingPath = decoder.codingPath
        self.count = decoder.view.childCount(array)
    }

    var isAtEnd: Bool { cursor >= end }

    private func checkNotAtEnd(_ type: Any.Type) throws {
        if isAtEnd {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [TapeIndexKey(currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
    }

    private mutating func advance() {
        cursor = decoder.view.next(cursor)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        try checkNotAtEnd(Never.self)
        if decoder.kind(cursor) == .null {
            advance()
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try checkNotAtEnd(T.self)
        let value = try decoder.decode(T.self, at: cursor, key: TapeIndexKey(currentIndex))
        advance()
        return value
    }

    /// A scalar element read in place (see the keyed container's scalars).
    private mutating func scalar<T>(_ type: T.Type, _ read: (TapeDecoder, Int, TapeIndexKey) throws -> T) throws -> T {
        try checkNotAtEnd(T.self)
        let value = try read(decoder, cursor, TapeIndexKey(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar(Bool.self) { try $0.bool($1, $2) } }
    mutating func decode(_ type: String.Type) throws -> String { try scalar(String.self) { try $0.string($1, $2) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar(Double.self) { try $0.number(Double.self, $1, $2) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try scalar(Float.self) { try $0.number(Float.self, $1, $2) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try scalar(Int.self) { try $0.integer(Int.self, $1, $2) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalar(Int8.self) { try $0.integer(Int8.self, $1, $2) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalar(Int16.self) { try $0.integer(Int16.self, $1, $2) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalar(Int32.self) { try $0.integer(Int32.self, $1, $2) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalar(Int64.self) { try $0.integer(Int64.self, $1, $2) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try scalar(UInt.self) { try $0.integer(UInt.self, $1, $2) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(UInt8.self) { try $0.integer(UInt8.self, $1, $2) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(UInt16.self) { try $0.integer(UInt16.self, $1, $2) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(UInt32.self) { try $0.integer(UInt32.self, $1, $2) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(UInt64.self) { try $0.integer(UInt64.self, $1, $2) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try checkNotAtEnd(KeyedDecodingContainer<NestedKey>.self)
        let nested = try decoder.at(cursor, key: TapeIndexKey(currentIndex)) { try decoder.container(keyedBy: NestedKey.self) }
        advance()
        return nested
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try checkNotAtEnd((any UnkeyedDecodingContainer).self)
        let nested = try decoder.at(cursor, key: TapeIndexKey(currentIndex)) { try decoder.unkeyedContainer() }
        advance()
        return nested
    }

    mutating func superDecoder() throws -> any Decoder {
        try checkNotAtEnd((any Decoder).self)
        let d = TapeDecoder(document: decoder.document, index: cursor, userInfo: decoder.userInfo)
        d.path = codingPath + [TapeIndexKey(currentIndex)]
        advance()
        return d
    }
}
