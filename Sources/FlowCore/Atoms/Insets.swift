import FlowJSON

/// `{ "top", "left", "right", "bottom" }`, each 0 when absent.
public struct Insets: FlowDecodable, JSONWritable, Hashable {
    public var top: Double
    public var left: Double
    public var right: Double
    public var bottom: Double

    public static let zero = Insets()

    public init(top: Double = 0, left: Double = 0, right: Double = 0, bottom: Double = 0) {
        self.top = top
        self.left = left
        self.right = right
        self.bottom = bottom
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "an insets object", found: reader) }
        let f = o.fields(Self.fields)
        self.init(
            top: try f.optional(.top) ?? 0, left: try f.optional(.left) ?? 0,
            right: try f.optional(.right) ?? 0, bottom: try f.optional(.bottom) ?? 0)
    }

    enum Field: Int, CaseIterable { case top, left, right, bottom }
    static let fields = FieldTable<Field>(["top", "left", "right", "bottom"])

    package func write(to writer: inout JSONWriter) {
        var o = FieldWriter(Self.fields, &writer)
        o.field(.top, top, &writer)
        o.field(.left, left, &writer)
        o.field(.right, right, &writer)
        o.field(.bottom, bottom, &writer)
        o.close(&writer)
    }
}
