import FlowJSON

/// `"star.fill"`, or `{ "symbol" (required), "size", "color", "action" }`.
public struct IconData: FlowDecodable, JSONWritable, Hashable {
    public var symbol: String
    public var size: Double?
    public var color: ColorData?
    public var action: ActionData?

    public init(symbol: String, size: Double? = nil, color: ColorData? = nil, action: ActionData? = nil) {
        self.symbol = symbol
        self.size = size
        self.color = color
        self.action = action
    }

    public init<R: ValueReader>(from reader: R) throws {
        if let symbol = reader.string() {
            self.init(symbol: symbol)
            return
        }
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a symbol string or an icon object", found: reader) }
        self.init(symbol: try o.required("symbol"), size: try o.optional("size"), color: try o.optional("color"), action: try o.optional("action"))
    }

    public func write(to writer: inout JSONWriter) {
        if size == nil, color == nil, action == nil { return symbol.write(to: &writer) }
        var o = ObjectWriter(&writer)
        o.field("symbol", symbol, &writer)
        o.field("size", size, &writer)
        o.field("color", color, &writer)
        o.field("action", action, &writer)
        o.close(&writer)
    }
}
