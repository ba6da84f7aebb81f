import FlowCore

/// `title_block`: `title` (required), `subtitle`.
public struct TitleBlock: FlowDecodable, Hashable {
    public var title: TextData
    public var subtitle: TextData?

    public init(title: TextData, subtitle: TextData? = nil) {
        self.title = title
        self.subtitle = subtitle
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "an object", found: reader) }
        let f = o.fields(Self.fields)
        self.init(title: try f.required(.title), subtitle: try f.optional(.subtitle))
    }

    enum Field: Int, CaseIterable { case title, subtitle }
    static let fields = FieldTable<Field>(["title", "subtitle"])
}
