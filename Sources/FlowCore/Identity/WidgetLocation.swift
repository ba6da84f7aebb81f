/// Where a widget lives on a page: a list (header, a section's header or body, footer) and
/// its place in it.
///
/// In what ``Page/location(of:)`` returns, `section` is an index into ``Page/sections``.
/// Inside the id index it is an ordinal that never changes while the section is on the
/// page (its index is `ordinal - sectionOrdinalBase`), so prepending sections rewrites no
/// entry.
public enum WidgetLocation: Hashable, Sendable {
    case header(index: Int)
    case sectionHeader(section: Int)
    case sectionBody(section: Int, index: Int)
    case footer(index: Int)
}

/// Id to location for every widget on the page: what makes replacing or removing one
/// widget cost the same whatever the number of sections. Built on first use and kept
/// current by every operation after that.
///
/// A recorded position within a list (header, footer, a section's body) is an upper bound:
/// removing a widget does not always rewrite the entries of the widgets after it (that
/// would hash every following id, each a cold cache line on a large page). No operation
/// inserts into a list, so a widget only ever moves towards the front of its list;
/// ``resolve(_:in:)`` finds it with a backward scan comparing the id hashes widgets keep
/// beside their ids. The scan is short by construction: once a list has lost more than
/// ``maximumSlack`` widgets since its entries were last written, they are written again.
package struct LocationIndex: Sendable {
    var locations: [String: WidgetLocation] = [:]
    /// The ordinal of section 0.
    var sectionOrdinalBase = 0
    /// Per list, the widgets removed from it since its entries were written: how far a
    /// recorded position may lie past the widget's.
    private var slack: [PendingChanges.List: Int] = [:]

    /// How far recorded positions may drift before a list's entries are written again: a
    /// resolve scans at most this far, and rewriting a list of n widgets happens at most
    /// once per this many removals from it.
    static let maximumSlack = 16

    /// Indexes every widget of `page`.
    ///
    /// - Complexity: O(widgets).
    init(_ page: Page) {
        locations.reserveCapacity(page.topLevelWidgetCount)
        for (i, w) in (page.header?.widgets ?? []).enumerated() { locations[w.id] = .header(index: i) }
        for (s, section) in page.sections.enumerated() {
            if let h = section.header { locations[h.id] = .sectionHeader(section: s) }
            for (i, w) in section.widgets.enumerated() { locations[w.id] = .sectionBody(section: s, index: i) }
        }
        for (i, w) in (page.footer?.widgets ?? []).enumerated() { locations[w.id] = .footer(index: i) }
    }

    func sectionIndex(_ ordinal: Int) -> Int { ordinal - sectionOrdinalBase }

    func ordinal(ofSection index: Int) -> Int { index + sectionOrdinalBase }

    /// Records the widgets of section `index` (a section just brought in).
    mutating func add(_ section: Section, at index: Int) {
        let ordinal = ordinal(ofSection: index)
        if let h = section.header { locations[h.id] = .sectionHeader(section: ordinal) }
        for (i, w) in section.widgets.enumerated() { locations[w.id] = .sectionBody(section: ordinal, index: i) }
    }

    /// Whether `recorded` is a sound entry for a widget at `actual`: the same list, at or
    /// after its place.
    func bounds(_ recorded: WidgetLocation?, _ actual: WidgetLocation) -> Bool {
        switch (recorded, actual) {
        case (.header(let r)?, .header(let a)), (.footer(let r)?, .footer(let a)): r >= a
        case (.sectionBody(let rs, let r)?, .sectionBody(let s, let a)): rs == s && r >= a
        case (.sectionHeader(let rs)?, .sectionHeader(let s)): rs == s
        default: false
        }
    }

    /// Where the widget with `id` is now on `page`, or nil when no widget has that id.
    ///
    /// - Complexity: O(1) to find the list; O(widgets removed before it in its list since
    ///   it was recorded) to find its place.
    ///
    /// While a response applies, `pending` holds the slots it removed (still in their lists,
    /// skipped here) and the sections it prepended: see ``PendingChanges``.
    func resolve(_ id: String, in page: Page, pending: PendingChanges? = nil) -> WidgetLocation? {
        guard let recorded = locations[id] else { return nil }
        let hash = IDHash.of(id)
        func place(in list: [Widget], below bound: Int, _ key: PendingChanges.List) -> Int? {
            var j = min(bound, list.count - 1)
            while j >= 0 {
                if list[j].idHash == hash && list[j].id == id && !(pending?.isRemoved(key, slot: j) ?? false) { return j }
                j -= 1
            }
            return nil
        }
        switch recorded {
        case .header(let i):
            return page.header.flatMap { place(in: $0.widgets, below: i, .header) }.map { .header(index: $0) }
        case .footer(let i):
            return page.footer.flatMap { place(in: $0.widgets, below: i, .footer) }.map { .footer(index: $0) }
        case .sectionHeader:
            return recorded
        case .sectionBody(let ordinal, let i):
            let widgets = pending.map { $0.section(at: sectionIndex(ordinal), in: page).widgets } ?? page.sections[sectionIndex(ordinal)].widgets
            return place(in: widgets, below: i, .section(ordinal: ordinal))
                .map { .sectionBody(section: ordinal, index: $0) }
        }
    }

    /// Notes that `removed` widgets left `list` (already compacted on `page`); past
    /// ``maximumSlack``, writes the entries of the list's widgets again.
    mutating func settle(_ list: PendingChanges.List, removed: Int, in page: Page) {
        let drift = slack[list, default: 0] + removed
        guard drift > Self.maximumSlack else { return slack[list] = drift }
        slack[list] = nil
        switch list {
        case .header: for (i, w) in (page.header?.widgets ?? []).enumerated() { locations[w.id] = .header(index: i) }
        case .footer: for (i, w) in (page.footer?.widgets ?? []).enumerated() { locations[w.id] = .footer(index: i) }
        case .section(let ordinal):
            for (i, w) in page.sections[sectionIndex(ordinal)].widgets.enumerated() { locations[w.id] = .sectionBody(section: ordinal, index: i) }
        }
    }
}
