import FlowJSON

/// A number (all corners), or `{ "top_left", "top_right", "bottom_left", "bottom_right" }`,
/// each 0 when absent.
public struct CornerRadius: FlowDecodable, JSONWritable, Hashable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public var topLeft: Double
    public var topRight: Double
    public var bottomLeft: Double
    public var bottomRight: Double

    public init(topLeft: Double = 0, topRight: Double = 0, bottomLeft: Double = 0, bottomRight: Double = 0) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
    }

    public init(all radius: Double) { self.init(topLeft: radius, topRight: radius, bottomLeft: radius, bottomRight: radius) }

    public init(floatLiteral value: Double) { self.init(all: value) }

    public init(integerLiteral value: Int) { self.init(all: Double(value)) }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        if let radius = reader.double() {
            self.init(all: radius)
            return
        }
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a number or a corners object", found: reader) }
        let f = o.fields(Self.fields)
        self.init(
            topLeft: try f.optional(.topLeft) ?? 0, topRight: try f.optional(.topRight) ?? 0,
            bottomLeft: try f.optional(.bottomLeft) ?? 0, bottomRight: try f.optional(.bottomRight) ?? 0)
    }

    enum Field: Int, CaseIterable { case topLeft, topRight, bottomLeft, bottomRight }
    static let fields = FieldTable<Field>(["top_left", "top_right", "bottom_left", "bottom_right"])

    public var isUniform: Bool { topLeft == topRight && topLeft == bottomLeft && topLeft == bottomRight }

    package func write(to writer: inout JSONWriter) {
        if isUniform { return topLeft.write(to: &writer) }
        var o = FieldWriter(Self.fields, &writer)
        o.field(.topLeft, topLeft, &writer)
        o.field(.topRight, topRight, &writer)
        o.field(.bottomLeft, bottomLeft, &writer)
        o.field(.bottomRight, bottomRight, &writer)
        o.close(&writer)
    }
}
