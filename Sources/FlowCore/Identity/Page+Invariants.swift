extension Page {
    /// Everything that must hold about a page's identity after any operation, as a list of
    /// what does not (empty: all holds). Tests and the fuzz oracles call it after every step.
    ///
    /// - every widget and section id is non-empty and unique;
    /// - every id on the page is claimed in its namespace;
    /// - when the id index exists, it has one entry per widget and each points at it.
    ///
    /// - Complexity: O(widgets).
    public func identityViolations() -> [String] {
        var problems: [String] = []
        var seen = Set<String>(minimumCapacity: topLevelWidgetCount)
        func visit(_ w: Widget, _ location: WidgetLocation) {
            if w.id.isEmpty { problems.append("a widget at \(location) has an empty id") }
            if !seen.insert(w.id).inserted { problems.append("widget id \"\(w.id)\" appears twice") }
            if !identity.widgets.isTaken(w.id) { problems.append("widget id \"\(w.id)\" is on the page but not claimed") }
            if let index = identity.index {
                let expected: WidgetLocation
                switch location {
                case .sectionHeader(let s): expected = .sectionHeader(section: index.ordinal(ofSection: s))
                case .sectionBody(let s, let i): expected = .sectionBody(section: index.ordinal(ofSection: s), index: i)
                default: expected = location
                }
                // Recorded list positions are upper bounds (see LocationIndex); resolving
                // must land exactly on the widget.
                let resolved = index.resolve(w.id, in: self)
                if resolved != expected { problems.append("index resolves \"\(w.id)\" to \(String(describing: resolved)), the page has it at \(expected)") }
                if !index.bounds(index.locations[w.id], expected) {
                    problems.append("index records \"\(w.id)\" at \(String(describing: index.locations[w.id])), which does not bound \(expected)")
                }
            }
        }
        for (i, w) in (header?.widgets ?? []).enumerated() { visit(w, .header(index: i)) }
        var sectionIDs = Set<String>()
        for (s, section) in sections.enumerated() {
            if section.id.isEmpty { problems.append("section \(s) has an empty id") }
            if !sectionIDs.insert(section.id).inserted { problems.append("section id \"\(section.id)\" appears twice") }
            if !identity.sections.isTaken(section.id) { problems.append("section id \"\(section.id)\" is not claimed") }
            if let h = section.header { visit(h, .sectionHeader(section: s)) }
            for (i, w) in section.widgets.enumerated() { visit(w, .sectionBody(section: s, index: i)) }
        }
        for (i, w) in (footer?.widgets ?? []).enumerated() { visit(w, .footer(index: i)) }
        if let index = identity.index, index.locations.count != seen.count {
            problems.append("index holds \(index.locations.count) ids for \(seen.count) widgets")
        }
        return problems
    }

    /// Builds the id index if no operation has needed it yet.
    mutating func ensureIndex() {
        if identity.index == nil { identity.index = LocationIndex(self) }
    }
}
