/// What keeps a page's ids sound across its life: the widget and section namespaces.
///
/// Decoding claims every id in document order; merging and mutations claim the newcomers'
/// ids after those already on the page, so existing widgets never change id.
public struct IdentityLedger: Sendable {
    public internal(set) var widgets = NameClaims()
    public internal(set) var sections = NameClaims()
    /// Id to location, built by the first operation that needs it (decoding does not pay for it).
    var index: LocationIndex?
    /// Positions the page's section list has taken, dropped sections included: where a next
    /// page's sections start, as they would in the single concatenated document.
    var sectionPositions = 0

    public init() {}

    /// Claims every id of `page` in claiming order, renaming duplicates (for pages built
    /// in code).
    mutating func rebuild(for page: inout Page, root: String) {
        self = IdentityLedger()
        func claim(_ w: inout Widget) { w.id = widgets.claim(w.id.isEmpty ? "\(w.type)@\(root)" : w.id).name }
        if page.header != nil { for i in page.header!.widgets.indices { claim(&page.header!.widgets[i]) } }
        for s in page.sections.indices {
            page.sections[s].id = sections.claim(page.sections[s].id).name
            if page.sections[s].header != nil { claim(&page.sections[s].header!) }
            for w in page.sections[s].widgets.indices { claim(&page.sections[s].widgets[w]) }
        }
        if page.footer != nil { for i in page.footer!.widgets.indices { claim(&page.footer!.widgets[i]) } }
    }
}

extension IdentityLedger {
    /// Claims the given widget and section ids in order, as decoding does: the identity
    /// pass on its own, for measuring it apart from the decode it is part of.
    public static func claiming(widgetIDs: [String], sectionIDs: [String]) -> IdentityLedger {
        var ledger = IdentityLedger()
        ledger.widgets.reserveCapacity(widgetIDs.count)
        for id in widgetIDs { _ = ledger.widgets.claim(id) }
        for id in sectionIDs { _ = ledger.sections.claim(id) }
        return ledger
    }
}
