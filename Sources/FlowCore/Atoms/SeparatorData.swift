import FlowJSON

/// `{ "style", "color", "thickness", "insets" }`, all optional.
public struct SeparatorData: FlowDecodable, JSONWritable, Hashable {
    public var style: String?
    public var color: ColorData?
    public var thickness: Double?
    public var insets: Insets?
    private var memberwise = Memberwise()

    enum Field: Int, CaseIterable { case style, color, thickness, insets }
    static let fields = FieldTable<Field>(["style", "color", "thickness", "insets"])

    package func write(to writer: inout JSONWriter) {
        var o = FieldWriter(Self.fields, &writer)
        o.field(.style, style, &writer)
        o.field(.color, color, &writer)
        o.field(.thickness, thickness, &writer)
        o.field(.insets, insets, &writer)
        o.close(&writer)
    }
}

extension SeparatorData {
    public init(style: String? = nil, color: ColorData? = nil, thickness: Double? = nil, insets: Insets? = nil) {
        self.init(style: style, color: color, thickness: thickness, insets: insets, memberwise: Memberwise())
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a separator object", found: reader) }
        let f = o.fields(Self.fields)
        self.init(style: try f.optional(.style), color: try f.optional(.color), thickness: try f.optional(.thickness), insets: try f.optional(.insets))
    }
}
