/// The seam between the page contract and the two decode paths.
///
/// Every model in the library (envelope, atoms, starter widget contents) is decoded by one
/// piece of code, generic over a reader: ``TapeReader`` walks the FlowJSON index (the fast
/// path, specialised by the compiler, no `Codable` machinery), ``FoundationReader`` drives a
/// `Decoder` that Foundation's `JSONDecoder` runs (the reference path). The contract's rules
/// are therefore written once, and the two paths can only disagree where their readers do:
/// on JSON itself (strings, numbers, keys, duplicates), which is exactly what the
/// differential tests and the fuzzer compare.
///
/// Every accessor answers nil when the value is not of the asked shape, including when it
/// is of that shape but cannot be converted (a string holding a lone surrogate escape, a
/// number outside a Double's range): callers decide whether that is fatal.
@usableFromInline package protocol ValueReader {
    associatedtype Object: ObjectReader where Object.Value == Self
    associatedtype Elements: ArrayReader where Elements.Element == Self

    /// The decode this value belongs to.
    var context: DecodeContext { get }

    var isNull: Bool { get }
    func string() -> String?
    func bool() -> Bool?
    /// By Foundation's rules (see `JSONNumberParsing`).
    func double() -> Double?
    /// By Foundation's rules (see `JSONNumberParsing`).
    func integer<T: FixedWidthInteger & Decodable>(_ type: T.Type) -> T?
    /// Nil also when a key of the object cannot be decoded (Foundation opens an object by
    /// decoding all of its keys).
    func object() -> Object?
    func array() -> Elements?
    /// The value kept opaque; nil when something in it cannot be decoded.
    func raw() -> RawJSON?
    /// Decodes a host's plain `Decodable` type (through `TapeDecoder` on the fast path).
    func decode<T: Decodable>(_ type: T.Type) throws -> T
    /// Decodes a model through its reader-specific entry point (`init(tape:)` or
    /// `init(foundation:)`), which the compiler specialises in the model's own module.
    func read<T: FlowDecodable>(_ type: T.Type) throws -> T
    /// What the value is, for messages ("a number").
    var foundDescription: String { get }
}

/// What the page schema needs of a reader beyond what models read: the routes into
/// registered content, the value's source text and fingerprint, and the fast path's
/// parallel section decode. Not visible to inlined model code (models never ask).
package protocol DocumentReader: ValueReader where Object.Value == Self, Elements.Element == Self {
    /// Decodes registered widget content with this path's route (the fast path shares it
    /// between widgets whose data is spelled alike, in `ctx.sharing.widgetParts`).
    func decodeContent(_ entry: WidgetRegistry.Entry, ctx: DecodeContext) throws -> WidgetModel
    /// Decodes registered widget content from `{}` (a widget without `data`).
    func decodeContentOfEmptyObject(_ entry: WidgetRegistry.Entry) throws -> WidgetModel
    /// The value's text in the document, on a path that reads a document's bytes (nil on
    /// the reference path): a decoder may reuse what it built from the same text before.
    func sourceText() -> SourceText?
    /// ``sourceText()`` when the value is small enough to be looked up for sharing
    /// (``SpellingTable/maximumEntries``): a large one is not hashed (nil on the reference
    /// path, which does not share).
    func shareableText() -> SourceText?
    /// The value as a widget type name, and the registry's entry for it (nil when none is
    /// registered); nil when the value is not a string.
    func widgetType(in registry: WidgetRegistry) -> (name: String, entry: WidgetRegistry.Entry?)?
    /// The fingerprint of this widget element, when this path can compute it cheaply
    /// (see `Fingerprint`); nil leaves it to be computed from the model when asked.
    func widgetFingerprint() -> UInt64?
    /// The decode has finished this value and will not read it again (see
    /// `DecodeContext.doneWith`); nothing on a path without an index.
    func finished(ctx: DecodeContext)
}

extension DocumentReader {
    package func widgetType(in registry: WidgetRegistry) -> (name: String, entry: WidgetRegistry.Entry?)? {
        string().map { ($0, registry.entry(for: $0)) }
    }

    package func finished(ctx: DecodeContext) {}
}

@usableFromInline package protocol ObjectReader {
    associatedtype Value: ValueReader
    /// The first member named `key` (null included), nil when absent.
    func value(forKey key: StaticString) -> Value?
    /// Calls `body` for each member whose key decodes; duplicates may be included (callers
    /// keep the first occurrence), order unspecified.
    func forEachMember(_ body: (String, Value) throws -> Void) rethrows
    /// The value for an arbitrary key (event names, dictionary keys).
    func value(forDynamicKey key: String) -> Value?
    /// Where each key of `keys` is, in one pass (see ``FieldTable``).
    func locate(_ keys: FieldKeys) -> FieldSlots
    /// The value a handle from ``locate(_:)`` stands for (`field` is its index in `keys`).
    func member(_ handle: Int32, _ keys: FieldKeys, _ field: Int) -> Value
    /// The number of members, repeated keys included (to reserve storage).
    var memberCount: Int { get }
    /// The object's text with `member` (the value of one of its members, from
    /// ``FieldValues``) cut out, key included, on a path that reads a document's bytes; nil
    /// on the reference path. Atoms spelled alike share their out-of-line fields
    /// (``ExtrasInterner``).
    func spelling(cutting member: Value?) -> AtomSpelling?
}

@usableFromInline package protocol ArrayReader {
    associatedtype Element: ValueReader
    mutating func next() -> Element?
    /// The number of elements, when known cheaply (to reserve storage).
    var count: Int? { get }
}

/// A model decodable by the library's generic route, on either path.
///
/// Conformers write `init(from reader:)` once; `Decodable` comes for free and runs the same
/// code under any `Decoder` (Foundation's included), so the library's models are plain
/// `Decodable` types to a host, which registers its own `Decodable` types.
///
/// The protocol and the readers are `package`: they are how this package's models decode,
/// not an API a host calls. They are also `@usableFromInline`, as is every conformer's
/// `init(from:)`: the field readers (``FieldValues``) are inlined into the models of other
/// modules (FlowWidgets), where each model's decode is specialised for each reader; called
/// out of line instead, every absent field of every widget would cost a call.
@usableFromInline package protocol FlowDecodable: Decodable, Sendable {
    init<R: ValueReader>(from reader: R) throws
    /// The fast path's entry point; the default forwards to `init(from:)`, specialised.
    init(tape reader: TapeReader) throws
    /// The reference path's entry point; the default forwards to `init(from:)`.
    init(foundation reader: FoundationReader) throws
}

extension FlowDecodable {
    @inlinable
    package init(tape reader: TapeReader) throws { try self.init(from: reader) }

    @inlinable
    package init(foundation reader: FoundationReader) throws { try self.init(from: reader) }

    /// Any `Decoder` (Foundation's included) runs the same code as the library's paths.
    public init(from decoder: any Decoder) throws {
        try self.init(foundation: FoundationReader(decoder: decoder, context: DecodeContext.standalone()))
    }
}

/// Why a content model could not be decoded: where inside it, what was expected, what was found.
@usableFromInline package struct ContentError: Error, Sendable, CustomStringConvertible {
    package var path: [PathComponent]
    package var message: String

    @usableFromInline package init(_ message: String, path: [PathComponent] = []) {
        self.message = message
        self.path = path
    }

    @usableFromInline package static func mismatch<R: ValueReader>(expected: String, found reader: R) -> ContentError {
        ContentError("expected \(expected), found \(reader.foundDescription)")
    }

    @usableFromInline package static func missing(_ key: StaticString) -> ContentError {
        ContentError("required field is missing", path: [.key(key.description)])
    }

    /// The same error, one level further out.
    @usableFromInline package func at(_ component: PathComponent) -> ContentError {
        ContentError(message, path: [component] + path)
    }

    @usableFromInline package var description: String {
        path.isEmpty ? message : "\(DecodePath.render(path)): \(message)"
    }
}

extension ObjectReader {
    /// The value for `key`, nil when absent or null (null counts as absent everywhere in
    /// the contract).
    @inlinable
    package func present(_ key: StaticString) -> Value? {
        guard let v = value(forKey: key), !v.isNull else { return nil }
        return v
    }

    /// A required field: missing, null or malformed is an error.
    @inlinable
    package func required<T: FlowDecodable>(_ key: StaticString, as: T.Type = T.self) throws -> T {
        guard let v = present(key) else { throw ContentError.missing(key) }
        do { return try v.read(T.self) } catch { throw Self.locate(error, key) }
    }

    /// An optional field: absent or null is nil; present and malformed is an error.
    @inlinable
    package func optional<T: FlowDecodable>(_ key: StaticString, as: T.Type = T.self) throws -> T? {
        guard let v = present(key) else { return nil }
        do { return try v.read(T.self) } catch { throw Self.locate(error, key) }
    }

    @usableFromInline
    static func locate(_ error: any Error, _ key: StaticString) -> any Error {
        (error as? ContentError)?.at(.key(key.description)) ?? error
    }
}

// MARK: - Primitives

extension String: FlowDecodable {
    @inlinable
    package init<R: ValueReader>(from reader: R) throws {
        guard let s = reader.string() else { throw ContentError.mismatch(expected: "a string", found: reader) }
        self = s
    }
}

extension Bool: FlowDecodable {
    @inlinable
    package init<R: ValueReader>(from reader: R) throws {
        guard let b = reader.bool() else { throw ContentError.mismatch(expected: "a bool", found: reader) }
        self = b
    }
}

extension Double: FlowDecodable {
    @inlinable
    package init<R: ValueReader>(from reader: R) throws {
        guard let d = reader.double() else {
            throw ContentError.mismatch(expected: "a number within Double's range", found: reader)
        }
        self = d
    }
}

extension Int: FlowDecodable {
    @inlinable
    package init<R: ValueReader>(from reader: R) throws {
        guard let i = reader.integer(Int.self) else {
            throw ContentError.mismatch(expected: "an integer", found: reader)
        }
        self = i
    }
}

extension Array: FlowDecodable where Element: FlowDecodable {
    @inlinable
    package init<R: ValueReader>(from reader: R) throws {
        guard var elements = reader.array() else { throw ContentError.mismatch(expected: "an array", found: reader) }
        var result: [Element] = []
        result.reserveCapacity(elements.count ?? 0)
        var i = 0
        while let e = elements.next() {
            do { result.append(try e.read(Element.self)) } catch {
                throw (error as? ContentError)?.at(.index(i)) ?? error
            }
            i += 1
        }
        self = result
    }

    /// On the fast path, an array spelled as one decoded earlier in the same decode is that
    /// array again (see `WidgetInterner`).
    @inlinable
    package init(tape reader: TapeReader) throws {
        self = try reader.shared { try Self(from: reader) }
    }
}
