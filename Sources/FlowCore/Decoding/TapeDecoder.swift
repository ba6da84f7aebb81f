#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FlowJSON

/// A `Decoder` over the FlowJSON index: how a host's plain `Decodable` widget content is
/// decoded on the fast path.
///
/// It answers as Foundation's `JSONDecoder` does (that is what the reference path runs, and
/// the two must agree): first occurrence of a duplicate key wins; keys compare as Swift
/// strings; `decodeIfPresent` treats null as absent; numbers follow `JSONNumberParsing`;
/// `Date`, `Data`, `URL` and `Decimal` use `JSONDecoder`'s default strategies.
/// One instance serves a whole value: nested values are decoded by moving its cursor, as
/// `JSONDecoder` does, so nesting costs no allocation beyond the containers themselves.
///
/// It holds its document, and its view points into the document's own storage, so a
/// decoder a `Decodable` keeps (Foundation's containers may be stored) stays valid.
package final class TapeDecoder: Decoder {
    let document: JSONDocument
    let view: JSONTapeView
    // Unchecked exclusivity: a decoder is used by one decode on one thread, and the dynamic
    // checks on these two fields cost more than the reads they guard.
    /// The entry being decoded.
    @exclusivity(unchecked) var index: Int
    @exclusivity(unchecked) fileprivate(set) var path: [any CodingKey] = []
    package let userInfo: [CodingUserInfoKey: Any]

    /// A decoder of the document's root value (it keeps the document alive).
    package convenience init(document: JSONDocument, userInfo: [CodingUserInfoKey: Any] = [:]) {
        self.init(document: document, index: 0, userInfo: userInfo)
    }

    init(document: JSONDocument, index: Int, userInfo: [CodingUserInfoKey: Any] = [:]) {
        self.document = document
        self.view = document.retainedView
        self.index = index
        self.userInfo = userInfo
    }

    package var codingPath: [any CodingKey] { path }

    /// A decoder of entry `index`: `spare`, reset, when nothing else holds it (the value it
    /// decoded last did not keep it, or one of its containers), else a new one. The caller
    /// hands it back in `spare` when done.
    static func reusing(_ spare: inout TapeDecoder?, document: JSONDocument, index: Int) -> TapeDecoder {
        if var decoder = spare, decoder.document === document {
            spare = nil
            if isKnownUniquelyReferenced(&decoder) {
                decoder.index = index
                decoder.path.removeAll(keepingCapacity: true)
                return decoder
            }
        }
        return TapeDecoder(document: document, index: index)
    }

    @inline(__always)
    func kind(_ i: Int) -> JSONKind { view.kind(i) }

    /// Runs `body` with the cursor on entry `i`, reached through `key`.
    func at<R>(_ i: Int, key: any CodingKey, _ body: () throws -> R) rethrows -> R {
        let saved = index
        index = i
        path.append(key)
        defer {
            index = saved
            path.removeLast()
        }
        return try body()
    }

    /// Decodes `T` from entry `i`, reached through `key`.
    func decode<T: Decodable>(_ type: T.Type, at i: Int, key: any CodingKey) throws -> T {
        try at(i, key: key) { try unwrap(T.self) }
    }

    /// `JSONDecoder`'s special cases, then the type's own `init(from:)`.
    func unwrap<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self {
            return Date(timeIntervalSinceReferenceDate: try number(Double.self, index, nil)) as! T
        }
        if T.self == Data.self {
            let text = try string(index, nil)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Encountered Data is not valid Base64."))
            }
            return data as! T
        }
        if T.self == URL.self {
            let text = try string(index, nil)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Invalid URL string."))
            }
            return url as! T
        }
        if T.self == Decimal.self {
            try expect(.number, Decimal.self, index, nil)
            guard JSONNumberParsing.isFoundationDecimal(view.rawBytes(index)),
                  let decimal = Decimal(string: String(decoding: view.rawBytes(index), as: UTF8.self))
            else { throw notRepresentable(index, nil) }
            return decimal as! T
        }
        return try T(from: self)
    }

    // MARK: Primitives

    // Each reads entry `i`, reached through `key` below the decoder's path (nil: the entry
    // at the cursor, whose path is the decoder's). Containers read their scalar members in
    // place, without moving the cursor: the path with the key is built only for an error.

    /// The coding path of entry `i` reached through `key`.
    func codingPath(_ key: (any CodingKey)?) -> [any CodingKey] { key.map { path + [$0] } ?? path }

    func expect(_ kind: JSONKind, _ type: Any.Type, _ i: Int, _ key: (any CodingKey)?) throws {
        let found = view.kind(i)
        if found == kind || (kind == .true && found == .false) { return }
        if found == .null && type != Bool.self {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath(key), debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
        throw DecodingError.typeMismatch(type, .init(codingPath: codingPath(key), debugDescription: "Expected to decode \(type) but found \(found.description) instead."))
    }

    func notRepresentable(_ i: Int, _ key: (any CodingKey)?) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: codingPath(key), debugDescription: "Number \(String(decoding: view.rawBytes(i), as: UTF8.self)) is not representable in Swift."))
    }

    func bool(_ i: Int, _ key: (any CodingKey)?) throws -> Bool {
        try expect(.true, Bool.self, i, key)
        return view.kind(i) == .true
    }

    func string(_ i: Int, _ key: (any CodingKey)?) throws -> String {
        try expect(.string, String.self, i, key)
        do {
            return try view.string(i)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath(key), debugDescription: error.message, underlyingError: error))
        }
    }

    func number(_ type: Double.Type, _ i: Int, _ key: (any CodingKey)?) throws -> Double {
        try expect(.number, Double.self, i, key)
        guard let d = JSONNumberParsing.double(view.rawBytes(i)) else { throw notRepresentable(i, key) }
        return d
    }

    func number(_ type: Float.Type, _ i: Int, _ key: (any CodingKey)?) throws -> Float {
        try expect(.number, Float.self, i, key)
        guard let f = JSONNumberParsing.float(view.rawBytes(i)) else { throw notRepresentable(i, key) }
        return f
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type, _ i: Int, _ key: (any CodingKey)?) throws -> T {
        try expect(.number, T.self, i, key)
        guard let v = JSONNumberParsing.integer(view.rawBytes(i), isIntegerLiteral: view.flag(i), as: T.self) else {
            throw notRepresentable(i, key)
        }
        return v
    }

    // MARK: Decoder

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try expect(.object, [String: Any].self, index, nil)
        return KeyedDecodingContainer(try TapeKeyedContainer<Key>(decoder: self, object: index))
    }

    package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try expect(.array, [Any].self, index, nil)
        return TapeUnkeyedContainer(decoder: self, array: index)
    }

    package func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TapeSingleValueContainer(decoder: self)
    }
}


struct TapeIndexKey: CodingKey {
    var stringValue: String { "Index \(intValue!)" }
    var intValue: Int?
    init(_ i: Int) { intValue = i }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

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

extension TapeDecoder {
    private static let nullDocument = try! JSONDocument("null")

    /// A decoder over a standalone `null`.
    static func null(path: [any CodingKey]) -> TapeDecoder {
        let d = TapeDecoder(document: nullDocument, index: 0)
        d.path = path
        return d
    }
}

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

struct TapeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.kind(decoder.index) == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool(decoder.index, nil) }
    func decode(_ type: String.Type) throws -> String { try decoder.string(decoder.index, nil) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.number(Double.self, decoder.index, nil) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.number(Float.self, decoder.index, nil) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(Int.self, decoder.index, nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(Int8.self, decoder.index, nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(Int16.self, decoder.index, nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(Int32.self, decoder.index, nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(Int64.self, decoder.index, nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(UInt.self, decoder.index, nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(UInt8.self, decoder.index, nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(UInt16.self, decoder.index, nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(UInt32.self, decoder.index, nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(UInt64.self, decoder.index, nil) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unwrap(T.self) }
}
