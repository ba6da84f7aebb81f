import FlowJSON

/// The open set of widget types a host understands: a `type` string to a content model.
///
/// There is no closed enum of widget types. A host registers a plain `Decodable` content
/// type in one generic call:
///
///     var registry = WidgetRegistry()
///     registry.register(OrderCard.self, as: "order_card")
///
/// A widget's model comes back with ``Widget/model(as:)``. A host's `Decodable` type takes
/// the fast path with no extra work: it decodes through the library's own `Decoder` over
/// the document's index (`TapeDecoder`), not through Foundation's `JSONDecoder`, reading
/// numbers exactly as `JSONDecoder` would. (The library's own models take a specialised
/// route, `FlowDecodable`, internal to the package.) Contents that are `Equatable` take
/// part in page equality (others compare by their raw `data`).
///
/// See <doc:GettingStarted> and <doc:PageContract#Widgets>.
public struct WidgetRegistry: Sendable {
    /// How one widget type decodes on each path, and how two of its contents compare.
    package final class Entry: Sendable {
        package let typeName: String
        let fast: @Sendable (TapeReader) throws -> ContentBox
        let reference: @Sendable (FoundationReader) throws -> ContentBox
        let equals: @Sendable (any Sendable, any Sendable) -> Bool
        /// Whether widgets whose `data` is spelled alike may share one decoded content
        /// (`WidgetInterner`): a library type that holds no widgets.
        let sharesContent: Bool

        init(typeName: String, fast: @escaping @Sendable (TapeReader) throws -> ContentBox,
             reference: @escaping @Sendable (FoundationReader) throws -> ContentBox,
             equals: @escaping @Sendable (any Sendable, any Sendable) -> Bool, sharesContent: Bool) {
            self.typeName = typeName
            self.fast = fast
            self.reference = reference
            self.equals = equals
            self.sharesContent = sharesContent
        }
    }

    private var entries: [String: Entry] = [:]
    /// The entries again, found by the hash of the name's UTF-8 bytes: the fast path looks a
    /// type up from the document's bytes, without building a `String` or hashing one with
    /// SipHash (most of the cost of finding a widget's entry by name). A hit is confirmed
    /// byte for byte; a miss falls back to ``entry(for:)``, which also matches canonically
    /// equivalent spellings, as Foundation's path does. Rebuilt on each registration (a
    /// registry is built once and read for every widget).
    private var spelled: [Entry] = []
    private var bySpelling = HashTable([])

    public init() {}

    private mutating func add(_ entry: Entry) {
        entries[entry.typeName] = entry
        spelled = Array(entries.values)
        bySpelling = HashTable(spelled.map { IDHash.of($0.typeName) })
    }

    /// Registers a content model with the library's generic route (fast on both paths).
    package mutating func register<Content: FlowDecodable>(_ type: Content.Type, as typeName: String) {
        // The box's class looked up once here: named inside the closures, the generic
        // metadata would be looked up (a hash-table probe) for every widget.
        let box = TypedContentBox<Content>.self
        add(Entry(
            typeName: typeName,
            fast: { box.init(try Content(tape: $0)) },
            reference: { box.init(try Content(foundation: $0)) },
            equals: Self.equality(for: Content.self),
            // A container's widgets claim their ids where they stand: each decodes its own.
            sharesContent: !(Content.self is any WidgetContainer.Type)))
    }

    /// Registers a host's plain `Decodable` content model.
    @_disfavoredOverload
    public mutating func register<Content: Decodable & Sendable>(_ type: Content.Type, as typeName: String) {
        let box = TypedContentBox<Content>.self
        add(Entry(
            typeName: typeName,
            fast: { box.init(try $0.decode(Content.self)) },
            reference: { box.init(try $0.decode(Content.self)) },
            equals: Self.equality(for: Content.self),
            // A host's `init(from:)` may do more than read its data.
            sharesContent: false))
    }

    package func entry(for typeName: String) -> Entry? { entries[typeName] }

    /// The entry whose name is exactly these UTF-8 bytes, if one is registered; nil does
    /// not mean the type is unknown (see ``spelled``).
    func entry(spelled bytes: UnsafeBufferPointer<UInt8>) -> Entry? {
        guard let position = bySpelling.first(IDHash.of(bytes)) else { return nil }
        let entry = spelled[position]
        var name = entry.typeName
        let same = name.withUTF8 { $0.count == bytes.count && (bytes.isEmpty || ShortBytes.equal($0.baseAddress!, bytes.baseAddress!, bytes.count)) }
        return same ? entry : nil
    }

    public var typeNames: [String] { entries.keys.sorted() }

    private static func equality<Content>(for _: Content.Type) -> @Sendable (any Sendable, any Sendable) -> Bool {
        { a, b in
            guard let a = a as? Content, let b = b as? Content else { return false }
            guard let x = a as? any Equatable else { return true }
            return x.isEqual(to: b)
        }
    }
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// What a widget holds: its decoded content model, or, with placeholders on, why it has none.
public enum WidgetContent: Sendable, Equatable {
    case model(WidgetModel)
    case placeholder(Diagnostic.Kind)

    /// The content as `T`, when it is one.
    public func model<T>(as type: T.Type) -> T? {
        if case .model(let m) = self { return m.value as? T }
        return nil
    }

    public var isPlaceholder: Bool { if case .placeholder = self { true } else { false } }
}

/// A decoded content model of whatever type its registry entry names.
public struct WidgetModel: Sendable, Equatable {
    let box: ContentBox
    let entry: WidgetRegistry.Entry

    /// The model itself.
    public var value: any Sendable { box.anyValue }

    init(box: ContentBox, entry: WidgetRegistry.Entry) {
        self.box = box
        self.entry = entry
    }

    public static func == (a: WidgetModel, b: WidgetModel) -> Bool {
        a.entry.typeName == b.entry.typeName && a.entry.equals(a.value, b.value)
    }
}

/// A decoded content model on the heap, behind one reference.
///
/// Not an `any Sendable` field: an existential takes 32 bytes inline in every widget and
/// still boxes any model over 24 bytes, so a page of 100,000 widgets would carry 3 MB of
/// mostly empty inline buffers. A model is allocated once either way; a reference is 8 bytes.
class ContentBox: @unchecked Sendable {
    /// The model as an existential (built on demand: only equality and `model(as:)` ask).
    var anyValue: any Sendable { preconditionFailure("ContentBox is abstract; TypedContentBox overrides this") }
    /// The widgets the model holds, when it is a ``WidgetContainer``.
    var nestedWidgets: [Widget] { preconditionFailure("ContentBox is abstract; TypedContentBox overrides this") }
}

final class TypedContentBox<Content: Sendable>: ContentBox, @unchecked Sendable {
    let content: Content

    init(_ content: Content) { self.content = content }

    override var anyValue: any Sendable { content }

    override var nestedWidgets: [Widget] { (content as? any WidgetContainer)?.nestedWidgets ?? [] }
}
