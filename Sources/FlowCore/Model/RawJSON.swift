#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlowJSON

/// Opaque JSON kept exactly as received: a widget's `data`, an action object, tracking,
/// a postback.
///
/// On the fast path it is a range of the scanned document's bytes (no copy, no tree, no
/// index: the page keeps its source document's text alive, and the index goes once the
/// decode is done); values built in code or by the reference decoder hold a `JSONValue`.
/// Either way `write(to:)` gives compact JSON with strings and numbers as received, and
/// equality is JSON's (see `JSONValue`) over ``value``, whatever the storage (so two payloads
/// that differ only in which lone surrogate they carry compare equal; a refresh diff, which
/// compares bytes, still tells them apart).
public struct RawJSON: @unchecked Sendable, Hashable, CustomStringConvertible {
    enum Storage {
        /// The value's bytes in the text, as `JSONTapeView.valueSpan` gives them.
        case slice(JSONText, Range<Int>)
        case value(ValueBox)
    }

    final class ValueBox: Sendable {
        let value: JSONValue
        init(_ value: JSONValue) { self.value = value }
    }

    // A reference and an integer, not the `Storage` enum: an enum would hide its case in
    // the pointer's spare bits, and a pointer so tagged is invisible to leak checkers
    // (LeakSanitizer reported the `emptyObject` box as leaked). 16 bytes, optional or not
    // (the nil pointer marks `nil`); a page holds two or three per widget.
    /// The text of a slice (`span` >= 0) or the box of a value (`span` == -1); both
    /// immutable, hence the unchecked `Sendable`.
    private let owner: AnyObject
    /// A slice's byte range, its start in the high 32 bits and its length in the low 32
    /// (a document is under 1 GiB, see `JSONScanOptions`).
    private let span: Int

    var storage: Storage {
        guard span >= 0 else { return .value(unsafeDowncast(owner, to: ValueBox.self)) }
        let start = span >> 32
        return .slice(unsafeDowncast(owner, to: JSONText.self), start..<(start + (span & 0xFFFF_FFFF)))
    }

    /// The value at entry `index` of `document`, kept as a range of its text.
    init(document: JSONDocument, index: Int) {
        let range = document.withView { $0.valueSpan(index) }
        owner = document.text
        span = range.lowerBound << 32 | range.count
    }

    public init(_ value: JSONValue) {
        owner = ValueBox(value)
        span = -1
    }

    /// `{}`: what an absent widget `data` decodes as.
    public static let emptyObject = RawJSON(.object(JSONObject()))

    /// The value as a tree (built on demand for a slice).
    ///
    /// Opaque JSON is kept whatever its strings hold, so a slice may hold a `\u` escape
    /// naming a lone surrogate, which no Swift `String` can: the tree shows each as U+FFFD,
    /// the replacement character. Writing (`write(to:)`, ``jsonBytes``) gives the bytes
    /// as received, escape included; only this view and equality see the replacement.
    public var value: JSONValue {
        switch storage {
        case .value(let box): return box.value
        case .slice:
            return Self.rescanned(jsonBytes).withView { view in JSONValue(replacingLoneSurrogates: view, at: 0) }
        }
    }

    public var kind: JSONKind {
        switch storage {
        case .value(let box): return box.value.kind
        case .slice(let text, let range):
            switch text.withBytes(range, { $0[0] }) {
            case UInt8(ascii: "{"): return .object
            case UInt8(ascii: "["): return .array
            case UInt8(ascii: "\""): return .string
            case UInt8(ascii: "t"): return .true
            case UInt8(ascii: "f"): return .false
            case UInt8(ascii: "n"): return .null
            default: return .number
            }
        }
    }

    /// Writes compact JSON, strings and numbers as received.
    package func write(to writer: inout JSONWriter) {
        switch storage {
        case .value(let box): writer.write(box.value)
        case .slice(let text, let range): text.withBytes(range) { writer.write(valueSpan: $0) }
        }
    }

    /// A document of a slice's compact bytes, for the readers that need an index: they come
    /// from a document already scanned, so this scan cannot fail on syntax, and the limits
    /// were that document's to enforce (the largest depth is allowed here).
    private static func rescanned(_ bytes: [UInt8]) -> JSONDocument {
        do {
            return try JSONDocument(bytes: bytes, options: JSONScanOptions(maximumDepth: JSONScanOptions.depthCeiling))
        } catch {
            preconditionFailure("a slice of a scanned document failed its rescan: \(error)")
        }
    }

    public var jsonBytes: [UInt8] {
        var w = JSONWriter()
        write(to: &w)
        return w.bytes
    }

    public var description: String { String(decoding: jsonBytes, as: UTF8.self) }

    public static func == (a: RawJSON, b: RawJSON) -> Bool {
        // One slice of one text, or one value's box: the same value.
        if a.owner === b.owner && a.span == b.span { return true }
        if case .slice(let textA, let rangeA) = a.storage, case .slice(let textB, let rangeB) = b.storage {
            // The same bytes are the same value: two decodes of one document (each over a
            // text of its own) compare without building either tree. Different bytes may
            // still be equal values (`1.0` and `1`, other spacing), which the trees decide.
            if rangeA.count == rangeB.count,
               textA.withBytes(rangeA, { x in textB.withBytes(rangeB) { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }) {
                return true
            }
        }
        return a.value == b.value
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(value) }

    /// Decodes the payload into a type of the caller's (what an action handler does with
    /// its action object), through the tape decoder.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch storage {
        case .slice:
            return try T(from: TapeDecoder(document: Self.rescanned(jsonBytes), index: 0))
        case .value(let box):
            let document = try JSONDocument(bytes: JSONWriter.encode(box.value))
            return try T(from: TapeDecoder(document: document, index: 0))
        }
    }
}
