import FlowCore

/// `banner`: `image` (required), `title`, `subtitle`.
public struct Banner: FlowDecodable, Hashable {
    public var image: ImageData
    public var title: TextData?
    public var subtitle: TextData?

    public init(image: ImageData, title: TextData? = nil, subtitle: TextData? = nil) {
        self.image = image
        self.title = title
        self.subtitle = subtitle
    }

    public init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "an object", found: reader) }
        self.init(image: try o.required("image"), title: try o.optional("title"), subtitle: try o.optional("subtitle"))
    }
}
