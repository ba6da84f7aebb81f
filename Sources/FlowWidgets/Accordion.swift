import FlowCore

/// `accordion`: `header` (required), `initially_expanded`, `items`: nested widgets decoded by
/// the page's rules (lossy, diagnostics at `…data.items.N`, ids unique within the accordion).
public struct Accordion: FlowDecodable, Equatable, WidgetContainer {
    public var header: TextData
    public var initiallyExpanded: Bool?
    public var items: [Widget]

    public init(header: TextData, initiallyExpanded: Bool? = nil, items: [Widget] = []) {
        self.header = header
        self.initiallyExpanded = initiallyExpanded
        self.items = items
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "an object", found: reader) }
        let f = o.fields(Self.fields)
        header = try f.required(.header)
        initiallyExpanded = try f.optional(.initiallyExpanded)
        items = try reader.context.at(.key("items")) { try f.optional(.items, as: WidgetList.self)?.widgets } ?? []
    }

    /// The items: they count among the page's widgets.
    public var nestedWidgets: [Widget] { items }

    enum Field: Int, CaseIterable { case header, initiallyExpanded, items }
    static let fields = FieldTable<Field>(["header", "initially_expanded", "items"])
}
