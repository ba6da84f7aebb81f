import FlowJSON

/// `{ "title" (required), "style", "bg_color", "corner_radius", "icon", "full_width",
/// "disabled", "action" }`.
public struct ButtonData: FlowDecodable, JSONWritable, Hashable {
    public var title: TextData
    public var action: ActionData?
    private var extras: Extras<Fields>?

    struct Fields: EmptyCheckable {
        var style: String?
        var backgroundColor: ColorData?
        var cornerRadius: CornerRadius?
        var icon: IconData?
        var fullWidth: Bool?
        var disabled: Bool?
    }

    public var style: String? { get { extras.field(\.style) } set { extras.set(\.style, newValue) } }
    public var backgroundColor: ColorData? { get { extras.field(\.backgroundColor) } set { extras.set(\.backgroundColor, newValue) } }
    public var cornerRadius: CornerRadius? { get { extras.field(\.cornerRadius) } set { extras.set(\.cornerRadius, newValue) } }
    public var icon: IconData? { get { extras.field(\.icon) } set { extras.set(\.icon, newValue) } }
    public var fullWidth: Bool? { get { extras.field(\.fullWidth) } set { extras.set(\.fullWidth, newValue) } }
    public var disabled: Bool? { get { extras.field(\.disabled) } set { extras.set(\.disabled, newValue) } }

    public init(title: TextData, style: String? = nil, backgroundColor: ColorData? = nil, cornerRadius: CornerRadius? = nil,
                icon: IconData? = nil, fullWidth: Bool? = nil, disabled: Bool? = nil, action: ActionData? = nil) {
        self.title = title
        self.action = action
        self.extras = .make(Fields(style: style, backgroundColor: backgroundColor, cornerRadius: cornerRadius,
                                   icon: icon, fullWidth: fullWidth, disabled: disabled))
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
