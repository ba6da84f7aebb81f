extension Page {
    /// Where the widget with `id` is on the page, with sections named by their index in
    /// ``sections``; nil when no widget has that id.
    ///
    /// Builds the page's id index on first use and keeps it, so later lookups (and later
    /// operations) do not walk the page again.
    ///
    /// - Complexity: O(1) once the index exists; O(widgets) to build it the first time.
    public mutating func location(of id: String) -> WidgetLocation? {
        ensureIndex()
        return lookUp(id)
    }

    /// The widget with `id`, on a page that cannot change (a `let`).
    ///
    /// - Complexity: O(1) when the page's id index exists (after any mutation, merge or
    ///   ``location(of:)`` call on a `var`). Otherwise one walk of the page that compares
    ///   the hash each widget keeps beside its id, O(widgets), and nothing is remembered:
    ///   for many lookups on a fresh page, copy it into a `var` and call ``location(of:)``
    ///   once, which builds the index.
    public func widget(id: String) -> Widget? {
        lookUp(id).map { self[$0] }
    }

    /// The widget at `location`, as ``location(of:)`` gives it. Traps when nothing is there.
    public subscript(location: WidgetLocation) -> Widget {
        switch location {
        case .header(let i): return header!.widgets[i]
        case .sectionHeader(let s): return sections[s].header!
        case .sectionBody(let s, let i): return sections[s].widgets[i]
        case .footer(let i): return footer!.widgets[i]
        }
    }

    /// `id`'s place with section indices: through the index when there is one, else by a
    /// walk in claiming order.
    private func lookUp(_ id: String) -> WidgetLocation? {
        if let index = identity.index {
            switch index.resolve(id, in: self) {
            case .sectionHeader(let ordinal)?: return .sectionHeader(section: index.sectionIndex(ordinal))
            case .sectionBody(let ordinal, let i)?: return .sectionBody(section: index.sectionIndex(ordinal), index: i)
            case let other: return other
            }
        }
        let hash = IDHash.of(id)
        func find(_ widgets: [Widget]) -> Int? { widgets.firstIndex { $0.idHash == hash && $0.id == id } }
        if let i = header.flatMap({ find($0.widgets) }) { return .header(index: i) }
        for (s, section) in sections.enumerated() {
            if let h = section.header, h.idHash == hash, h.id == id { return .sectionHeader(section: s) }
            if let i = find(section.widgets) { return .sectionBody(section: s, index: i) }
        }
        return footer.flatMap { find($0.widgets) }.map { .footer(index: $0) }
    }
}
