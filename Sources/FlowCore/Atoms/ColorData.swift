import FlowJSON

/// A color: `"#4F8CFF"`, or `{ "hex", "dark_hex", "token", "alpha" }`. Strings pass through
/// unvalidated (tokens are the host's vocabulary).
public struct ColorData: FlowDecodable, JSONWritable, Hashable {
    public var hex: String?
    public var darkHex: String?
    public var token: String?
    public var alpha: Double?

    public init(hex: String? = nil, darkHex: String? = nil, token: String? = nil, alpha: Double? = nil) {
        self.hex = hex
        self.darkHex = darkHex
        self.token = token
        self.alpha = alpha
    }

    public init<R: ValueReader>(from reader: R) throws {
        if let hex = reader.string() {
            self.init(hex: hex)
            return
        }
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a color string or object", found: reader) }
        self.init(hex: try o.optional("hex"), darkHex: try o.optional("dark_hex"), token: try o.optional("token"), alpha: try o.optional("alpha"))
    }

    public func write(to writer: inout JSONWriter) {
        if let hex, darkHex == nil, token == nil, alpha == nil { return hex.write(to: &writer) }
        var o = ObjectWriter(&writer)
        o.field("hex", hex, &writer)
        o.field("dark_hex", darkHex, &writer)
        o.field("token", token, &writer)
        o.field("alpha", alpha, &writer)
        o.close(&writer)
    }
}
