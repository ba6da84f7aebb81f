import FlowJSON

/// A color: `"#4F8CFF"`, or `{ "hex", "dark_hex", "token", "alpha" }`. Strings pass through
/// unvalidated (tokens are the host's vocabulary).
public struct ColorData: FlowDecodable, JSONWritable, Hashable {
    public var hex: String?
    private var extras: Extras<Fields>?

    struct Fields: EmptyCheckable {
        var darkHex: String?
        var token: String?
        var alpha: Double?
        var isEmpty: Bool { darkHex == nil && token == nil && alpha == nil }
    }

    public var darkHex: String? { get { extras.field(\.darkHex) } set { extras.set(\.darkHex, newValue) } }
    public var token: String? { get { extras.field(\.token) } set { extras.set(\.token, newValue) } }
    public var alpha: Double? { get { extras.field(\.alpha) } set { extras.set(\.alpha, newValue) } }

    public init(hex: String? = nil, darkHex: String? = nil, token: String? = nil, alpha: Double? = nil) {
        self.hex = hex
        self.extras = .make(Fields(darkHex: darkHex, token: token, alpha: alpha))
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        if let hex = reader.string() {
            self.init(hex: hex)
            return
        }
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a color string or object", found: reader) }
        let f = o.fields(Self.fields)
        let hex: String? = try f.optional(.hex)
        let extras = f.hasField(besides: .hex)
            ? try reader.context.sharing.extras.color.share(f, cutting: .hex) {
                Fields(darkHex: try f.optional(.darkHex), token: try f.optional(.token), alpha: try f.optional(.alpha))
            }
            : nil
        self.init(hex: hex, extras: extras)
    }

    private init(hex: String?, extras: Extras<Fields>?) {
        self.hex = hex
        self.extras = extras
    }

    enum Field: Int, CaseIterable { case hex, darkHex, token, alpha }
    static let fields = FieldTable<Field>(["hex", "dark_hex", "token", "alpha"])

    package func write(to writer: inout JSONWriter) {
        if let hex, extras == nil { return hex.write(to: &writer) }
        var o = FieldWriter(Self.fields, &writer)
        o.field(.hex, hex, &writer)
        o.field(.darkHex, darkHex, &writer)
        o.field(.token, token, &writer)
        o.field(.alpha, alpha, &writer)
        o.close(&writer)
    }
}
