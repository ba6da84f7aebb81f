import FlowCore

/// `banner`: `image` (required), `title`, `subtitle`.
public struct Banner: FlowDecodable, Hashable {
    public var image: ImageData
    public var title: TextData?
    public var subtitle: TextData?
    private var memberwise = Memberwise()

    enum Field: Int, CaseIterable { case image, title, subtitle }
    static let fields = FieldTable<Field>(["image", "title", "subtitle"])
}

extension Banner {
    public init(image: ImageData, title: TextData? = nil, subtitle: TextData? = nil) {
        self.init(image: image, title: title, subtitle: subtitle, memberwise: Memberwise())
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "an object", found: reader) }
        let f = o.fields(Self.fields)
        self.init(image: try f.required(.image), title: try f.optional(.title), subtitle: try f.optional(.subtitle))
    }
}
