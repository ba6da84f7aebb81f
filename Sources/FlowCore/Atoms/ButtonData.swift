import FlowJSON

/// `{ "title" (required), "style", "bg_color", "corner_radius", "icon", "full_width",
/// "disabled", "action" }`.
public struct ButtonData: FlowDecodable, JSONWritable, Hashable {
    public var title: TextData
    public var action: ActionData?
    private var extras: Extras<Fields>?
    private var memberwise = Memberwise()

    struct Fields: EmptyCheckable {
        var style: String?
        var backgroundColor: ColorData?
        var cornerRadius: CornerRadius?
        var icon: IconData?
        var fullWidth: Bool?
        var disabled: Bool?
        var isEmpty: Bool { style == nil && backgroundColor == nil && cornerRadius == nil && icon == nil && fullWidth == nil && disabled == nil }
    }

    public var style: String? { get { extras.field(\.style) } set { extras.set(\.style, newValue) } }
    public var backgroundColor: ColorData? { get { extras.field(\.backgroundColor) } set { extras.set(\.backgroundColor, newValue) } }
    public var cornerRadius: CornerRadius? { get { extras.field(\.cornerRadius) } set { extras.set(\.cornerRadius, newValue) } }
    public var icon: IconData? { get { extras.field(\.icon) } set { extras.set(\.icon, newValue) } }
    public var fullWidth: Bool? { get { extras.field(\.fullWidth) } set { extras.set(\.fullWidth, newValue) } }
    public var disabled: Bool? { get { extras.field(\.disabled) } set { extras.set(\.disabled, newValue) } }

    enum Field: Int, CaseIterable { case title, style, backgroundColor, cornerRadius, icon, fullWidth, disabled, action }
    static let fields = FieldTable<Field>(["title", "style", "bg_color", "corner_radius", "icon", "full_width", "disabled", "action"])

    package func write(to writer: inout JSONWriter) {
        var o = FieldWriter(Self.fields, &writer)
        o.field(.title, title, &writer)
        o.field(.style, style, &writer)
        o.field(.backgroundColor, backgroundColor, &writer)
        o.field(.cornerRadius, cornerRadius, &writer)
        o.field(.icon, icon, &writer)
        o.field(.fullWidth, fullWidth, &writer)
        o.field(.disabled, disabled, &writer)
        o.field(.action, action, &writer)
        o.close(&writer)
    }
}

extension ButtonData {
    public init(title: TextData, style: String? = nil, backgroundColor: ColorData? = nil, cornerRadius: CornerRadius? = nil,
                icon: IconData? = nil, fullWidth: Bool? = nil, disabled: Bool? = nil, action: ActionData? = nil) {
        self.init(title: title, action: action,
                  extras: .make(Fields(style: style, backgroundColor: backgroundColor, cornerRadius: cornerRadius,
                                       icon: icon, fullWidth: fullWidth, disabled: disabled)),
                  memberwise: Memberwise())
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a button object", found: reader) }
        let f = o.fields(Self.fields)
        let title: TextData = try f.required(.title)
        let extras = f.hasField(besides: .title, .action)
            ? try reader.context.sharing.extras.button.share(f, cutting: .title) {
                Fields(style: try f.optional(.style), backgroundColor: try f.optional(.backgroundColor),
                       cornerRadius: try f.optional(.cornerRadius), icon: try f.optional(.icon),
                       fullWidth: try f.optional(.fullWidth), disabled: try f.optional(.disabled))
            }
            : nil
        let action: ActionData? = try f.optional(.action)
        self.init(title: title, action: action, extras: extras, memberwise: Memberwise())
    }
}
