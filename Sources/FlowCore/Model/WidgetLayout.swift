import FlowJSON

/// The backend-controlled chrome around a widget. A renderer applies it inside out:
/// padding, background or gradient, corner clip, border, margin.
public struct WidgetLayout: FlowDecodable, JSONWritable, Hashable {
    public var padding: Insets?
    public var margin: Insets?
    public var cornerRadius: CornerRadius?
    public var background: ColorData?
    public var gradient: Gradient?
    public var border: Border?
    public var width: WidgetWidth?

    public static let `default` = WidgetLayout()

    public init(padding: Insets? = nil, margin: Insets? = nil, cornerRadius: CornerRadius? = nil, background: ColorData? = nil,
                gradient: Gradient? = nil, border: Border? = nil, width: WidgetWidth? = nil) {
        self.padding = padding
        self.margin = margin
        self.cornerRadius = cornerRadius
        self.background = background
        self.gradient = gradient
        self.border = border
        self.width = width
    }

    /// A known key of the wrong type fails the whole layout (the widget gets the default).
    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a layout object", found: reader) }
        let f = o.fields(Self.fields)
        self.init(
            padding: try f.optional(.padding), margin: try f.optional(.margin), cornerRadius: try f.optional(.cornerRadius),
            background: try f.optional(.background), gradient: try f.optional(.gradient), border: try f.optional(.border),
            width: try f.optional(.width))
    }

    enum Field: Int, CaseIterable { case padding, margin, cornerRadius, background, gradient, border, width }
    static let fields = FieldTable<Field>(["padding", "margin", "corner_radius", "background", "gradient", "border", "width"])

    public var isDefault: Bool { self == .default }

    package func write(to writer: inout JSONWriter) {
        var o = FieldWriter(Self.fields, &writer)
        o.field(.padding, padding, &writer)
        o.field(.margin, margin, &writer)
        o.field(.cornerRadius, cornerRadius, &writer)
        o.field(.background, background, &writer)
        o.field(.gradient, gradient, &writer)
        o.field(.border, border, &writer)
        o.field(.width, width, &writer)
        o.close(&writer)
    }
}

/// How a section lays out its widgets.
public struct SectionLayout: FlowDecodable, JSONWritable, Hashable {
    public enum Arrangement: String, Sendable, Hashable {
        case vertical, carousel, grid
    }

    /// `vertical` for any other string, or none: backends may invent arrangements without
    /// breaking old clients.
    public var arrangement: Arrangement
    /// Columns, for a grid.
    public var columns: Int?
    public var itemSpacing: Double?
    public var insets: Insets?

    public static let `default` = SectionLayout()

    public init(arrangement: Arrangement = .vertical, columns: Int? = nil, itemSpacing: Double? = nil, insets: Insets? = nil) {
        self.arrangement = arrangement
        self.columns = columns
        self.itemSpacing = itemSpacing
        self.insets = insets
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a section layout object", found: reader) }
        let f = o.fields(Self.fields)
        let arrangement = try f.optional(.arrangement, as: String.self)
        self.init(
            arrangement: arrangement.flatMap(Arrangement.init(rawValue:)) ?? .vertical, columns: try f.optional(.columns),
            itemSpacing: try f.optional(.itemSpacing), insets: try f.optional(.insets))
    }

    enum Field: Int, CaseIterable { case arrangement, columns, itemSpacing, insets }
    static let fields = FieldTable<Field>(["arrangement", "columns", "item_spacing", "insets"])

    package func write(to writer: inout JSONWriter) {
        var o = FieldWriter(Self.fields, &writer)
        o.field(.arrangement, arrangement == .vertical ? nil : arrangement.rawValue, &writer)
        o.field(.columns, columns, &writer)
        o.field(.itemSpacing, itemSpacing, &writer)
        o.field(.insets, insets, &writer)
        o.close(&writer)
    }
}
