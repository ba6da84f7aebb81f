/// Where a widget stands in its document, for its positional id: `prefix.index`, or
/// `prefix` alone for a section header.
public struct WidgetPosition: Sendable {
    public let prefix: String
    public let index: Int?

    public init(prefix: String, index: Int?) {
        self.prefix = prefix
        self.index = index
    }

    public var path: String { index.map { "\(prefix).\($0)" } ?? prefix }

    /// The id of a widget of `type` sent without one, `type@path`, written in one allocation
    /// (a page of positional ids builds one per widget).
    func positionalID(type: String) -> String {
        TextAssembly.string { text in
            text.append(type)
            text.append("@")
            text.append(prefix)
            if let index {
                text.append(".")
                text.append(index)
            }
        }
    }
}
