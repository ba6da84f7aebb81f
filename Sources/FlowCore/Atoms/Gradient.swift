import FlowJSON

/// `{ "colors": [ColorData] (required), "angle": number }`.
public struct Gradient: FlowDecodable, JSONWritable, Hashable {
    public var colors: [ColorData]
    public var angle: Double?

    public init(colors: [ColorData], angle: Double? = nil) {
        self.colors = colors
        self.angle = angle
    }

    public init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a gradient object", found: reader) }
        self.init(colors: try o.required("colors"), angle: try o.optional("angle"))
    }

    public func write(to writer: inout JSONWriter) {
        var o = ObjectWriter(&writer)
        o.field("colors", colors, &writer)
        o.field("angle", angle, &writer)
        o.close(&writer)
    }
}
