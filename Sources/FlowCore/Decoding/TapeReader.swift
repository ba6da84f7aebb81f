#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlowJSON

/// What every reader of one decode shares: the index, its document, the decode context.
///
/// Readers hold an unowned pointer to it and an entry index, two words passed in
/// registers; the decode keeps it alive for as long as any reader exists.
public final class TapeSource {
    @usableFromInline let view: JSONTapeView
    unowned(unsafe) let document: JSONDocument
    unowned(unsafe) let context: DecodeContext

    init(view: JSONTapeView, document: JSONDocument, context: DecodeContext) {
        self.view = view
        self.document = document
        self.context = context
    }

    /// `{}`, for widgets without `data` (immortal, so its view outlives any reader).
    static let emptyObject = try! JSONDocument("{}")
}

/// The fast path's reader: one entry of the FlowJSON index.
///
/// Every accessor reads the tape directly and builds a `String` only when asked for one.
public struct TapeReader: ValueReader {
    @usableFromInline unowned(unsafe) let source: TapeSource
    public let index: Int

    init(source: TapeSource, index: Int) {
        self.source = source
        self.index = index
    }

    @inline(__always) var view: JSONTapeView { source.view }

    public var context: DecodeContext { source.context }

    public var kind: JSONKind { view.kind(index) }

    /// Inlined: every model asks it of every field it finds (`present`), and as a call
    /// (the kind's trap for the unused value 7 kept it out of line) it cost more than
    /// the comparison it makes: 1.3% of a page decode's instructions.
    @inlinable @inline(__always)
    public var isNull: Bool { source.view.isNull(index) }

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
        guard view.kind(index) == .object, !source.document.mayHoldLoneSurrogates || Self.keysDecode(view, index) else { return nil }
        return TapeObject(source: source, index: index)
    }

    public func array() -> TapeArray? {
        guard view.kind(index) == .array else { return nil }
        return TapeArray(source: source, cursor: index + 1, end: view.next(index))
    }

    /// Always a slice: opaque JSON is never read as text (SPEC §8), so nothing in it can
    /// fail, not even a lone surrogate escape.
    public func raw() -> RawJSON? { RawJSON(document: source.document, index: index) }

    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: TapeDecoder(view: view, index: index))
    }

    public func read<T: FlowDecodable>(_ type: T.Type) throws -> T { try T(tape: self) }

    public func decodeContent(_ entry: WidgetRegistry.Entry) throws -> WidgetModel {
        WidgetModel(box: try entry.fast(self), entry: entry)
    }

    public func decodeContentOfEmptyObject(_ entry: WidgetRegistry.Entry) throws -> WidgetModel {
        try TapeSource.emptyObject.withView { view in
            let empty = TapeSource(view: view, document: TapeSource.emptyObject, context: source.context)
            return try withExtendedLifetime(empty) { WidgetModel(box: try entry.fast(TapeReader(source: empty, index: 0)), entry: entry) }
        }
    }

    public var foundDescription: String { view.kind(index).description }

    /// Found by the name's bytes (no `String` built, no SipHash); the name handed back is the
    /// registry's own, the same text. Escaped or unregistered names go by `String`.
    public func widgetType(in registry: WidgetRegistry) -> (name: String, entry: WidgetRegistry.Entry?)? {
        guard view.kind(index) == .string else { return nil }
        if !view.flag(index), let entry = registry.entry(spelled: view.rawBytes(index)) { return (entry.typeName, entry) }
        return string().map { ($0, registry.entry(for: $0)) }
    }

    public func widgetFingerprint() -> UInt64? { Fingerprint.widget(view, index) }

    public func sourceText() -> SourceText? { SourceText(document: source.document, range: view.textSpan(index), hash: view.textFingerprint(index)) }

    /// Whether every key of the object at `i` decodes (only escaped keys can fail).
    static func keysDecode(_ view: JSONTapeView, _ i: Int) -> Bool {
        var ok = true
        view.forEachMember(i) { k, _ in
            if view.flag(k), (try? view.string(k)) == nil { ok = false }
            return ok
        }
        return ok
    }
}

public struct TapeObject: ObjectReader {
    unowned(unsafe) let source: TapeSource
    let index: Int
    /// The first member named `key`: a linear scan comparing length and first byte before
    /// the bytes (schema objects have a handful of members).
    public func value(forKey key: StaticString) -> TapeReader? { scan(key) }

    public var memberCount: Int { source.view.childCount(index) }

    private func scan(_ key: StaticString) -> TapeReader? {
        let view = source.view
        let count = key.utf8CodeUnitCount
        let keyStart = key.utf8Start
        let base = view.bytes.baseAddress!
        let end = view.next(index)
        var k = index + 1
        while k < end {
            let v = k + 1
            if !view.flag(k) {
                let range = view.byteRange(k)
                if range.count == count && (count == 0 || base[range.lowerBound] == keyStart[0])
                    && FieldKeys.equal(base + range.lowerBound, keyStart, count) {
                    return TapeReader(source: source, index: v)
                }
            } else if (try? view.string(k)) == key.description {
                return TapeReader(source: source, index: v)
            }
            k = view.next(v)
        }
        return nil
    }

    /// One pass over the members, matching each key against the table; handles are tape
    /// indices.
    public func locate(_ keys: FieldKeys) -> FieldSlots {
        var slots = FieldSlots()
        let view = source.view
        let base = view.bytes.baseAddress!
        let end = view.next(index)
        var k = index + 1
        while k < end {
            let v = k + 1
            let j: Int?
            if !view.flag(k) {
                let r = view.byteRange(k)
                j = keys.index(of: base + r.lowerBound, count: r.count)
            } else {
                j = (try? view.string(k)).flatMap(keys.index(of:))
            }
            if let j { slots.offer(j, Int32(truncatingIfNeeded: v)) }
            k = view.next(v)
        }
        return slots
    }

    @inline(__always)
    public func member(_ handle: Int32, _ keys: FieldKeys, _ field: Int) -> TapeReader {
        TapeReader(source: source, index: Int(handle))
    }

    public func value(forDynamicKey key: String) -> TapeReader? {
        let view = source.view
        var found: Int?
        view.forEachMember(index) { k, v in
            if Self.keyMatches(view, k, key) { found = v; return false }
            return true
        }
        return found.map { TapeReader(source: source, index: $0) }
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

    public func forEachMember(_ body: (String, TapeReader) throws -> Void) rethrows {
        let view = source.view
        let end = view.next(index)
        var k = index + 1
        while k < end {
            let v = k + 1
            if let key = try? view.string(k) { try body(key, TapeReader(source: source, index: v)) }
            k = view.next(v)
        }
    }
}

public struct TapeArray: ArrayReader {
    unowned(unsafe) let source: TapeSource
    var cursor: Int
    let end: Int

    public var count: Int? {
        let view = source.view
        var n = 0
        var e = cursor
        while e < end {
            n += 1
            e = view.next(e)
        }
        return n
    }

    public mutating func next() -> TapeReader? {
        guard cursor < end else { return nil }
        let reader = TapeReader(source: source, index: cursor)
        cursor = source.view.next(cursor)
        return reader
    }
}
