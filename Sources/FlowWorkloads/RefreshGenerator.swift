import FlowJSON

/// Deterministic "the backend sent a new version" workloads: a generated page document
/// and a changed copy of it, for the refresh diff; and concatenations of a page with its
/// next page, for the pagination merge.
public enum RefreshGenerator {
    /// A new version of `document` (a page document) where about `rate` of the section
    /// widgets changed: a quarter each inserted, removed, updated (a title rewritten) and
    /// moved (half within their section, half to another); a few sections move, one is
    /// inserted and one removed.
    public static func changed(_ document: [UInt8], rate: Double, seed: UInt64) throws -> [UInt8] {
        var rng = SeededRandom(seed: seed &* 31 &+ 7)
        var root = try JSONValue(parsing: document)
        guard var page = root["page"]?.objectValue, let list = page["sections"]?.arrayValue else { return document }
        var sections = list.compactMap(\.objectValue)
        var serial = 0
        func widgets(_ s: Int) -> [JSONValue] { sections[s]["widgets"]?.arrayValue ?? [] }
        func setWidgets(_ s: Int, _ w: [JSONValue]) { sections[s] = replacing(sections[s], "widgets", .array(w)) }
        let total = sections.reduce(0) { $0 + (($1["widgets"]?.arrayValue?.count) ?? 0) }
        let changes = Int(Double(total) * rate / 4)
        guard !sections.isEmpty else { return document }
        for _ in 0..<changes {
            // Remove one.
            var s = rng.below(sections.count)
            var w = widgets(s)
            if !w.isEmpty { w.remove(at: rng.below(w.count)); setWidgets(s, w) }
            // Insert a new one.
            s = rng.below(sections.count)
            w = widgets(s)
            serial += 1
            let fresh: JSONValue = ["type": "title_block", "id": .string("refresh_\(seed)_\(serial)"), "data": ["title": .string("New \(serial)")]]
            w.insert(fresh, at: rng.below(w.count + 1))
            setWidgets(s, w)
            // Update one: rewrite its data.
            s = rng.below(sections.count)
            w = widgets(s)
            if !w.isEmpty, let widget = w[rng.below(w.count)].objectValue {
                let i = w.firstIndex(of: .object(widget))!
                w[i] = .object(replacing(widget, "tracking", ["refreshed": .number(JSONNumber(Int64(serial)))]))
                setWidgets(s, w)
            }
            // Move one: within its section or to another.
            s = rng.below(sections.count)
            w = widgets(s)
            if !w.isEmpty {
                let moving = w.remove(at: rng.below(w.count))
                if rng.chance(0.5) {
                    w.insert(moving, at: rng.below(w.count + 1))
                    setWidgets(s, w)
                } else {
                    setWidgets(s, w)
                    let t = rng.below(sections.count)
                    var other = widgets(t)
                    other.insert(moving, at: rng.below(other.count + 1))
                    setWidgets(t, other)
                }
            }
        }
        if sections.count > 3 {
            sections.remove(at: rng.below(sections.count))
            let moving = sections.remove(at: rng.below(sections.count))
            sections.insert(moving, at: rng.below(sections.count + 1))
            sections.insert(["id": .string("refresh_section_\(seed)"), "widgets": [["type": "separator", "id": .string("refresh_sep_\(seed)")]]],
                            at: rng.below(sections.count + 1))
        }
        page = replacing(page, "sections", .array(sections.map { .object($0) }))
        root = .object(replacing(root.objectValue!, "page", .object(page)))
        return JSONWriter.encode(root)
    }

    /// `first` with `next`'s sections appended: the single document a page and its next
    /// page would have been.
    public static func concatenated(_ first: [UInt8], _ next: [UInt8]) throws -> [UInt8] {
        let a = try JSONValue(parsing: first), b = try JSONValue(parsing: next)
        guard var page = a["page"]?.objectValue else { return first }
        let sections = (page["sections"]?.arrayValue ?? []) + (b["page"]?["sections"]?.arrayValue ?? [])
        page = replacing(page, "sections", .array(sections))
        if let pagination = b["page"]?["pagination"] { page = replacing(page, "pagination", pagination) } else { page = removing(page, "pagination") }
        return JSONWriter.encode(.object(replacing(a.objectValue!, "page", .object(page))))
    }

    static func replacing(_ object: JSONObject, _ key: String, _ value: JSONValue) -> JSONObject {
        var o = removing(object, key)
        o.append(key, value)
        return o
    }

    static func removing(_ object: JSONObject, _ key: String) -> JSONObject {
        JSONObject(object.members.filter { $0.key != key })
    }
}
