import FlowCore

/// `image_text_card`: `title` (required), `image`, `subtitle`, `tags`, `trailing_icon`.
public struct ImageTextCard: FlowDecodable, Hashable {
    public var title: TextData
    public var image: ImageData?
    public var subtitle: TextData?
    public var tags: [TagData]?
    public var trailingIcon: IconData?
    private var memberwise = Memberwise()

    enum Field: Int, CaseIterable { case title, image, subtitle, tags, trailingIcon }
    static let fields = FieldTable<Field>(["title", "image", "subtitle", "tags", "trailing_icon"])
}

extension ImageTextCard {
    public init(title: TextData, image: ImageData? = nil, subtitle: TextData? = nil, tags: [TagData]? = nil, trailingIcon: IconData? = nil) {
        self.init(title: title, image: image, subtitle: subtitle, tags: tags, trailingIcon: trailingIcon, memberwise: Memberwise())
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "an object", found: reader) }
        let f = o.fields(Self.fields)
        self.init(
            title: try f.required(.title), image: try f.optional(.image), subtitle: try f.optional(.subtitle),
            tags: try f.optional(.tags), trailingIcon: try f.optional(.trailingIcon))
    }
}
