import FlowCore
import FlowJSON

/// What `flow inspect` prints (README, "flow inspect"): the page's ids, the diagnostics,
/// and a few counts. `merge` and `mutate` print the same shape. Public so that the tests
/// compare the corpus golden files against exactly what the tool prints.
public struct InspectReport {
    public var page: Page
    public var diagnostics: [Diagnostic]
    public var bytes: Int

    public init(page: Page, diagnostics: [Diagnostic], bytes: Int, placeholdersKept: Bool = false) {
        self.page = page
        self.diagnostics = diagnostics
        self.bytes = bytes
        self.placeholdersKept = placeholdersKept
    }

    /// Elements that did not make it onto the page.
    public var dropped: Int {
        diagnostics.filter { d in
            switch d.kind {
            case .droppedElement: true
            case .unknownType, .malformedPayload: !placeholdersKept
            default: false
            }
        }.count
    }

    public var placeholdersKept = false

    /// The JSON object; `extra` may add members (mutate adds "toast").
    package func writeJSON(to w: inout JSONWriter, extra: (inout JSONWriter, inout ObjectWriter) -> Void = { _, _ in }) {
        var root = ObjectWriter(&w)
        root.key("page", &w)
        var p = ObjectWriter(&w)
        p.field("id", page.id, &w)
        p.field("empty", page.isEmpty, &w)
        p.field("header", page.header?.widgets.map(\.id) ?? [], &w)
        p.field("footer", page.footer?.widgets.map(\.id) ?? [], &w)
        p.key("sections", &w)
        w.writeByte(UInt8(ascii: "["))
        for (i, s) in page.sections.enumerated() {
            if i > 0 { w.writeByte(UInt8(ascii: ",")) }
            var o = ObjectWriter(&w)
            o.field("id", s.id, &w)
            o.key("header", &w)
            if let h = s.header { h.id.write(to: &w) } else { w.writeRaw("null") }
            o.field("widgets", s.widgets.map(\.id), &w)
            o.close(&w)
        }
        w.writeByte(UInt8(ascii: "]"))
        p.close(&w)
        root.key("diagnostics", &w)
        Self.write(diagnostics, to: &w)
        root.key("stats", &w)
        var st = ObjectWriter(&w)
        st.field("bytes", bytes, &w)
        st.field("widgets", page.widgetCount, &w)
        st.field("dropped", dropped, &w)
        st.close(&w)
        extra(&w, &root)
        root.close(&w)
    }

    public static func write(_ diagnostics: [Diagnostic], to w: inout JSONWriter) {
        w.writeByte(UInt8(ascii: "["))
        for (i, d) in diagnostics.enumerated() {
            if i > 0 { w.writeByte(UInt8(ascii: ",")) }
            var o = ObjectWriter(&w)
            o.field("kind", d.kind.rawValue, &w)
            o.field("path", d.path, &w)
            o.key("type", &w)
            if let t = d.type { t.write(to: &w) } else { w.writeRaw("null") }
            o.field("message", d.message, &w)
            o.close(&w)
        }
        w.writeByte(UInt8(ascii: "]"))
    }

    /// The `flow mutate` shape: the inspect object plus `"toast"` (the response's toast
    /// object, or null) and `"committed"` (false when a transactional apply rolled back).
    public func mutationJSON(toast: RawJSON?, committed: Bool) -> [UInt8] {
        var w = JSONWriter()
        writeJSON(to: &w) { w, o in
            o.key("toast", &w)
            if let toast { toast.write(to: &w) } else { w.writeRaw("null") }
            o.field("committed", committed, &w)
        }
        return w.bytes + [0x0A]
    }

    /// Compact JSON bytes, newline-terminated.
    public var json: [UInt8] {
        var w = JSONWriter()
        writeJSON(to: &w)
        return w.bytes + [0x0A]
    }

    /// The human view: the page's shape, then what was dropped and why.
    public func text(title: String) -> String {
        var lines: [String] = []
        let sectionWord = page.sections.count == 1 ? "section" : "sections"
        lines.append("\(title): page \"\(page.id)\" · \(page.widgetCount) widgets in \(page.sections.count) \(sectionWord) · \(bytes) bytes"
            + (page.isEmpty ? " · EMPTY PAGE" : ""))
        func widgetLine(_ w: Widget, indent: String, label: String = "") -> String {
            let name = indent + label + w.id
            let placeholder = w.content.isPlaceholder ? "  (placeholder)" : ""
            return name.padded(to: 44) + w.type + placeholder
        }
        if let header = page.header {
            lines.append("")
            lines.append("header\(header.sticky ? " (sticky)" : "")")
            lines += header.widgets.map { widgetLine($0, indent: "  ") }
        }
        for s in page.sections {
            lines.append("")
            lines.append("section \(s.id) · \(s.layout.arrangement.rawValue)\(s.layout.columns.map { ", \($0) columns" } ?? "")")
            if let h = s.header { lines.append(widgetLine(h, indent: "  ", label: "▸ ")) }
            lines += s.widgets.map { widgetLine($0, indent: "  ") }
        }
        if let footer = page.footer {
            lines.append("")
            lines.append("footer\(footer.sticky ? " (sticky)" : "")")
            lines += footer.widgets.map { widgetLine($0, indent: "  ") }
        }
        if let p = page.pagination {
            lines.append("")
            lines.append("pagination: has_more \(p.hasMore)\(p.postback.map { ", postback \($0)" } ?? "")")
        }
        lines.append("")
        if diagnostics.isEmpty {
            lines.append("no diagnostics: every widget decoded")
        } else {
            lines.append("\(diagnostics.count) diagnostic\(diagnostics.count == 1 ? "" : "s") (\(dropped) element\(dropped == 1 ? "" : "s") dropped)")
            for d in diagnostics {
                lines.append("  " + d.kind.rawValue.padded(to: 24) + d.path + (d.type.map { "  [\($0)]" } ?? ""))
                lines.append("  " + "".padded(to: 24) + d.message)
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension PageDecodingError {
    /// `{"error": {"message": …, "offset": N}}`
    public var json: [UInt8] {
        var w = JSONWriter()
        var root = ObjectWriter(&w)
        root.key("error", &w)
        var o = ObjectWriter(&w)
        o.field("message", message, &w)
        o.field("offset", offset, &w)
        o.close(&w)
        root.close(&w)
        return w.bytes
    }
}

extension String {
    func padded(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
