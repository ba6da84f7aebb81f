import FlowJSON

/// A page of any size made from a page of one's own: `flow generate --like PAGE`.
///
/// The widgets of PAGE's sections are the pool; the new page draws `widgets` of them (with
/// replacement, by a seeded generator, so the same arguments give the same bytes) into
/// sections shaped like PAGE's, cycling through PAGE's sections as templates. Everything
/// else of the page (id, nav, header, footer, pagination) is kept as it is. Widgets are
/// copied as JSON, whatever their type, so a host's own types need no generator of their own.
///
/// Ids stay unique: in the k-th drawn widget, every object with a string `type` (the widget,
/// and accordion items or other widgets nested in it) gets `~k` after its string `id`; a
/// section template used for the r-th time (r ≥ 1) gets `~sr` after its id and its header's.
public struct SampledPageGenerator: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public var widgets: Int
    public var seed: UInt64
    /// Sections to spread the widgets over; nil keeps PAGE's widgets per section.
    public var sections: Int?

    public init(widgets: Int, seed: UInt64 = 1, sections: Int? = nil) {
        self.widgets = widgets
        self.seed = seed
        self.sections = sections
    }

    /// The new page document, in the form of `source` (`{"page": …}` or a bare page).
    public func generate(like source: [UInt8]) throws(Failure) -> [UInt8] {
        let root: JSONValue
        do { root = try JSONValue(parsing: source) } catch { throw Failure(description: "not a JSON document: \(error)") }
        guard var envelope = root.objectValue else { throw Failure(description: "expected an object at the root, found \(root.kind)") }
        let wrapped = envelope["page"]?.objectValue
        var page = wrapped ?? envelope
        guard page["sections"] != nil else {
            throw Failure(description: "expected a \"page\" object at the root, or a bare page with \"sections\", found neither")
        }
        let templates = (page["sections"]?.arrayValue ?? []).compactMap(\.objectValue)
        let pool = templates.flatMap { $0["widgets"]?.arrayValue ?? [] }
        guard !pool.isEmpty else { throw Failure(description: "the page's sections hold no widget to draw from") }

        let perSection = sections.map { max(1, (widgets + $0 - 1) / $0) } ?? max(1, (pool.count + templates.count - 1) / templates.count)
        let sectionCount = sections ?? max(1, (widgets + perSection - 1) / perSection)
        var random = SeededRandom(seed: seed)
        var drawn = 0
        var out: [JSONValue] = []
        out.reserveCapacity(sectionCount)
        for k in 0..<sectionCount {
            var section = templates[k % templates.count]
            let round = k / templates.count
            if round > 0 { section = Self.renamed(section, suffix: "~s\(round)", sectionLevel: true) }
            let count = min(perSection, widgets - drawn)
            var body: [JSONValue] = []
            body.reserveCapacity(count)
            for _ in 0..<max(0, count) {
                body.append(Self.renamed(random.pick(pool), suffix: "~\(drawn)"))
                drawn += 1
            }
            section.set("widgets", .array(body))
            out.append(.object(section))
        }
        page.set("sections", .array(out))
        if wrapped != nil { envelope.set("page", .object(page)) } else { envelope = page }
        return JSONWriter.encode(.object(envelope)) + [0x0A]
    }

    /// `value` with `suffix` after the string `id` of every widget-shaped object in it (one
    /// with a string `type`). At section level, the section's own id and its header's.
    static func renamed(_ value: JSONValue, suffix: String, sectionLevel: Bool = false) -> JSONValue {
        guard case .object(let object) = value else {
            if case .array(let elements) = value { return .array(elements.map { renamed($0, suffix: suffix) }) }
            return value
        }
        return .object(renamed(object, suffix: suffix, sectionLevel: sectionLevel))
    }

    static func renamed(_ object: JSONObject, suffix: String, sectionLevel: Bool = false) -> JSONObject {
        let widgetShaped = object["type"]?.stringValue != nil
        var copy = object
        for i in copy.members.indices {
            let key = copy.members[i].key
            if key == "id", widgetShaped || sectionLevel, let id = copy.members[i].value.stringValue {
                copy.members[i].value = .string(id + suffix)
            } else if !sectionLevel || key == "header" {
                copy.members[i].value = renamed(copy.members[i].value, suffix: suffix)
            }
        }
        return copy
    }
}

extension JSONObject {
    /// Replaces every member named `key` by one holding `value` where the first stood (a
    /// repeated key is one key to a decoder), or appends it.
    mutating func set(_ key: String, _ value: JSONValue) {
        guard let first = members.firstIndex(where: { $0.key == key }) else { return append(key, value) }
        members[first].value = value
        members = members.enumerated().filter { $0.offset <= first || $0.element.key != key }.map(\.element)
    }
}
