// The JSON keys of the page envelope, one table per model: `PageSchema` decodes through
// these tables and `PageEncoder` writes through them (``FieldWriter``), so a key is spelled
// once and the order the encoder writes is the order declared here.

extension Page {
    enum Field: Int, CaseIterable { case id, nav, header, sections, footer, pagination, refresh }
    static let fields = FieldTable<Field>(["id", "nav", "header", "sections", "footer", "pagination", "refresh"])
}

extension Sheet {
    enum Field: Int, CaseIterable { case id, header, sections, footer, config }
    static let fields = FieldTable<Field>(["id", "header", "sections", "footer", "config"])
}

extension NavBar {
    enum Field: Int, CaseIterable { case title, subtitle, backgroundColor, leftButton, rightButtons }
    static let fields = FieldTable<Field>(["title", "subtitle", "bg_color", "left_button", "right_buttons"])
}

extension PageBar {
    enum Field: Int, CaseIterable { case sticky, widgets }
    static let fields = FieldTable<Field>(["sticky", "widgets"])
}

extension Section {
    enum Field: Int, CaseIterable { case id, layout, header, widgets }
    static let fields = FieldTable<Field>(["id", "layout", "header", "widgets"])
}

extension Widget {
    enum Field: Int, CaseIterable { case type, id, layout, data, actions, tracking }
    static let fields = FieldTable<Field>(["type", "id", "layout", "data", "actions", "tracking"])
}

extension Pagination {
    enum Field: Int, CaseIterable { case hasMore, postback }
    static let fields = FieldTable<Field>(["has_more", "postback"])
}

extension RefreshConfig {
    enum Field: Int, CaseIterable { case pullToRefresh }
    static let fields = FieldTable<Field>(["pull_to_refresh"])
}

extension SheetConfig {
    enum Field: Int, CaseIterable { case grabber, dismissible, cornerRadius, detents }
    static let fields = FieldTable<Field>(["grabber", "dismissible", "corner_radius", "detents"])
}
