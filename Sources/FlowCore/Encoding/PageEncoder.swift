import FlowJSON

/// Writes a page back as compact JSON: `{"page": …}`, or the bare page.
///
/// `data`, action objects, tracking and the postback are written exactly as received
/// (numbers unchanged); the typed envelope is written in its canonical form with every id
/// resolved, so decoding the output gives the same page, and encoding that again gives the
/// same bytes (normalizing twice equals normalizing once).
public enum PageEncoder {
    public static func encode(_ page: Page, bareRoot: Bool = false) -> [UInt8] {
        var writer = JSONWriter()
        if bareRoot {
            write(page, to: &writer)
        } else {
            var root = ObjectWriter(&writer)
            root.key("page", &writer)
            write(page, to: &writer)
            root.close(&writer)
        }
        return writer.bytes
    }

    public static func write(_ page: Page, to writer: inout JSONWriter) {
        var o = FieldWriter(Page.fields, &writer)
        o.field(.id, page.id, &writer)
        if let nav = page.nav {
            o.key(.nav, &writer)
            write(nav, to: &writer)
        }
        if let header = page.header {
            o.key(.header, &writer)
            write(header, to: &writer)
        }
        o.key(.sections, &writer)
        writer.writeByte(UInt8(ascii: "["))
        for (i, s) in page.sections.enumerated() {
            if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
            write(s, to: &writer)
        }
        writer.writeByte(UInt8(ascii: "]"))
        if let footer = page.footer {
            o.key(.footer, &writer)
            write(footer, to: &writer)
        }
        if let pagination = page.pagination {
            o.key(.pagination, &writer)
            var p = FieldWriter(Pagination.fields, &writer)
            p.field(.hasMore, pagination.hasMore, &writer)
            p.field(.postback, pagination.postback, &writer)
            p.close(&writer)
        }
        if let refresh = page.refresh {
            o.key(.refresh, &writer)
            var r = FieldWriter(RefreshConfig.fields, &writer)
            r.field(.pullToRefresh, refresh.pullToRefresh, &writer)
            r.close(&writer)
        }
        o.close(&writer)
    }

    static func write(_ nav: NavBar, to writer: inout JSONWriter) {
        var o = FieldWriter(NavBar.fields, &writer)
        o.field(.title, nav.title, &writer)
        o.field(.subtitle, nav.subtitle, &writer)
        o.field(.backgroundColor, nav.backgroundColor, &writer)
        o.field(.leftButton, nav.leftButton, &writer)
        if !nav.rightButtons.isEmpty { o.field(.rightButtons, nav.rightButtons, &writer) }
        o.close(&writer)
    }

    static func write(_ bar: PageBar, to writer: inout JSONWriter) {
        var o = FieldWriter(PageBar.fields, &writer)
        o.field(.sticky, bar.sticky, &writer)
        o.key(.widgets, &writer)
        WidgetList(bar.widgets).write(to: &writer)
        o.close(&writer)
    }

    static func write(_ section: Section, to writer: inout JSONWriter) {
        var o = FieldWriter(Section.fields, &writer)
        o.field(.id, section.id, &writer)
        if section.layout != .default { o.field(.layout, section.layout, &writer) }
        if let header = section.header {
            o.key(.header, &writer)
            write(header, to: &writer)
        }
        o.key(.widgets, &writer)
        WidgetList(section.widgets).write(to: &writer)
        o.close(&writer)
    }

    public static func write(_ widget: Widget, to writer: inout JSONWriter) {
        var o = FieldWriter(Widget.fields, &writer)
        o.field(.type, widget.type, &writer)
        o.field(.id, widget.id, &writer)
        if !widget.layout.isDefault { o.field(.layout, widget.layout, &writer) }
        o.field(.data, widget.data, &writer)
        if !widget.actions.isEmpty {
            o.key(.actions, &writer)
            var a = ObjectWriter(&writer)
            for event in widget.actions {
                a.dynamicKey(event.name, &writer)
                event.action.write(to: &writer)
            }
            a.close(&writer)
        }
        o.field(.tracking, widget.tracking, &writer)
        o.close(&writer)
    }
}
