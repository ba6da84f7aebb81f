import FlowJSON

/// `"https://…"`, or `{ "url" (required), "aspect_ratio", "scale_mode", "corner_radius",
/// "placeholder_color", "shimmer", "alt" }`.
public struct ImageData: FlowDecodable, JSONWritable, Hashable {
    public var url: String
    public var aspectRatio: Double?
    public var scaleMode: String?
    public var cornerRadius: CornerRadius?
    public var placeholderColor: ColorData?
    public var shimmer: Bool?
    public var alt: String?

    public init(url: String, aspectRatio: Double? = nil, scaleMode: String? = nil, cornerRadius: CornerRadius? = nil,
                placeholderColor: ColorData? = nil, shimmer: Bool? = nil, alt: String? = nil) {
        self.url = url
        self.aspectRatio = aspectRatio
        self.scaleMode = scaleMode
        self.cornerRadius = cornerRadius
        self.placeholderColor = placeholderColor
        self.shimmer = shimmer
        self.alt = alt
    }

    public init<R: ValueReader>(from reader: R) throws {
        if let url = reader.string() {
            self.init(url: url)
            return
        }
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a URL string or an image object", found: reader) }
        self.init(
            url: try o.required("url"), aspectRatio: try o.optional("aspect_ratio"), scaleMode: try o.optional("scale_mode"),
            cornerRadius: try o.optional("corner_radius"), placeholderColor: try o.optional("placeholder_color"),
            shimmer: try o.optional("shimmer"), alt: try o.optional("alt"))
    }

    public func write(to writer: inout JSONWriter) {
        if aspectRatio == nil, scaleMode == nil, cornerRadius == nil, placeholderColor == nil, shimmer == nil, alt == nil {
            return url.write(to: &writer)
        }
        var o = ObjectWriter(&writer)
        o.field("url", url, &writer)
        o.field("aspect_ratio", aspectRatio, &writer)
        o.field("scale_mode", scaleMode, &writer)
        o.field("corner_radius", cornerRadius, &writer)
        o.field("placeholder_color", placeholderColor, &writer)
        o.field("shimmer", shimmer, &writer)
        o.field("alt", alt, &writer)
        o.close(&writer)
    }
}
