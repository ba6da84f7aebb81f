import FlowJSON

/// `{ "text" (required), "bg_color", "border_color", "corner_radius", "icon", "action" }`.
public struct TagData: FlowDecodable, JSONWritable, Hashable {
    public var text: TextData
    public var backgroundColor: ColorData?
    private var extras: Extras<Fields>?
    private var memberwise = Memberwise()

    struct Fields: EmptyCheckable {
        var borderColor: ColorData?
        var cornerRadius: CornerRadius?
        var icon: IconData?
        var action: ActionData?
        var isEmpty: Bool { borderColor == nil && cornerRadius == nil && icon == nil && action == nil }
    }

    public var borderColor: ColorData? { get { extras.field(\.borderColor) } set { extras.set(\.borderColor, newValue) } }
    public var cornerRadius: CornerRadius? { get { extras.field(\.cornerRadius) } set { extras.set(\.cornerRadius, newValue) } }
    public var icon: IconData? { get { extras.field(\.icon) } set { extras.set(\.icon, newValue) } }
    public var action: ActionData? { get { extras.field(\.action) } set { extras.set(\.action, newValue) } }

    enum Field: Int, CaseIterable { case text, backgroundColor, borderColor, cornerRadius, icon, action }
    static let fields = FieldTable<Field>(["text", "bg_color", "border_color", "corner_radius", "icon", "action"])

    package func write(to writer: inout JSONWriter) {
        var o = FieldWriter(Self.fields, &writer)
        o.field(.text, text, &writer)
        o.field(.backgroundColor, backgroundColor, &writer)
        o.field(.borderColor, borderColor, &writer)
        o.field(.cornerRadius, cornerRadius, &writer)
        o.field(.icon, icon, &writer)
        o.field(.action, action, &writer)
        o.close(&writer)
    }
}

extension TagData {
    public init(text: TextData, backgroundColor: ColorData? = nil, borderColor: ColorData? = nil,
                cornerRadius: CornerRadius? = nil, icon: IconData? = nil, action: ActionData? = nil) {
        self.init(text: text, backgroundColor: backgroundColor,
                  extras: .make(Fields(borderColor: borderColor, cornerRadius: cornerRadius, icon: icon, action: action)),
                  memberwise: Memberwise())
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "a tag object", found: reader) }
        let f = o.fields(Self.fields)
        let text: TextData = try f.required(.text)
        let backgroundColor: ColorData? = try f.optional(.backgroundColor)
        let extras = f.hasField(besides: .text, .backgroundColor)
            ? try reader.context.sharing.extras.tag.share(f, cutting: .text) {
                Fields(borderColor: try f.optional(.borderColor), cornerRadius: try f.optional(.cornerRadius),
                       icon: try f.optional(.icon), action: try f.optional(.action))
            }
            : nil
        self.init(text: text, backgroundColor: backgroundColor, extras: extras, memberwise: Memberwise())
    }
}
