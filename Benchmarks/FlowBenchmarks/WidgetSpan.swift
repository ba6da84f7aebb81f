import FlowJSON

/// A widget object of a page document as sent: where it is, its type, its bytes.
///
/// Found on the JSON index alone, so dropped widgets count too (their bytes were sent and
/// scanned whatever became of them).
struct WidgetSpan {
    /// `page.sections.3.widgets.12`, `page.header.widgets.0`, `page.sections.0.header`.
    let path: String
    /// The `type` string, or `(none)` when it is missing or not a string.
    let type: String
    /// The object's bytes in the document, braces included.
    let range: Range<Int>

    var bytes: Int { range.count }

    static func all(in document: JSONDocument, bareRoot: Bool) -> [WidgetSpan] {
        document.withView { view in
            var spans: [WidgetSpan] = []
            guard view.count > 0, view.kind(0) == .object else { return spans }
            let page = bareRoot ? 0 : view.member(0, "page")
            guard let page, view.kind(page) == .object else { return spans }
            func widget(_ i: Int, _ path: String) {
                guard view.kind(i) == .object else { return }
                let type = view.member(i, "type").flatMap { view.kind($0) == .string ? try? view.string($0) : nil } ?? "(none)"
                spans.append(WidgetSpan(path: path, type: type, range: objectRange(view, i)))
            }
            func list(_ i: Int?, _ path: String) {
                guard let i, view.kind(i) == .array else { return }
                var n = 0
                view.forEachElement(i) { e in
                    widget(e, "\(path).\(n)")
                    n += 1
                    return true
                }
            }
            func bar(_ key: String) {
                if let b = view.member(page, key), view.kind(b) == .object { list(view.member(b, "widgets"), "page.\(key).widgets") }
            }
            bar("header")
            if let sections = view.member(page, "sections"), view.kind(sections) == .array {
                var s = 0
                view.forEachElement(sections) { section in
                    if view.kind(section) == .object {
                        if let h = view.member(section, "header") { widget(h, "page.sections.\(s).header") }
                        list(view.member(section, "widgets"), "page.sections.\(s).widgets")
                    }
                    s += 1
                    return true
                }
            }
            bar("footer")
            return spans
        }
    }

    /// From the object's `{` to its matching `}`, strings skipped (the index records where a
    /// value starts, not where it ends).
    static func objectRange(_ view: JSONTapeView, _ i: Int) -> Range<Int> {
        let bytes = view.bytes
        let start = view.offset(i)
        var depth = 0
        var k = start
        var inString = false
        while k < bytes.count {
            let c = bytes[k]
            if inString {
                if c == UInt8(ascii: "\\") { k += 1 } else if c == UInt8(ascii: "\"") { inString = false }
            } else if c == UInt8(ascii: "\"") {
                inString = true
            } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return start..<(k + 1) }
            }
            k += 1
        }
        return start..<bytes.count
    }
}
