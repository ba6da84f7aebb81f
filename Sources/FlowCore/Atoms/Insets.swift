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

    public init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "an insets object", found: reader) }
        self.init(
            top: try o.optional("top") ?? 0, left: try o.optional("left") ?? 0,
            right: try o.optional("right") ?? 0, bottom: try o.optional("bottom") ?? 0)
    }

    public func write(to writer: inout JSONWriter) {
        var o = ObjectWriter(&writer)
        o.field("top", top, &writer)
        o.field("left", left, &writer)
        o.field("right", right, &writer)
        o.field("bottom", bottom, &writer)
        o.close(&writer)
    }
}
