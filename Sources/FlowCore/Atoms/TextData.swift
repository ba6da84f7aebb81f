import FlowJSON

/// Text: `"Hi"`, or `{ "text" (required), "font", "color", "alignment", "max_lines", "is_markdown" }`.
public struct TextData: FlowDecodable, JSONWritable, Hashable, ExpressibleByStringLiteral {
    public var text: String
    public var font: FontData?
    public var color: ColorData?
    public var alignment: String?
    public var maxLines: Int?
    public var isMarkdown: Bool?

    public init(text: String, font: FontData? = nil, color: ColorData? = nil, alignment: String? = nil, maxLines: Int? = nil, isMarkdown: Bool? = nil) {
        self.text = text
        self.font = font
        self.color = color
        self.alignment = alignment
        self.maxLines = maxLines
        self.isMarkdown = isMarkdown
    }

    public init(stringLiteral value: String) { self.init(text: value) }

    public init<R: ValueReader>(from reader: R) throws {
        if let text = reader.string() {
            self.init(text: text)
            return
        }
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a string or a text object", found: reader) }
        self.init(
            text: try o.required("text"), font: try o.optional("font"), color: try o.optional("color"),
            alignment: try o.optional("alignment"), maxLines: try o.optional("max_lines"), isMarkdown: try o.optional("is_markdown"))
    }

    public func write(to writer: inout JSONWriter) {
        if font == nil, color == nil, alignment == nil, maxLines == nil, isMarkdown == nil { return text.write(to: &writer) }
        var o = ObjectWriter(&writer)
        o.field("text", text, &writer)
        o.field("font", font, &writer)
        o.field("color", color, &writer)
        o.field("alignment", alignment, &writer)
        o.field("max_lines", maxLines, &writer)
        o.field("is_markdown", isMarkdown, &writer)
        o.close(&writer)
    }
}
