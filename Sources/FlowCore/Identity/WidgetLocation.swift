/// Where a widget lives on a page, as the id index records it.
///
/// Sections are named by an ordinal that never changes while the section is on the page
/// (its index is `ordinal - sectionOrdinalBase`), so prepending sections costs nothing here.
public enum WidgetLocation: Hashable, Sendable {
    case header(index: Int)
    case sectionHeader(section: Int)
    case sectionBody(section: Int, index: Int)
    case footer(index: Int)
}

/// Id to location for every widget on the page: what makes replacing or removing one
/// widget cost the same whatever the number of sections. Built on first use and kept
/// current by every operation after that.
public struct LocationIndex: Sendable {
    var locations: [String: WidgetLocation] = [:]
    /// The ordinal of section 0.
    var sectionOrdinalBase = 0

    /// Indexes every widget of `page`.
    ///
    /// - Complexity: O(widgets).
    init(_ page: Page) {
        locations.reserveCapacity(page.widgetCount)
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

    /// After removing position `removed` of a list, moves the entries of the widgets after it.
    mutating func shift(_ widgets: ArraySlice<Widget>, from removed: Int, _ make: (Int) -> WidgetLocation) {
        for (offset, w) in widgets.enumerated() { locations[w.id] = make(removed + offset) }
    }
}
