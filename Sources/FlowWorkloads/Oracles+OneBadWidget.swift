import FlowCore
import FlowJSON
import Foundation

extension FuzzTarget {
    /// The one-bad-widget target on `pages` (``FuzzPages``), through the starter types: see
    /// ``Oracles/oneBadWidget(_:pages:registry:)``.
    public static func oneBadWidget(pages: [FuzzPages.Page]) -> FuzzTarget {
        let analysed = pages.map(OneBadWidget.analyse)
        var target = FuzzTarget(
            name: "one-bad-widget",
            summary: "one widget (or one field of it) of a valid page replaced by fuzzer bytes: the rest survives unchanged",
            seedFolders: [],
            generatedSeeds: { OneBadWidget.seeds(pages: analysed) },
            check: { Oracles.oneBadWidget($0, pages: analysed) })
        target.mutator = EnvelopeMutator(format: .oneBadWidget, typeNames: Oracles.registry.typeNames, pages: analysed.map(\.bytes))
        return target
    }
}

extension Oracles {
    /// The one-bad-widget oracle: one widget of a valid page replaced by fuzzer bytes never
    /// fails the page nor touches another widget. `pages`: flow-core's own (`FuzzPages.all`,
    /// analysed: `OneBadWidget.pages` of FlowFuzzTargets) or a host's
    /// (``OneBadWidget/basePage(source:text:bareRoot:)``); `registry`: the host's, with or
    /// without the starter types, or nil for the starter types (then each page caches its
    /// baselines).
    ///
    /// Input (see ``OneBadWidget/Input``): byte 0 picks the page of `pages` (low
    /// four bits), the placeholders option (bit 4) and whether the spliced document also goes
    /// through the ``page(_:options:)`` oracle (bit 5); bytes 1-2 (little endian) pick a slot
    /// of that page: one top-level widget element (header, section header, section body or
    /// footer), one member value of such an element, or a missing envelope member to insert;
    /// the rest is the replacement JSON text, spliced into the page text in the slot's place.
    ///
    /// Nothing is checked unless the replacement alone is one JSON value (FlowJSON's scan:
    /// then the splice keeps every other byte of the page where it was, and cannot, say, close
    /// the widget array and open a new `sections` key) and the spliced document scans (it
    /// can cross the depth limit, or start the replacement with a byte order mark, which is
    /// only skipped at the document's start).
    ///
    /// What is checked, against the *baseline*: the same page with the whole element replaced
    /// by a marker widget (of a type and with an id no page uses, the type registered on a
    /// copy of the registry for the baseline alone, so any registry will do), decoded with the
    /// same options, the marker then taken out. The marker claims an id that collides with
    /// nothing, so the baseline is the page as if the element claimed nothing and showed
    /// nothing. Let W be the widget the replaced element decodes to, if any:
    /// 1. the spliced document decodes (never a whole-document failure);
    /// 2. W, when present, stands where the marker stood (same region, same position in
    ///    claiming order); taking it out leaves exactly as many widgets as the baseline, each
    ///    in the same region, in the same order, and equal to its baseline counterpart in
    ///    everything but possibly its id (type, layout, data, actions, tracking, content);
    /// 3. an id differs from the baseline's only when W exists and both ids belong to W's
    ///    family: strip every trailing `#k` (k ≥ 2, written canonically) from W's id and from
    ///    both ids and get the same root. Why this is exact: a claim only ever blocks a
    ///    request `r` when the name claimed is `r` or `r#k`, and a renamed widget gets `r#k`;
    ///    so W's claim, and every rename it sets off in turn, stays among names with W's
    ///    root. Any other id change is a failure, as is any change when W is absent
    ///    (skipped widgets claim nothing);
    /// 4. every widget id and section id of the page is present and unique;
    /// 5. nothing else moves: page id, nav, bars' stickiness, section ids and layouts,
    ///    pagination and refresh equal the baseline's, and so do the diagnostics outside the
    ///    replaced element (same kinds, paths and types, in order), `duplicate_id` aside
    ///    (those follow the ids, item 3).
    public static func oneBadWidget(_ input: [UInt8], pages: [OneBadWidget.BasePage], registry: WidgetRegistry? = nil) -> [String] {
        guard let parsed = OneBadWidget.Input(input, pageCount: pages.count) else { return [] }
        return OneBadWidget.check(parsed, pages: pages, registry: registry)
    }
}

/// The machinery of ``Oracles/oneBadWidget(_:pages:registry:)``: the pages' slots, the splice, the
/// baselines (computed once per page, element and option, then cached) and the comparison.
public enum OneBadWidget {
    /// A decoded fuzz input.
    public struct Input: Sendable {
        public var page: Int
        public var slot: Int
        public var placeholders: Bool
        public var alsoPageOracle: Bool
        public var replacement: [UInt8]

        public init(page: Int, slot: Int, placeholders: Bool = false, alsoPageOracle: Bool = false, replacement: [UInt8]) {
            self.page = page
            self.slot = slot
            self.placeholders = placeholders
            self.alsoPageOracle = alsoPageOracle
            self.replacement = replacement
        }

        /// Nil for inputs shorter than three bytes, or naming a page past the first
        /// `pageCount`.
        public init?(_ bytes: [UInt8], pageCount: Int) {
            guard bytes.count >= 3 else { return nil }
            page = Int(bytes[0] & 0x0F)
            guard page < pageCount else { return nil }
            placeholders = bytes[0] & 0x10 != 0
            alsoPageOracle = bytes[0] & 0x20 != 0
            slot = Int(bytes[1]) | Int(bytes[2]) << 8
            replacement = Array(bytes[3...])
        }

        /// The fuzz input bytes.
        public var bytes: [UInt8] {
            [UInt8(page & 0x0F) | (placeholders ? 0x10 : 0) | (alsoPageOracle ? 0x20 : 0),
             UInt8(slot & 0xFF), UInt8((slot >> 8) & 0xFF)] + replacement
        }
    }

    /// Where a top-level widget lives.
    public enum Region: Hashable, Sendable, CustomStringConvertible {
        case header
        /// The header of the `n`th section *of the decoded page* (sections that are not
        /// objects are dropped, so this can differ from the document index).
        case sectionHeader(Int)
        case sectionBody(Int)
        case footer

        public var description: String {
            switch self {
            case .header: "header"
            case .sectionHeader(let n): "sections[\(n)].header"
            case .sectionBody(let n): "sections[\(n)].widgets"
            case .footer: "footer"
            }
        }
    }

    /// A top-level widget element of a page document.
    public struct Element: Sendable {
        /// Diagnostic path (`page.sections.2.widgets.4`).
        public var path: String
        public var region: Region
        /// Byte range of the element's value in the page text.
        public var range: Range<Int>
        /// For an object element: each member's key and the byte range of its value.
        public var members: [(key: String, range: Range<Int>)]
        public var isObject: Bool
    }

    /// One thing a fuzz input can replace.
    public enum Slot: Sendable {
        /// The whole element.
        case widget(element: Int)
        /// One member's value (the `member`th, in document order).
        case field(element: Int, member: Int)
        /// An envelope member the element lacks, inserted first in the object.
        case insert(element: Int, key: String)

        public var element: Int {
            switch self {
            case .widget(let e), .field(let e, _), .insert(let e, _): e
            }
        }
    }

    /// A page ready for splicing.
    public struct BasePage: Sendable {
        public var source: String
        public var bytes: [UInt8]
        public var bareRoot: Bool
        public var elements: [Element]
        public var slots: [Slot]
        /// The baselines of the starter types (``OneBadWidget/check(_:pages:registry:)``
        /// with no registry), computed once per element and option.
        let baselines = BaselineCache()

        /// The page text with `slot` replaced by `replacement`.
        public func splice(_ slot: Slot, _ replacement: [UInt8]) -> [UInt8] {
            let e = elements[slot.element]
            switch slot {
            case .widget:
                return Array(bytes[..<e.range.lowerBound]) + replacement + Array(bytes[e.range.upperBound...])
            case .field(_, let m):
                let r = e.members[m].range
                return Array(bytes[..<r.lowerBound]) + replacement + Array(bytes[r.upperBound...])
            case .insert(_, let key):
                let at = e.range.lowerBound + 1  // just inside the `{`
                var inserted = Array("\"\(key)\":".utf8) + replacement
                if !e.members.isEmpty { inserted.append(UInt8(ascii: ",")) }
                return Array(bytes[..<at]) + inserted + Array(bytes[at...])
            }
        }

        /// The text the slot holds now (the identity replacement), or nil for an insertion.
        public func current(_ slot: Slot) -> [UInt8]? {
            let e = elements[slot.element]
            switch slot {
            case .widget: return Array(bytes[e.range])
            case .field(_, let m): return Array(bytes[e.members[m].range])
            case .insert: return nil
            }
        }

        public func options(placeholders: Bool) -> PageDecodingOptions {
            PageDecodingOptions(placeholders: placeholders, bareRoot: bareRoot)
        }
    }

    /// Envelope members a slot may insert when the element lacks them.
    public static let envelopeKeys = ["type", "id", "layout", "data", "actions", "tracking"]

    /// The id of the baseline's marker widget: no page asks for it.
    public static let markerID = "~one-bad-widget marker~"
    /// The marker's type: no page uses it, so only the baseline decodes through ``withMarker(_:)``.
    static let markerType = "~one-bad-widget marker~"
    static let markerText = Array(#"{"type":"~one-bad-widget marker~","id":"~one-bad-widget marker~"}"#.utf8)

    /// The marker's content: anything, or nothing.
    struct Marker: Decodable, Equatable, Sendable {
        init(from decoder: any Decoder) throws {}
    }

    /// `registry` with the marker's type added: what the baseline decodes through, so that the
    /// oracle needs no type of the registry's own (a host's registry may hold only its types).
    public static func withMarker(_ registry: WidgetRegistry) -> WidgetRegistry {
        var marked = registry
        marked.register(Marker.self, as: markerType)
        return marked
    }

    static let markedRegistry = withMarker(Oracles.registry)

    // MARK: Check

    /// Checks `input` against one of `pages`, decoding through `registry` (nil: the starter
    /// types, whose baselines each page caches).
    public static func check(_ input: Input, pages: [BasePage], registry: WidgetRegistry? = nil) -> [String] {
        check(input, pages: pages, registry: registry, marked: registry.map(withMarker))
    }

    /// `marked`: `registry` ``withMarker(_:)``, made once by a caller that checks many inputs;
    /// `baselines`: that caller's cache of the baselines through `marked`, one per page (the
    /// baseline is the page with the marker in the element's place: the same bytes and
    /// registry decode the same way every time, so each is decoded once, and an input costs
    /// the decode of what it changed).
    static func check(_ input: Input, pages: [BasePage], registry: WidgetRegistry?, marked: WidgetRegistry?,
                      baselines: [BaselineCache]? = nil) -> [String] {
        let base = pages[input.page]
        guard !base.slots.isEmpty else { return [] }
        let slot = base.slots[input.slot % base.slots.count]
        let element = base.elements[slot.element]

        // The replacement must be one JSON value on its own, or the splice may change the
        // page's structure around it.
        guard (try? JSONDocument(bytes: input.replacement)) != nil else { return [] }
        let spliced = base.splice(slot, input.replacement)
        let options = base.options(placeholders: input.placeholders)

        var failures: [String] = []
        let decoded: DecodedPage
        do {
            decoded = try PageDecoder(registry: registry ?? Oracles.registry, options: options).decode(spliced)
        } catch {
            if case .invalidJSON(let syntax) = error.reason {
                if case .depthLimitExceeded = syntax.reason { return [] }
                if input.replacement.starts(with: [0xEF, 0xBB, 0xBF]) { return [] }
            }
            return ["\(base.source) \(element.path): the page failed as a whole after replacing \(describe(slot, in: base)): \(error)"]
        }
        let baselinePage = if let marked {
            baseline(of: base, element: slot.element, placeholders: input.placeholders, registry: marked,
                     cache: baselines.flatMap { $0.indices.contains(input.page) ? $0[input.page] : nil })
        } else {
            baseline(of: base, element: slot.element, placeholders: input.placeholders)
        }
        guard let baseline = baselinePage else {
            return ["\(base.source) \(element.path): the baseline page (the element replaced by the marker widget) does not decode"]
        }
        failures += compare(baseline: baseline, spliced: decoded, element: element).map {
            "\(base.source), \(describe(slot, in: base)): \($0)"
        }
        if input.alsoPageOracle {
            failures += Oracles.page(spliced, options: options, registry: registry ?? Oracles.registry).map { "page oracle on the spliced document: \($0)" }
        }
        return failures
    }

    static func describe(_ slot: Slot, in base: BasePage) -> String {
        let e = base.elements[slot.element]
        switch slot {
        case .widget: return "widget \(e.path)"
        case .field(_, let m): return "field \(e.path).\(e.members[m].key)"
        case .insert(_, let key): return "inserted field \(e.path).\(key)"
        }
    }

    /// The baseline decode (starter types) of `base` with element `element` replaced by the
    /// marker, from the page's cache.
    static func baseline(of base: BasePage, element: Int, placeholders: Bool) -> DecodedPage? {
        let key = BaselineKey(element: element, placeholders: placeholders)
        if let cached = base.baselines.value(for: key) { return cached }
        let bytes = base.splice(.widget(element: element), markerText)
        let decoded = try? PageDecoder(registry: markedRegistry, options: base.options(placeholders: placeholders)).decode(bytes)
        base.baselines.store(decoded, for: key)
        return decoded
    }

    /// The same through a host's `registry` (marked), from `cache` when there is one.
    static func baseline(of base: BasePage, element: Int, placeholders: Bool, registry: WidgetRegistry,
                         cache: BaselineCache?) -> DecodedPage? {
        let key = BaselineKey(element: element, placeholders: placeholders)
        if let cache, let cached = cache.value(for: key) { return cached }
        let decoded = try? PageDecoder(registry: registry, options: base.options(placeholders: placeholders))
            .decode(base.splice(.widget(element: element), markerText))
        cache?.store(decoded, for: key)
        return decoded
    }

    struct BaselineKey: Hashable {
        var element: Int
        var placeholders: Bool
    }

    final class BaselineCache: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [BaselineKey: DecodedPage?] = [:]

        func value(for key: BaselineKey) -> DecodedPage?? {
            lock.lock()
            defer { lock.unlock() }
            return entries[key]
        }

        func store(_ value: DecodedPage?, for key: BaselineKey) {
            lock.lock()
            defer { lock.unlock() }
            entries[key] = value
        }
    }

    /// Items 2-5 of the oracle's contract (see ``Oracles/oneBadWidget(_:pages:registry:)``).
    public static func compare(baseline: DecodedPage, spliced: DecodedPage, element: Element) -> [String] {
        var failures: [String] = []
        let b = flatten(baseline.page)
        let n = flatten(spliced.page)

        // The marker, where the element stood.
        let markers = b.indices.filter { b[$0].widget.id == markerID }
        guard markers.count == 1, let m = markers.first, b[m].region == element.region else {
            return ["the baseline does not hold exactly one marker widget in \(element.region) (found \(markers.count))"]
        }
        var others = b
        others.remove(at: m)

        var survivors = n
        var replaced: Widget?
        if n.count == b.count {
            guard n[m].region == element.region else {
                return ["the page holds as many widgets as the baseline, but the one at the replaced element's position "
                        + "(\(m)) is in \(n[m].region), not \(element.region)"]
            }
            replaced = survivors.remove(at: m).widget
        } else if n.count != b.count - 1 {
            return ["the page holds \(n.count) widgets; the baseline, marker included, \(b.count): "
                    + "another widget appeared or vanished"]
        }

        let family = replaced.map { root($0.id) }
        for (i, (x, y)) in zip(others, survivors).enumerated() {
            if x.region != y.region {
                failures.append("widget \(i) of the others (\(x.widget.id)) moved from \(x.region) to \(y.region)")
                continue
            }
            var a = x.widget, c = y.widget
            if a.id != c.id {
                if family == nil || root(a.id) != family || root(c.id) != family {
                    failures.append("widget \(x.widget.id) in \(x.region) became \(y.widget.id)"
                                    + (replaced.map { " (the replacement is \($0.id))" } ?? " (the replacement shows no widget)"))
                }
            }
            a.id = ""
            c.id = ""
            if a != c { failures.append("widget \(x.widget.id) in \(x.region) changed beyond its id") }
        }
        failures += Oracles.identity(spliced.page)

        // Nothing else moves.
        let p = baseline.page, q = spliced.page
        if p.id != q.id { failures.append("page id \(p.id) became \(q.id)") }
        if p.nav != q.nav { failures.append("the nav changed") }
        if p.pagination != q.pagination { failures.append("pagination changed") }
        if p.refresh != q.refresh { failures.append("refresh changed") }
        if (p.header == nil) != (q.header == nil) || p.header?.sticky != q.header?.sticky { failures.append("the header bar changed") }
        if (p.footer == nil) != (q.footer == nil) || p.footer?.sticky != q.footer?.sticky { failures.append("the footer bar changed") }
        if p.sections.map(\.id) != q.sections.map(\.id) {
            failures.append("section ids changed: \(p.sections.map(\.id)) to \(q.sections.map(\.id))")
        } else if p.sections.map(\.layout) != q.sections.map(\.layout) {
            failures.append("a section layout changed")
        }

        func outside(_ d: [Diagnostic]) -> [Diagnostic.Key] {
            d.filter { $0.kind != .duplicateID && $0.path != element.path && !$0.path.hasPrefix(element.path + ".") }.map(\.key)
        }
        let before = outside(baseline.diagnostics), after = outside(spliced.diagnostics)
        if before != after {
            failures.append("diagnostics outside the replaced element changed: \(before) to \(after)")
        }
        return failures
    }

    /// Widgets in claiming order with their regions.
    static func flatten(_ page: Page) -> [(region: Region, widget: Widget)] {
        var out: [(region: Region, widget: Widget)] = []
        for w in page.header?.widgets ?? [] { out.append((.header, w)) }
        for (k, s) in page.sections.enumerated() {
            if let h = s.header { out.append((.sectionHeader(k), h)) }
            for w in s.widgets { out.append((.sectionBody(k), w)) }
        }
        for w in page.footer?.widgets ?? [] { out.append((.footer, w)) }
        return out
    }

    /// `id` with every trailing `#k` (k ≥ 2, canonical decimal) stripped: the names a
    /// request can be renamed to share the request's root.
    public static func root(_ id: String) -> String {
        var s = Substring(id)
        while let hash = s.lastIndex(of: "#") {
            let digits = s[s.index(after: hash)...]
            guard let first = digits.first, first != "0", digits.count <= 18,
                  digits.allSatisfy({ $0 >= "0" && $0 <= "9" }), let k = Int(digits), k >= 2 else { break }
            s = s[..<hash]
        }
        return String(s)
    }

    // MARK: Pages

    /// A host's page, ready for ``Oracles/oneBadWidget(_:pages:registry:)``.
    public static func basePage(source: String, text: String, bareRoot: Bool = false) -> BasePage {
        analyse(FuzzPages.Page(source: source, bareRoot: bareRoot, text: text))
    }

    /// Finds the elements and slots of a page.
    static func analyse(_ page: FuzzPages.Page) -> BasePage {
        let bytes = Array(page.text.utf8)
        var elements: [Element] = []
        if let document = try? JSONDocument(bytes: bytes) {
            document.withView { view in
                var pageIndex: Int? = 0
                if !page.bareRoot { pageIndex = view.kind(0) == .object ? view.member(0, "page") : nil }
                guard let p = pageIndex, view.kind(p) == .object else { return }

                func element(_ e: Int, path: String, region: Region) {
                    let start = view.kind(e) == .string ? view.offset(e) - 1 : view.offset(e)
                    let end = valueEnd(bytes, from: start)
                    var members: [(key: String, range: Range<Int>)] = []
                    if view.kind(e) == .object {
                        view.forEachMember(e) { k, v in
                            let s = view.kind(v) == .string ? view.offset(v) - 1 : view.offset(v)
                            members.append(((try? view.string(k)) ?? "", s..<valueEnd(bytes, from: s)))
                            return true
                        }
                    }
                    elements.append(Element(path: path, region: region, range: start..<end, members: members,
                                            isObject: view.kind(e) == .object))
                }
                func list(_ bar: Int?, prefix: String, region: Region) {
                    guard let bar, view.kind(bar) == .object, let w = view.member(bar, "widgets"), view.kind(w) == .array else { return }
                    var i = 0
                    view.forEachElement(w) { e in
                        element(e, path: "\(prefix).\(i)", region: region)
                        i += 1
                        return true
                    }
                }

                list(view.member(p, "header"), prefix: "page.header.widgets", region: .header)
                if let sections = view.member(p, "sections"), view.kind(sections) == .array {
                    var j = 0, kept = 0
                    view.forEachElement(sections) { s in
                        defer { j += 1 }
                        guard view.kind(s) == .object else { return true }
                        if let h = view.member(s, "header") { element(h, path: "page.sections.\(j).header", region: .sectionHeader(kept)) }
                        list(s, prefix: "page.sections.\(j).widgets", region: .sectionBody(kept))
                        kept += 1
                        return true
                    }
                }
                list(view.member(p, "footer"), prefix: "page.footer.widgets", region: .footer)
            }
        }
        // Claiming order: header, then per section its header and widgets, then footer; the
        // analysis above visits in that order already.
        var slots: [Slot] = []
        for (n, e) in elements.enumerated() {
            slots.append(.widget(element: n))
            guard e.isObject else { continue }
            for m in e.members.indices { slots.append(.field(element: n, member: m)) }
            for key in envelopeKeys where !e.members.contains(where: { $0.key == key }) {
                slots.append(.insert(element: n, key: key))
            }
        }
        return BasePage(source: page.source, bytes: bytes, bareRoot: page.bareRoot, elements: elements, slots: slots)
    }

    /// The offset just past the JSON value starting at `start` in valid JSON text.
    static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var i = start
        var depth = 0
        var inString = false
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                if b == UInt8(ascii: "\\") { i += 2; continue }
                if b == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return i + 1 }
                }
                i += 1
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return i }  // a scalar ends at its container's closer
                depth -= 1
                if depth == 0 { return i + 1 }
            case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                if depth == 0 { return i }
            default: break
            }
            i += 1
        }
        return i
    }

    // MARK: Seeds

    /// Structure-aware seeds: every slot of every page once, holding what it holds now (or,
    /// for an insertion, a plausible value), with the option bits varied.
    public static func seeds(pages: [BasePage]) -> [(name: String, bytes: [UInt8])] {
        let inserted: [String: String] = [
            "type": #""banner""#, "id": #""x""#, "layout": #"{"padding":{"top":4},"corner_radius":8}"#,
            "data": "{}", "actions": #"{"tap":{"type":"toast","message":"hi"}}"#, "tracking": #"{"impression_id":"i"}"#,
        ]
        var out: [(name: String, bytes: [UInt8])] = []
        for (p, base) in pages.enumerated() {
            for (s, slot) in base.slots.enumerated() {
                let text = base.current(slot) ?? Array((inserted[slotKey(slot)] ?? "null").utf8)
                let options = s % 4  // vary placeholders and the page-oracle bit
                let input = Input(page: p, slot: s, placeholders: options & 1 != 0, alsoPageOracle: options & 2 != 0,
                                  replacement: text)
                out.append(("obw_p\(p)_s\(s)", input.bytes))
            }
        }
        return out
    }

    static func slotKey(_ slot: Slot) -> String {
        if case .insert(_, let key) = slot { return key }
        return ""
    }
}
