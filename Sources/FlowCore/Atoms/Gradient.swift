import FlowJSON

/// `{ "colors": [ColorData] (required), "angle": number }`.
public struct Gradient: FlowDecodable, JSONWritable, Hashable {
    public var colors: [ColorData]
    public var angle: Double?

    public init(colors: [ColorData], angle: Double? = nil) {
        self.colors = colors
        self.angle = angle
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a gradient object", found: reader) }
        let f = o.fields(Self.fields)
        self.init(colors: try f.required(.colors), angle: try f.optional(.angle))
    }

    enum Field: Int, CaseIterable { case colors, angle }
    static let fields = FieldTable<Field>(["colors", "angle"])

    package func write(to writer: inout JSONWriter) {
        var o = FieldWriter(Self.fields, &writer)
        o.field(.colors, colors, &writer)
        o.field(.angle, angle, &writer)
        o.close(&writer)
    }
}
