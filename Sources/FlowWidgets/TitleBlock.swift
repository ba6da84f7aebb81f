import FlowCore

/// `title_block`: `title` (required), `subtitle`.
public struct TitleBlock: FlowDecodable, Hashable {
    public var title: TextData
    public var subtitle: TextData?

    public init(title: TextData, subtitle: TextData? = nil) {
        self.title = title
        self.subtitle = subtitle
    }

    public init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "an object", found: reader) }
        self.init(title: try o.required("title"), subtitle: try o.optional("subtitle"))
    }
}
