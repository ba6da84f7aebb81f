import FlowJSON

/// `"star.fill"`, or `{ "symbol" (required), "size", "color", "action" }`.
public struct IconData: FlowDecodable, JSONWritable, Hashable {
    public var symbol: String
    private var extras: Extras<Fields>?

    struct Fields: EmptyCheckable {
        var size: Double?
        var color: ColorData?
        var action: ActionData?
        var isEmpty: Bool { size == nil && color == nil && action == nil }
    }

    public var size: Double? { get { extras.field(\.size) } set { extras.set(\.size, newValue) } }
    public var color: ColorData? { get { extras.field(\.color) } set { extras.set(\.color, newValue) } }
    public var action: ActionData? { get { extras.field(\.action) } set { extras.set(\.action, newValue) } }

    public init(symbol: String, size: Double? = nil, color: ColorData? = nil, action: ActionData? = nil) {
        self.symbol = symbol
        self.extras = .make(Fields(size: size, color: color, action: action))
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        if let symbol = reader.string() {
            self.init(symbol: symbol)
            return
        }
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a symbol string or an icon object", found: reader) }
        let f = o.fields(Self.fields)
        let symbol: String = try f.required(.symbol)
        let extras = f.hasField(besides: .symbol)
            ? try reader.context.sharing.extras.icon.share(f, cutting: .symbol) {
                Fields(size: try f.optional(.size), color: try f.optional(.color), action: try f.optional(.action))
            }
            : nil
        self.init(symbol: symbol, extras: extras)
    }

    private init(symbol: String, extras: Extras<Fields>?) {
        self.symbol = symbol
        self.extras = extras
    }

    enum Field: Int, CaseIterable { case symbol, size, color, action }
    static let fields = FieldTable<Field>(["symbol", "size", "color", "action"])

    package func write(to writer: inout JSONWriter) {
        guard extras != nil else { return symbol.write(to: &writer) }
        var o = FieldWriter(Self.fields, &writer)
        o.field(.symbol, symbol, &writer)
        o.field(.size, size, &writer)
        o.field(.color, color, &writer)
        o.field(.action, action, &writer)
        o.close(&writer)
    }
}
