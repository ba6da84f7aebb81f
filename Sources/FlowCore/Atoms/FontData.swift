import FlowJSON

/// `{ "size": number, "weight": string, "token": string }`.
public struct FontData: FlowDecodable, JSONWritable, Hashable {
    public var size: Double?
    public var weight: String?
    public var token: String?

    public init(size: Double? = nil, weight: String? = nil, token: String? = nil) {
        self.size = size
        self.weight = weight
        self.token = token
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a font object", found: reader) }
        let f = o.fields(Self.fields)
        self.init(size: try f.optional(.size), weight: try f.optional(.weight), token: try f.optional(.token))
    }

    enum Field: Int, CaseIterable { case size, weight, token }
    static let fields = FieldTable<Field>(["size", "weight", "token"])

    package func write(to writer: inout JSONWriter) {
        var o = FieldWriter(Self.fields, &writer)
        o.field(.size, size, &writer)
        o.field(.weight, weight, &writer)
        o.field(.token, token, &writer)
        o.close(&writer)
    }
}
