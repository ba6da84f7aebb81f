/// Where a widget stands in its document, for its positional id: `prefix.index`, or
/// `prefix` alone for a section header.
struct WidgetPosition: Sendable {
    let prefix: String
    let index: Int?

    init(prefix: String, index: Int?) {
        self.prefix = prefix
        self.index = index
    }

    var path: String { index.map { "\(prefix).\($0)" } ?? prefix }

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
