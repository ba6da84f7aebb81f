import FlowCore

/// `image_text_card`: `title` (required), `image`, `subtitle`, `tags`, `trailing_icon`.
public struct ImageTextCard: FlowDecodable, Hashable {
    public var title: TextData
    public var image: ImageData?
    public var subtitle: TextData?
    public var tags: [TagData]?
    public var trailingIcon: IconData?

    public init(title: TextData, image: ImageData? = nil, subtitle: TextData? = nil, tags: [TagData]? = nil, trailingIcon: IconData? = nil) {
        self.title = title
        self.image = image
        self.subtitle = subtitle
        self.tags = tags
        self.trailingIcon = trailingIcon
    }

    public init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "an object", found: reader) }
        self.init(
            title: try o.required("title"), image: try o.optional("image"), subtitle: try o.optional("subtitle"),
            tags: try o.optional("tags"), trailingIcon: try o.optional("trailing_icon"))
    }
}
