/// What keeps a page's ids sound across its life: the widget and section namespaces.
///
/// Decoding claims every id in document order; merging and mutations claim the newcomers'
/// ids after those already on the page, so existing widgets never change id.
package struct IdentityLedger: Sendable {
    package internal(set) var widgets = NameClaims()
    package internal(set) var sections = NameClaims()
    /// Id to location, built by the first operation that needs it (decoding does not pay for it).
    var index: LocationIndex?
    /// Positions the page's section list has taken, dropped sections included: where a next
    /// page's sections start, as they would in the single concatenated document.
    var sectionPositions = 0

    package init() {}

    /// Claims every id of `page` in claiming order, renaming duplicates (for pages built
    /// in code, which have no diagnostics to record the renames in).
    mutating func rebuild(for page: inout Page, root: String) {
        self = IdentityLedger()
        func claim(_ w: inout Widget) {
            if w.id.isEmpty { w.id = "\(w.type)@\(root)" }
            widgets.claimID(of: &w, at: root) { _ in }
        }
        if page.header != nil { for i in page.header!.widgets.indices { claim(&page.header!.widgets[i]) } }
        for s in page.sections.indices {
            sections.claimID(of: &page.sections[s], at: root) { _ in }
            if page.sections[s].header != nil { claim(&page.sections[s].header!) }
            for w in page.sections[s].widgets.indices { claim(&page.sections[s].widgets[w]) }
        }
        if page.footer != nil { for i in page.footer!.widgets.indices { claim(&page.footer!.widgets[i]) } }
    }
}

extension IdentityLedger {
    /// Claims the given widget and section ids in order, as decoding does: the identity
    /// pass on its own, for measuring it apart from the decode it is part of.
    package static func claiming(widgetIDs: [String], sectionIDs: [String]) -> IdentityLedger {
        var ledger = IdentityLedger()
        ledger.widgets.reserveCapacity(widgetIDs.count)
        for id in widgetIDs { _ = ledger.widgets.claim(id) }
        for id in sectionIDs { _ = ledger.sections.claim(id) }
        return ledger
    }
}
