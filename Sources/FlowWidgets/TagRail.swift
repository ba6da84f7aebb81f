import FlowCore

/// `tag_rail`: `tags` (required).
public struct TagRail: FlowDecodable, Hashable {
    public var tags: [TagData]

    public init(tags: [TagData]) { self.tags = tags }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "an object", found: reader) }
        self.init(tags: try o.required("tags"))
    }
}
