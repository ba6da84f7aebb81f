import FlowJSON

/// `{ "style", "color", "thickness", "insets" }`, all optional.
public struct SeparatorData: FlowDecodable, JSONWritable, Hashable {
    public var style: String?
    public var color: ColorData?
    public var thickness: Double?
    public var insets: Insets?

    public init(style: String? = nil, color: ColorData? = nil, thickness: Double? = nil, insets: Insets? = nil) {
        self.style = style
        self.color = color
        self.thickness = thickness
        self.insets = insets
    }

    public init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a separator object", found: reader) }
        self.init(style: try o.optional("style"), color: try o.optional("color"), thickness: try o.optional("thickness"), insets: try o.optional("insets"))
    }

    public func write(to writer: inout JSONWriter) {
        var o = ObjectWriter(&writer)
        o.field("style", style, &writer)
        o.field("color", color, &writer)
        o.field("thickness", thickness, &writer)
        o.field("insets", insets, &writer)
        o.close(&writer)
    }
}
