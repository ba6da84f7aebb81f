#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FlowJSON

/// The reference path's reader: a `Decoder` driven by Foundation's `JSONDecoder`.
///
/// Every typed question goes through the decoder's own containers (`decode(String.self)`,
/// `container(keyedBy:)`, `superDecoder(forKey:)`…), so strings, numbers, keys and
/// duplicates follow Foundation's rules, which is the point of having it.
///
/// Opaque JSON is the exception, on purpose: `JSONDecoder` has no way to hand back a value
/// untouched, and rebuilding one through it reads every string (a lone surrogate anywhere
/// would fail the value) and loses member order and repeated keys. So the reference
/// decoder also scans the document, and each reader knows where its value stands in that
/// scan (``DocumentPlace``): ``raw()`` keeps the same slice of the input the fast path
/// keeps. A reader made from any other `Decoder` has no place, and builds opaque values
/// through the decoder (``raw()`` then fails on a string that does not decode).
@usableFromInline package struct FoundationReader: DocumentReader {
    package let decoder: any Decoder
    @usableFromInline package let context: DecodeContext
    let place: DocumentPlace?

    @usableFromInline package init(decoder: any Decoder, context: DecodeContext) {
        self.init(decoder: decoder, context: context, place: nil)
    }

    init(decoder: any Decoder, context: DecodeContext, place: DocumentPlace?) {
        self.decoder = decoder
        self.context = context
        self.place = place
    }

    private var single: (any SingleValueDecodingContainer)? { try? decoder.singleValueContainer() }

    @usableFromInline package var isNull: Bool { single?.decodeNil() ?? false }

    @usableFromInline package func string() -> String? { try? single?.decode(String.self) }

    @usableFromInline package func bool() -> Bool? { try? single?.decode(Bool.self) }

    @usableFromInline package func double() -> Double? { try? single?.decode(Double.self) }

    @usableFromInline package func integer<T: FixedWidthInteger & Decodable>(_ type: T.Type) -> T? { try? single?.decode(T.self) }

    @usableFromInline package func object() -> FoundationObject? {
        (try? decoder.container(keyedBy: AnyCodingKey.self)).map { FoundationObject(container: $0, context: context, place: place) }
    }

    @usableFromInline package func array() -> FoundationArray? {
        (try? decoder.unkeyedContainer()).map { FoundationArray(container: $0, context: context, cursor: place?.firstChild) }
    }

    /// The slice of the input at this reader's place; without one, the value as the
    /// decoder gives it.
    @usableFromInline package func raw() -> RawJSON? {
        if let place { return RawJSON(document: place.document, index: place.index) }
        return (try? single?.decode(ReferenceJSON.self)).map { RawJSON($0.value) }
    }

    @usableFromInline package func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.singleValueContainer().decode(T.self)
    }

    @usableFromInline package func read<T: FlowDecodable>(_ type: T.Type) throws -> T { try T(foundation: self) }

    package func decodeContent(_ entry: WidgetRegistry.Entry, ctx: DecodeContext) throws -> WidgetModel {
        WidgetModel(box: try entry.reference(self), entry: entry)
    }

    package func decodeContentOfEmptyObject(_ entry: WidgetRegistry.Entry) throws -> WidgetModel {
        let decoder = JSONDecoder()
        decoder.userInfo[EmptyObjectContent.request] = EmptyObjectContent.Request(entry: entry, context: context)
        return WidgetModel(box: try decoder.decode(EmptyObjectContent.self, from: Data("{}".utf8)).box, entry: entry)
    }

    package func widgetFingerprint() -> UInt64? { nil }

    package func sourceText() -> SourceText? { nil }

    package func shareableText() -> SourceText? { nil }

    @usableFromInline package var foundDescription: String {
        if isNull { return "null" }
        if bool() != nil { return "a bool" }
        if string() != nil { return "a string" }
        if (try? single?.decode(Decimal.self)) != nil || double() != nil { return "a number" }
        if object() != nil { return "an object" }
        if array() != nil { return "an array" }
        return "a value that does not decode"
    }
}

@usableFromInline package struct FoundationObject: ObjectReader {
    let container: KeyedDecodingContainer<AnyCodingKey>
    let context: DecodeContext
    /// The object's own place in the scan, when the decode has one.
    let place: DocumentPlace?

    @usableFromInline package func spelling(cutting member: FoundationReader?) -> AtomSpelling? { nil }

    @usableFromInline package func value(forKey key: StaticString) -> FoundationReader? {
        value(forDynamicKey: key.description)
    }

    @usableFromInline package var memberCount: Int { place?.childCount ?? container.allKeys.count }

    @usableFromInline package func value(forDynamicKey key: String) -> FoundationReader? {
        let k = AnyCodingKey(key)
        guard container.contains(k), let d = try? container.superDecoder(forKey: k) else { return nil }
        return FoundationReader(decoder: d, context: context, place: place?.member(key))
    }

    @usableFromInline package func locate(_ keys: FieldKeys) -> FieldSlots {
        var slots = FieldSlots()
        for (i, name) in keys.names.enumerated() where container.contains(AnyCodingKey(name.description)) { slots[i] = Int32(i) }
        return slots
    }

    @usableFromInline package func member(_ handle: Int32, _ keys: FieldKeys, _ field: Int) -> FoundationReader {
        value(forKey: keys.names[field])!
    }

    /// With a place, the members in document order, each key's first occurrence (the one
    /// Foundation keeps), so the cost is linear in the members; without one, by the
    /// container's keys.
    @usableFromInline package func forEachMember(_ body: (String, FoundationReader) throws -> Void) rethrows {
        guard let place else {
            for key in container.allKeys {
                if let v = value(forDynamicKey: key.stringValue) { try body(key.stringValue, v) }
            }
            return
        }
        // Keys compare as strings do (canonical equivalence), like Foundation's keyed containers.
        var seen = Set<String>()
        for (key, member) in place.members() where seen.insert(key).inserted {
            guard let d = try? container.superDecoder(forKey: AnyCodingKey(key)) else { continue }
            try body(key, FoundationReader(decoder: d, context: context, place: member))
        }
    }
}

@usableFromInline package struct FoundationArray: ArrayReader {
    var container: any UnkeyedDecodingContainer
    let context: DecodeContext
    /// The next element's place in the scan, when the decode has one.
    var cursor: DocumentPlace?

    @usableFromInline package var count: Int? { container.count }

    @usableFromInline package mutating func next() -> FoundationReader? {
        guard !container.isAtEnd, let d = try? container.superDecoder() else { return nil }
        let place = cursor
        cursor = cursor?.nextSibling
        return FoundationReader(decoder: d, context: context, place: place)
    }
}

/// Where a reference reader's value stands in the scan of its document: an entry of the
/// document's index. Every question borrows the document's view for the call only.
struct DocumentPlace {
    let document: JSONDocument
    let index: Int

    var childCount: Int { document.withView { $0.childCount(index) } }

    /// The first element of the array here (nil when it is empty).
    var firstChild: DocumentPlace? {
        document.withView { view in view.childCount(index) > 0 ? DocumentPlace(document: document, index: index + 1) : nil }
    }

    /// The next element of the enclosing array (nil past its end is the array's to know:
    /// callers ask only while the container has elements).
    var nextSibling: DocumentPlace { DocumentPlace(document: document, index: document.withView { $0.next(index) }) }

    /// The value of the first member named `key` of the object here.
    func member(_ key: String) -> DocumentPlace? {
        document.withView { view in
            var found: Int?
            view.forEachMember(index) { k, v in
                if TapeObject.keyMatches(view, k, key) { found = v; return false }
                return true
            }
            return found.map { DocumentPlace(document: document, index: $0) }
        }
    }

    /// The members of the object here whose keys decode, in document order.
    func members() -> [(String, DocumentPlace)] {
        document.withView { view in
            var result: [(String, DocumentPlace)] = []
            view.forEachMember(index) { k, v in
                if let key = try? view.string(k) { result.append((key, DocumentPlace(document: document, index: v))) }
                return true
            }
            return result
        }
    }
}

/// Content decoded from `{}` inside a JSONDecoder run of its own.
private struct EmptyObjectContent: Decodable {
    final class Request: @unchecked Sendable {
        let entry: WidgetRegistry.Entry
        let context: DecodeContext
        init(entry: WidgetRegistry.Entry, context: DecodeContext) {
            self.entry = entry
            self.context = context
        }
    }

    static let request = CodingUserInfoKey(rawValue: "flow.emptyObjectContent")!

    let box: ContentBox

    init(from decoder: any Decoder) throws {
        let request = decoder.userInfo[Self.request] as! Request
        box = try request.entry.reference(FoundationReader(decoder: decoder, context: request.context))
    }
}

/// A coding key for any string or position.
package struct AnyCodingKey: CodingKey, Hashable, Sendable {
    package var stringValue: String
    package var intValue: Int?

    @usableFromInline package init(_ string: String) {
        self.stringValue = string
        self.intValue = nil
    }

    @usableFromInline package init?(stringValue: String) { self.init(stringValue) }

    @usableFromInline package init?(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// Opaque JSON as Foundation's `JSONDecoder` sees it: numbers through `Decimal` (exact up to
/// 38 digits), then Double; object members in key order (Foundation does not keep document
/// order, and keeps only the first of duplicate keys).
struct ReferenceJSON: Decodable {
    let value: JSONValue

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members = JSONObject()
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members.append(key.stringValue, try object.decode(ReferenceJSON.self, forKey: key).value)
            }
            value = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(ReferenceJSON.self).value) }
            value = .array(elements)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = .null
            } else if let b = try? single.decode(Bool.self) {
                value = .bool(b)
            } else if let s = try? single.decode(String.self) {
                value = .string(s)
            } else if let d = try? single.decode(Decimal.self), let n = JSONNumber(d.description) {
                value = .number(n)
            } else if let n = JSONNumber(try single.decode(Double.self)) {
                value = .number(n)
            } else {
                throw DecodingError.dataCorruptedError(in: single, debugDescription: "number not representable")
            }
        }
    }
}
