#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlowJSON

/// The fast path's reader: one entry of the FlowJSON index.
///
/// Three words and a context pointer; every accessor reads the tape directly and builds a
/// `String` only when asked for one.
public struct TapeReader: ValueReader {
    public let view: JSONTapeView
    public let index: Int
    /// The decode outlives every reader it hands out; no reference counting on this path.
    public unowned(unsafe) let context: DecodeContext
    /// The document `view` belongs to (raw slices keep it alive).
    unowned(unsafe) let document: JSONDocument

    init(view: JSONTapeView, index: Int, context: DecodeContext, document: JSONDocument) {
        self.view = view
        self.index = index
        self.context = context
        self.document = document
    }

    public var kind: JSONKind { view.kind(index) }

    public var isNull: Bool { view.kind(index) == .null }

    public func string() -> String? {
        guard view.kind(index) == .string else { return nil }
        return try? view.string(index)
    }

    public func bool() -> Bool? {
        switch view.kind(index) {
        case .true: true
        case .false: false
        default: nil
        }
    }

    public func double() -> Double? {
        guard view.kind(index) == .number else { return nil }
        return JSONNumberParsing.double(view.rawBytes(index))
    }

    public func integer<T: FixedWidthInteger & Decodable>(_ type: T.Type) -> T? {
        guard view.kind(index) == .number else { return nil }
        return JSONNumberParsing.integer(view.rawBytes(index), isIntegerLiteral: view.flag(index), as: T.self)
    }

    public func object() -> TapeObject? {
        guard view.kind(index) == .object, Self.keysDecode(view, index) else { return nil }
        return TapeObject(view: view, index: index, context: context, document: document)
    }

    public func array() -> TapeArray? {
        guard view.kind(index) == .array else { return nil }
        return TapeArray(view: view, cursor: index + 1, end: view.next(index), context: context, document: document)
    }

    public func raw() -> RawJSON? {
        guard Self.stringsDecode(view, index) else { return nil }
        return RawJSON(document: document, index: index)
    }

    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: TapeDecoder(view: view, index: index))
    }

    public func read<T: FlowDecodable>(_ type: T.Type) throws -> T { try T(tape: self) }

    public func decodeContent(_ entry: WidgetRegistry.Entry) throws -> any Sendable { try entry.fast(self) }

    public func decodeContentOfEmptyObject(_ entry: WidgetRegistry.Entry) throws -> any Sendable {
        try Self.emptyObject.withView { view in
            try entry.fast(TapeReader(view: view, index: 0, context: context, document: Self.emptyObject))
        }
    }

    /// `{}`, for widgets without `data` (immortal, so its view outlives any reader).
    static let emptyObject = try! JSONDocument("{}")

    public var foundDescription: String { view.kind(index).description }

    /// Whether every key of the object at `i` decodes (only escaped keys can fail).
    static func keysDecode(_ view: JSONTapeView, _ i: Int) -> Bool {
        var ok = true
        view.forEachMember(i) { k, _ in
            if view.flag(k), (try? view.string(k)) == nil { ok = false }
            return ok
        }
        return ok
    }

    /// Whether every string (keys included) in the subtree at `i` decodes.
    static func stringsDecode(_ view: JSONTapeView, _ i: Int) -> Bool {
        let end = view.next(i)
        var j = i
        while j < end {
            if view.kind(j) == .string && view.flag(j) && (try? view.string(j)) == nil { return false }
            j += 1
        }
        return true
    }
}

public struct TapeObject: ObjectReader {
    let view: JSONTapeView
    let index: Int
    unowned(unsafe) let context: DecodeContext
    unowned(unsafe) let document: JSONDocument

    /// The first member named `key`: a linear scan that rejects on length before comparing
    /// bytes (schema objects have a handful of members).
    public func value(forKey key: StaticString) -> TapeReader? {
        let count = key.utf8CodeUnitCount
        let keyStart = key.utf8Start
        let end = view.next(index)
        var k = index + 1
        while k < end {
            let v = k + 1
            let range = view.byteRange(k)
            if !view.flag(k) {
                if range.count == count && memcmp(view.bytes.baseAddress! + range.lowerBound, keyStart, count) == 0 {
                    return TapeReader(view: view, index: v, context: context, document: document)
                }
            } else if (try? view.string(k)) == key.description {
                return TapeReader(view: view, index: v, context: context, document: document)
            }
            k = view.next(v)
        }
        return nil
    }

    public func value(forDynamicKey key: String) -> TapeReader? {
        var found: Int?
        view.forEachMember(index) { k, v in
            if Self.keyMatches(view, k, key) { found = v; return false }
            return true
        }
        return found.map { TapeReader(view: view, index: $0, context: context, document: document) }
    }

    /// Keys compare as Swift strings (canonical equivalence, as Foundation's decoder);
    /// bytes settle it whenever both sides are ASCII.
    static func keyMatches(_ view: JSONTapeView, _ k: Int, _ key: String) -> Bool {
        if !view.flag(k) {
            let raw = view.rawBytes(k)
            var allASCII = true
            for b in raw where b >= 0x80 { allASCII = false; break }
            if allASCII && key.utf8.allSatisfy({ $0 < 0x80 }) {
                return raw.elementsEqual(key.utf8)
            }
        }
        return (try? view.string(k)) == key
    }

    public func keys() -> [String] {
        var result: [String] = []
        var seen = Set<String>()
        view.forEachMember(index) { k, _ in
            if let key = try? view.string(k), seen.insert(key).inserted { result.append(key) }
            return true
        }
        return result
    }
}

public struct TapeArray: ArrayReader {
    let view: JSONTapeView
    var cursor: Int
    let end: Int
    unowned(unsafe) let context: DecodeContext
    unowned(unsafe) let document: JSONDocument

    public mutating func next() -> TapeReader? {
        guard cursor < end else { return nil }
        let reader = TapeReader(view: view, index: cursor, context: context, document: document)
        cursor = view.next(cursor)
        return reader
    }
}
