import FlowJSON

/// `{ "title" (required), "style", "bg_color", "corner_radius", "icon", "full_width",
/// "disabled", "action" }`.
public struct ButtonData: FlowDecodable, JSONWritable, Hashable {
    public var title: TextData
    public var style: String?
    public var backgroundColor: ColorData?
    public var cornerRadius: CornerRadius?
    public var icon: IconData?
    public var fullWidth: Bool?
    public var disabled: Bool?
    public var action: ActionData?

    public init(title: TextData, style: String? = nil, backgroundColor: ColorData? = nil, cornerRadius: CornerRadius? = nil,
                icon: IconData? = nil, fullWidth: Bool? = nil, disabled: Bool? = nil, action: ActionData? = nil) {
        self.title = title
        self.style = style
        self.backgroundColor = backgroundColor
        self.cornerRadius = cornerRadius
        self.icon = icon
        self.fullWidth = fullWidth
        self.disabled = disabled
        self.action = action
    }

    public init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a button object", found: reader) }
        self.init(
            title: try o.required("title"), style: try o.optional("style"), backgroundColor: try o.optional("bg_color"),
            cornerRadius: try o.optional("corner_radius"), icon: try o.optional("icon"), fullWidth: try o.optional("full_width"),
            disabled: try o.optional("disabled"), action: try o.optional("action"))
    }

    public func write(to writer: inout JSONWriter) {
        var o = ObjectWriter(&writer)
        o.field("title", title, &writer)
        o.field("style", style, &writer)
        o.field("bg_color", backgroundColor, &writer)
        o.field("corner_radius", cornerRadius, &writer)
        o.field("icon", icon, &writer)
        o.field("full_width", fullWidth, &writer)
        o.field("disabled", disabled, &writer)
        o.field("action", action, &writer)
        o.close(&writer)
    }
}
