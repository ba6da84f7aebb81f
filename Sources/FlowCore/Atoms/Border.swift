import FlowJSON

/// `{ "width", "color", "dash_width", "dash_gap" }`.
public struct Border: FlowDecodable, JSONWritable, Hashable {
    public var width: Double?
    public var color: ColorData?
    public var dashWidth: Double?
    public var dashGap: Double?

    public init(width: Double? = nil, color: ColorData? = nil, dashWidth: Double? = nil, dashGap: Double? = nil) {
        self.width = width
        self.color = color
        self.dashWidth = dashWidth
        self.dashGap = dashGap
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a border object", found: reader) }
        let f = o.fields(Self.fields)
        self.init(width: try f.optional(.width), color: try f.optional(.color), dashWidth: try f.optional(.dashWidth), dashGap: try f.optional(.dashGap))
    }

    enum Field: Int, CaseIterable { case width, color, dashWidth, dashGap }
    static let fields = FieldTable<Field>(["width", "color", "dash_width", "dash_gap"])

    package func write(to writer: inout JSONWriter) {
        var o = FieldWriter(Self.fields, &writer)
        o.field(.width, width, &writer)
        o.field(.color, color, &writer)
        o.field(.dashWidth, dashWidth, &writer)
        o.field(.dashGap, dashGap, &writer)
        o.close(&writer)
    }
}
