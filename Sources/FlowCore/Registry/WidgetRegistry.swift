/// The open set of widget types a host understands: a `type` string to a content model.
///
/// There is no closed enum of widget types. A host registers a plain `Decodable` content
/// type in one generic call:
///
///     var registry = WidgetRegistry()
///     registry.register(OrderCard.self, as: "order_card")
///
/// A type that also conforms to ``FlowDecodable`` decodes on the fast path through its own
/// specialised route; any other `Decodable` decodes through ``TapeDecoder``. Contents that
/// are `Equatable` take part in page equality (others compare by their raw `data`).
public struct WidgetRegistry: Sendable {
    /// How one widget type decodes on each path, and how two of its contents compare.
    public final class Entry: Sendable {
        public let typeName: String
        let fast: @Sendable (TapeReader) throws -> any Sendable
        let reference: @Sendable (FoundationReader) throws -> any Sendable
        let equals: @Sendable (any Sendable, any Sendable) -> Bool

        init(typeName: String, fast: @escaping @Sendable (TapeReader) throws -> any Sendable,
             reference: @escaping @Sendable (FoundationReader) throws -> any Sendable,
             equals: @escaping @Sendable (any Sendable, any Sendable) -> Bool) {
            self.typeName = typeName
            self.fast = fast
            self.reference = reference
            self.equals = equals
        }
    }

    private var entries: [String: Entry] = [:]

    public init() {}

    /// Registers a content model with the library's generic route (fast on both paths).
    public mutating func register<Content: FlowDecodable>(_ type: Content.Type, as typeName: String) {
        entries[typeName] = Entry(
            typeName: typeName,
            fast: { try Content(tape: $0) },
            reference: { try Content(foundation: $0) },
            equals: Self.equality(for: Content.self))
    }

    /// Registers a host's plain `Decodable` content model.
    @_disfavoredOverload
    public mutating func register<Content: Decodable & Sendable>(_ type: Content.Type, as typeName: String) {
        entries[typeName] = Entry(
            typeName: typeName,
            fast: { try $0.decode(Content.self) },
            reference: { try $0.decode(Content.self) },
            equals: Self.equality(for: Content.self))
    }

    public func entry(for typeName: String) -> Entry? { entries[typeName] }

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
    public let value: any Sendable
    let entry: WidgetRegistry.Entry

    init(value: any Sendable, entry: WidgetRegistry.Entry) {
        self.value = value
        self.entry = entry
    }

    public static func == (a: WidgetModel, b: WidgetModel) -> Bool {
        a.entry.typeName == b.entry.typeName && a.entry.equals(a.value, b.value)
    }
}
