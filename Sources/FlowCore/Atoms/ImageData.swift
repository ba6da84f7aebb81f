import FlowJSON

/// `"https://…"`, or `{ "url" (required), "aspect_ratio", "scale_mode", "corner_radius",
/// "placeholder_color", "shimmer", "alt" }`.
public struct ImageData: FlowDecodable, JSONWritable, Hashable {
    public var url: String
    private(set) var extras: Extras<Fields>?

    struct Fields: EmptyCheckable {
        var aspectRatio: Double?
        var scaleMode: String?
        var cornerRadius: CornerRadius?
        var placeholderColor: ColorData?
        var shimmer: Bool?
        var alt: String?
        var isEmpty: Bool { aspectRatio == nil && scaleMode == nil && cornerRadius == nil && placeholderColor == nil && shimmer == nil && alt == nil }
    }

    public var aspectRatio: Double? { get { extras.field(\.aspectRatio) } set { extras.set(\.aspectRatio, newValue) } }
    public var scaleMode: String? { get { extras.field(\.scaleMode) } set { extras.set(\.scaleMode, newValue) } }
    public var cornerRadius: CornerRadius? { get { extras.field(\.cornerRadius) } set { extras.set(\.cornerRadius, newValue) } }
    public var placeholderColor: ColorData? { get { extras.field(\.placeholderColor) } set { extras.set(\.placeholderColor, newValue) } }
    public var shimmer: Bool? { get { extras.field(\.shimmer) } set { extras.set(\.shimmer, newValue) } }
    public var alt: String? { get { extras.field(\.alt) } set { extras.set(\.alt, newValue) } }

    public init(url: String, aspectRatio: Double? = nil, scaleMode: String? = nil, cornerRadius: CornerRadius? = nil,
                placeholderColor: ColorData? = nil, shimmer: Bool? = nil, alt: String? = nil) {
        self.url = url
        self.extras = .make(Fields(aspectRatio: aspectRatio, scaleMode: scaleMode, cornerRadius: cornerRadius,
                                   placeholderColor: placeholderColor, shimmer: shimmer, alt: alt))
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        if let url = reader.string() {
            self.init(url: url)
            return
        }
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a URL string or an image object", found: reader) }
        let f = o.fields(Self.fields)
        let url: String = try f.required(.url)
        let extras = f.hasField(besides: .url)
            ? try reader.context.sharing.extras.image.share(f, cutting: .url) {
                Fields(aspectRatio: try f.optional(.aspectRatio), scaleMode: try f.optional(.scaleMode),
                       cornerRadius: try f.optional(.cornerRadius), placeholderColor: try f.optional(.placeholderColor),
                       shimmer: try f.optional(.shimmer), alt: try f.optional(.alt))
            }
            : nil
        self.init(url: url, extras: extras)
    }

    private init(url: String, extras: Extras<Fields>?) {
        self.url = url
        self.extras = extras
    }

    enum Field: Int, CaseIterable { case url, aspectRatio, scaleMode, cornerRadius, placeholderColor, shimmer, alt }
    static let fields = FieldTable<Field>(["url", "aspect_ratio", "scale_mode", "corner_radius", "placeholder_color", "shimmer", "alt"])

    package func write(to writer: inout JSONWriter) {
        guard extras != nil else { return url.write(to: &writer) }
        var o = FieldWriter(Self.fields, &writer)
        o.field(.url, url, &writer)
        o.field(.aspectRatio, aspectRatio, &writer)
        o.field(.scaleMode, scaleMode, &writer)
        o.field(.cornerRadius, cornerRadius, &writer)
        o.field(.placeholderColor, placeholderColor, &writer)
        o.field(.shimmer, shimmer, &writer)
        o.field(.alt, alt, &writer)
        o.close(&writer)
    }
}
