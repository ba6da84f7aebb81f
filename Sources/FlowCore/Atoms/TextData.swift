import FlowJSON

/// Text: `"Hi"`, or `{ "text" (required), "font", "color", "alignment", "max_lines", "is_markdown" }`.
public struct TextData: FlowDecodable, JSONWritable, Hashable, ExpressibleByStringLiteral {
    public var text: String
    private(set) var style: Extras<Style>?

    struct Style: EmptyCheckable {
        var font: FontData?
        var color: ColorData?
        var alignment: String?
        var maxLines: Int?
        var isMarkdown: Bool?
        var isEmpty: Bool { font == nil && color == nil && alignment == nil && maxLines == nil && isMarkdown == nil }
    }

    public var font: FontData? { get { style.field(\.font) } set { style.set(\.font, newValue) } }
    public var color: ColorData? { get { style.field(\.color) } set { style.set(\.color, newValue) } }
    public var alignment: String? { get { style.field(\.alignment) } set { style.set(\.alignment, newValue) } }
    public var maxLines: Int? { get { style.field(\.maxLines) } set { style.set(\.maxLines, newValue) } }
    public var isMarkdown: Bool? { get { style.field(\.isMarkdown) } set { style.set(\.isMarkdown, newValue) } }

    public init(text: String, font: FontData? = nil, color: ColorData? = nil, alignment: String? = nil, maxLines: Int? = nil, isMarkdown: Bool? = nil) {
        self.text = text
        self.style = .make(Style(font: font, color: color, alignment: alignment, maxLines: maxLines, isMarkdown: isMarkdown))
    }

    public init(stringLiteral value: String) { self.init(text: value) }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        if let text = reader.string() {
            self.init(text: text)
            return
        }
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a string or a text object", found: reader) }
        let f = o.fields(Self.fields)
        let text: String = try f.required(.text)
        let style = f.hasField(besides: .text)
            ? try reader.context.sharing.extras.text.share(f, cutting: .text) {
                Style(font: try f.optional(.font), color: try f.optional(.color), alignment: try f.optional(.alignment),
                      maxLines: try f.optional(.maxLines), isMarkdown: try f.optional(.isMarkdown))
            }
            : nil
        self.init(text: text, style: style)
    }

    private init(text: String, style: Extras<Style>?) {
        self.text = text
        self.style = style
    }

    enum Field: Int, CaseIterable { case text, font, color, alignment, maxLines, isMarkdown }
    static let fields = FieldTable<Field>(["text", "font", "color", "alignment", "max_lines", "is_markdown"])

    package func write(to writer: inout JSONWriter) {
        guard style != nil else { return text.write(to: &writer) }
        var o = FieldWriter(Self.fields, &writer)
        o.field(.text, text, &writer)
        o.field(.font, font, &writer)
        o.field(.color, color, &writer)
        o.field(.alignment, alignment, &writer)
        o.field(.maxLines, maxLines, &writer)
        o.field(.isMarkdown, isMarkdown, &writer)
        o.close(&writer)
    }
}
