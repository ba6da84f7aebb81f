/// A decoded page: nav, sticky bars, sections of widgets, pagination and refresh
/// (<doc:PageContract#The-document>).
///
/// Every widget id is present and unique, and so is every section id (their own
/// namespace), after decode and after every operation on the page. The bookkeeping that
/// keeps them so (`IdentityLedger`) travels with the page but is not part of its
/// equality: two pages are equal when they show the same thing.
public struct Page: Sendable, Equatable, Identifiable {
    public var id: String
    public var nav: NavBar?
    public var header: PageBar?
    public var sections: [Section]
    public var footer: PageBar?
    public var pagination: Pagination?
    public var refresh: RefreshConfig?
    /// Claimed ids, generated names, and where each widget lives.
    package internal(set) var identity: IdentityLedger

    public init(id: String, nav: NavBar? = nil, header: PageBar? = nil, sections: [Section] = [],
                footer: PageBar? = nil, pagination: Pagination? = nil, refresh: RefreshConfig? = nil) {
        self.id = id
        self.nav = nav
        self.header = header
        self.sections = sections
        self.footer = footer
        self.pagination = pagination
        self.refresh = refresh
        self.identity = IdentityLedger()
        var ledger = IdentityLedger()
        ledger.rebuild(for: &self, root: "page")
        self.identity = ledger
    }

    init(uncheckedID id: String, nav: NavBar?, header: PageBar?, sections: [Section], footer: PageBar?,
         pagination: Pagination?, refresh: RefreshConfig?) {
        self.id = id
        self.nav = nav
        self.header = header
        self.sections = sections
        self.footer = footer
        self.pagination = pagination
        self.refresh = refresh
        self.identity = IdentityLedger()
    }

    /// No widget anywhere: header, section headers, section bodies, footer.
    public var isEmpty: Bool { topLevelWidgetCount == 0 }

    /// Widgets in the page's own regions (header, section headers and bodies, footer),
    /// without those nested in them (``widgetCount`` counts those too): what the id ledger
    /// and the location index hold.
    var topLevelWidgetCount: Int {
        var n = (header?.widgets.count ?? 0) + (footer?.widgets.count ?? 0)
        for s in sections { n += s.widgets.count + (s.header == nil ? 0 : 1) }
        return n
    }

    /// Every widget in claiming order: header widgets, then each section's header and
    /// widgets, then footer widgets (not the widgets nested in them: see
    /// ``forEachWidget(_:)``).
    public var allWidgets: [Widget] {
        var result: [Widget] = []
        result.reserveCapacity(topLevelWidgetCount)
        result += header?.widgets ?? []
        for s in sections {
            if let h = s.header { result.append(h) }
            result += s.widgets
        }
        result += footer?.widgets ?? []
        return result
    }

    public static func == (a: Page, b: Page) -> Bool {
        a.id == b.id && a.nav == b.nav && a.header == b.header && a.sections == b.sections && a.footer == b.footer
            && a.pagination == b.pagination && a.refresh == b.refresh
    }
}

/// A bottom sheet, carried inside an `open_bottom_sheet` action: decoded by the same rules
/// as a page, as a document of its own (paths start at `sheet`).
public struct Sheet: Sendable, Equatable, Identifiable {
    public var id: String
    public var header: PageBar?
    public var sections: [Section]
    public var footer: PageBar?
    public var config: SheetConfig?

    public init(id: String, header: PageBar? = nil, sections: [Section] = [], footer: PageBar? = nil, config: SheetConfig? = nil) {
        self.id = id
        self.header = header
        self.sections = sections
        self.footer = footer
        self.config = config
    }
}
