import FlowCore
import FlowJSON

extension PageDiff {
    /// The `flow diff --format json` shape (README, "flow diff").
    public var jsonValue: JSONValue {
        func section(_ c: SectionChange) -> JSONValue { ["id": .string(c.id), "index": .number(JSONNumber(Int64(c.index)))] }
        func place(_ p: Place) -> JSONValue { ["section": .string(p.section), "index": .number(JSONNumber(Int64(p.index)))] }
        func widget(_ c: WidgetChange) -> JSONValue { ["id": .string(c.id), "section": .string(c.place.section), "index": .number(JSONNumber(Int64(c.place.index)))] }
        return [
            "sections": [
                "inserted": .array(sections.inserted.map(section)),
                "removed": .array(sections.removed.map(section)),
                "moved": .array(sections.moved.map { ["id": .string($0.id), "from": .number(JSONNumber(Int64($0.from))), "to": .number(JSONNumber(Int64($0.to)))] }),
                "updated": .array(sections.updated.map(section)),
            ],
            "widgets": [
                "inserted": .array(widgets.inserted.map(widget)),
                "removed": .array(widgets.removed.map(widget)),
                "moved": .array(widgets.moved.map { ["id": .string($0.id), "from": place($0.from), "to": place($0.to)] }),
                "updated": .array(widgets.updated.map(widget)),
            ],
            "nav_changed": .bool(navChanged),
            "header_changed": .bool(headerChanged),
            "footer_changed": .bool(footerChanged),
        ]
    }

    public var json: [UInt8] { JSONWriter.encode(jsonValue) }

    /// A person's view of the changeset.
    public var text: String {
        if isEmpty { return "no change" }
        var lines: [String] = []
        func list<T>(_ title: String, _ items: [T], _ show: (T) -> String) {
            guard !items.isEmpty else { return }
            lines.append("  \(title) (\(items.count)): " + items.prefix(12).map(show).joined(separator: ", ") + (items.count > 12 ? ", …" : ""))
        }
        lines.append("sections:")
        list("inserted", sections.inserted) { "\($0.id) at \($0.index)" }
        list("removed", sections.removed) { "\($0.id) from \($0.index)" }
        list("moved", sections.moved) { "\($0.id) \($0.from)→\($0.to)" }
        list("updated", sections.updated) { $0.id }
        lines.append("widgets:")
        list("inserted", widgets.inserted) { "\($0.id) at \($0.place.section)[\($0.place.index)]" }
        list("removed", widgets.removed) { "\($0.id) from \($0.place.section)[\($0.place.index)]" }
        list("moved", widgets.moved) { "\($0.id) \($0.from.section)[\($0.from.index)]→\($0.to.section)[\($0.to.index)]" }
        list("updated", widgets.updated) { $0.id }
        lines.append("nav \(navChanged ? "changed" : "unchanged"), header \(headerChanged ? "changed" : "unchanged"), footer \(footerChanged ? "changed" : "unchanged")")
        return lines.joined(separator: "\n")
    }
}
