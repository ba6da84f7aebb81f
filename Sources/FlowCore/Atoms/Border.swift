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

    public init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a border object", found: reader) }
        self.init(width: try o.optional("width"), color: try o.optional("color"), dashWidth: try o.optional("dash_width"), dashGap: try o.optional("dash_gap"))
    }

    public func write(to writer: inout JSONWriter) {
        var o = ObjectWriter(&writer)
        o.field("width", width, &writer)
        o.field("color", color, &writer)
        o.field("dash_width", dashWidth, &writer)
        o.field("dash_gap", dashGap, &writer)
        o.close(&writer)
    }
}
