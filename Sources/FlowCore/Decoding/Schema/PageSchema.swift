import FlowJSON

/// The page contract (the document, its sections and widgets, identity, diagnostics),
/// written once, generic over the reader.
///
/// Everything here runs identically on the fast path (``TapeReader``) and the reference
/// path (``FoundationReader``); only the readers differ. Diagnostics are recorded in
/// document order, each at the context's current path: the caller pushes the path
/// component of the value it hands down.
enum PageSchema {
    /// Why a document failed as a whole.
    enum Failure: Error {
        case rootNotObject(found: String)
        case missingPage
        case pageNotObject(found: String)
    }

    // MARK: Document

    static func decodeDocument<R: DocumentReader>(_ root: R, ctx: DecodeContext) throws(Failure) -> Page {
        let page = try pageObject(root, ctx: ctx)
        return ctx.at(.key("page")) { decodePage(page, ctx: ctx) }
    }

    /// The page object of a document: the root's `page`, or the root itself (bare root).
    static func pageObject<R: DocumentReader>(_ root: R, ctx: DecodeContext) throws(Failure) -> R.Object {
        guard let rootObject = root.object() else { throw .rootNotObject(found: root.foundDescription) }
        if ctx.options.bareRoot { return rootObject }
        guard let pageValue = rootObject.present("page") else { throw .missingPage }
        guard let page = pageValue.object() else { throw .pageNotObject(found: pageValue.foundDescription) }
        return page
    }

    /// The page object; the context's path is `page`.
    static func decodePage<O: ObjectReader>(_ o: O, ctx: DecodeContext) -> Page where O.Value: DocumentReader {
        let f = o.fields(Page.fields)
        let id = ownID(f.present(.id), ctx: ctx, positional: "page@page")
        let nav = f.present(.nav).flatMap { v in ctx.at(.key("nav")) { decodeNav(v, ctx: ctx) } }
        let header = f.present(.header).flatMap { v in ctx.at(.key("header")) { decodeBar(v, ctx: ctx, prefix: "page.header.widgets") } }
        let sections = f.present(.sections).map { v in ctx.at(.key("sections")) { decodeSectionList(v, ctx: ctx, base: "page.sections", first: 0) } } ?? []
        let footer = f.present(.footer).flatMap { v in ctx.at(.key("footer")) { decodeBar(v, ctx: ctx, prefix: "page.footer.widgets") } }
        let pagination = f.present(.pagination).flatMap { v in ctx.at(.key("pagination")) { decodePagination(v, ctx: ctx) } }
        let refresh = f.present(.refresh).flatMap { v in ctx.at(.key("refresh")) { decodeRefresh(v, ctx: ctx) } }
        return Page(uncheckedID: id, nav: nav, header: header, sections: sections, footer: footer,
                    pagination: pagination, refresh: refresh)
    }

    /// A sheet object; the context's path is `sheet`.
    static func decodeSheet<O: ObjectReader>(_ o: O, ctx: DecodeContext) -> Sheet where O.Value: DocumentReader {
        let f = o.fields(Sheet.fields)
        let id = ownID(f.present(.id), ctx: ctx, positional: "sheet@sheet")
        let header = f.present(.header).flatMap { v in ctx.at(.key("header")) { decodeBar(v, ctx: ctx, prefix: "sheet.header.widgets") } }
        let sections = f.present(.sections).map { v in ctx.at(.key("sections")) { decodeSectionList(v, ctx: ctx, base: "sheet.sections", first: 0) } } ?? []
        let footer = f.present(.footer).flatMap { v in ctx.at(.key("footer")) { decodeBar(v, ctx: ctx, prefix: "sheet.footer.widgets") } }
        let config = f.present(.config).flatMap { v in ctx.at(.key("config")) { decodeSheetConfig(v, ctx: ctx) } }
        return Sheet(id: id, header: header, sections: sections, footer: footer, config: config)
    }

    /// A page's or sheet's own id (`v`, its `id` member): a non-empty string, else the
    /// positional one.
    static func ownID<R: DocumentReader>(_ v: R?, ctx: DecodeContext, positional: @autoclosure () -> String) -> String {
        guard let v else { return positional() }
        guard let s = v.string() else {
            ctx.record(.invalidField, at: .key("id"), "expected the id to be a string, found \(v.foundDescription); using \"\(positional())\"")
            return positional()
        }
        return s.isEmpty ? positional() : s
    }

    // MARK: Nav, bars, pagination, refresh

    static func decodeNav<R: DocumentReader>(_ r: R, ctx: DecodeContext) -> NavBar? {
        guard let o = r.object() else {
            ctx.record(.invalidField, "expected the nav to be an object, found \(r.foundDescription)")
            return nil
        }
        let f = o.fields(NavBar.fields)
        func part<T: FlowDecodable>(_ field: NavBar.Field, _: T.Type) -> T? {
            guard let v = f.present(field) else { return nil }
            do { return try v.read(T.self) } catch {
                ctx.record(.invalidField, at: .key(NavBar.fields.name(field).description), describe(error))
                return nil
            }
        }
        var nav = NavBar(
            title: part(.title, TextData.self), subtitle: part(.subtitle, TextData.self),
            backgroundColor: part(.backgroundColor, ColorData.self), leftButton: part(.leftButton, ButtonData.self))
        if let v = f.present(.rightButtons) {
            ctx.at(.key("right_buttons")) {
                guard var elements = v.array() else {
                    ctx.record(.invalidField, "expected right_buttons to be an array, found \(v.foundDescription)")
                    return
                }
                var i = 0
                while let e = elements.next() {
                    do { nav.rightButtons.append(try e.read(ButtonData.self)) } catch {
                        ctx.record(.invalidField, at: .index(i), describe(error))
                    }
                    i += 1
                }
            }
        }
        return nav
    }

    /// A header or footer bar; `prefix` positions its widgets (`page.header.widgets`).
    static func decodeBar<R: DocumentReader>(_ r: R, ctx: DecodeContext, prefix: String) -> PageBar? {
        guard let o = r.object() else {
            ctx.record(.invalidField, "expected the bar to be an object, found \(r.foundDescription)")
            return nil
        }
        let f = o.fields(PageBar.fields)
        var bar = PageBar()
        if let v = f.present(.sticky) {
            if let sticky = v.bool() { bar.sticky = sticky } else {
                ctx.record(.invalidField, at: .key("sticky"), "expected sticky to be a bool, found \(v.foundDescription); using true")
            }
        }
        if let v = f.present(.widgets) {
            bar.widgets = ctx.at(.key("widgets")) { decodeWidgetList(v, ctx: ctx, prefix: prefix, namespace: .page) }
        }
        return bar
    }

    static func decodePagination<R: DocumentReader>(_ r: R, ctx: DecodeContext) -> Pagination? {
        guard let o = r.object() else {
            ctx.record(.invalidField, "expected pagination to be an object, found \(r.foundDescription)")
            return nil
        }
        let f = o.fields(Pagination.fields)
        var hasMore = false
        if let v = f.present(.hasMore) {
            guard let b = v.bool() else {
                ctx.record(.invalidField, "expected has_more to be a bool, found \(v.foundDescription); pagination ignored")
                return nil
            }
            hasMore = b
        }
        var postback: RawJSON?
        if let v = f.present(.postback) {
            guard let raw = v.raw() else {
                ctx.record(.invalidField, "the postback holds a string that does not decode; pagination ignored")
                return nil
            }
            postback = raw
        }
        return Pagination(hasMore: hasMore, postback: postback)
    }

    static func decodeRefresh<R: DocumentReader>(_ r: R, ctx: DecodeContext) -> RefreshConfig? {
        guard let o = r.object() else {
            ctx.record(.invalidField, "expected refresh to be an object, found \(r.foundDescription)")
            return nil
        }
        guard let v = o.fields(RefreshConfig.fields).present(.pullToRefresh) else { return RefreshConfig() }
        guard let b = v.bool() else {
            ctx.record(.invalidField, "expected pull_to_refresh to be a bool, found \(v.foundDescription); refresh ignored")
            return nil
        }
        return RefreshConfig(pullToRefresh: b)
    }

    static func decodeSheetConfig<R: DocumentReader>(_ r: R, ctx: DecodeContext) -> SheetConfig? {
        do {
            guard let o = r.object() else { throw ContentError.mismatch(expected: "a config object", found: r) }
            let f = o.fields(SheetConfig.fields)
            var config = SheetConfig(grabber: try f.optional(.grabber), dismissible: try f.optional(.dismissible),
                                     cornerRadius: try f.optional(.cornerRadius))
            if let v = f.present(.detents) {
                guard var elements = v.array() else { throw ContentError.mismatch(expected: "an array", found: v).at(.key("detents")) }
                var detents: [RawJSON] = []
                while let e = elements.next() {
                    guard let raw = e.raw() else { throw ContentError("a detent holds a string that does not decode").at(.key("detents")) }
                    detents.append(raw)
                }
                config.detents = detents
            }
            return config
        } catch {
            ctx.record(.invalidField, describe(error))
            return nil
        }
    }

    // MARK: Sections

    /// The lossy section array; section `j` of it takes position `first + j` under `base`.
    static func decodeSectionList<R: DocumentReader>(_ r: R, ctx: DecodeContext, base: String, first: Int) -> [Section] {
        guard var elements = r.array() else {
            ctx.record(.invalidField, "expected sections to be an array, found \(r.foundDescription)")
            return []
        }
        // A large list on the fast path decodes on several threads (settled at compile time
        // where this is specialized for a reader).
        if let tape = r as? TapeReader, let (sections, count) = decodeSectionsInParallel(tape, ctx: ctx, base: base, first: first) {
            ctx.identity.ledger.sectionPositions = max(ctx.identity.ledger.sectionPositions, first + count)
            return sections
        }
        var sections: [Section] = []
        sections.reserveCapacity(elements.count ?? 0)
        var j = 0
        while let e = elements.next() {
            if let s = decodeSectionElement(e, j, ctx: ctx, base: base, first: first) { sections.append(s) }
            j += 1
        }
        ctx.identity.ledger.sectionPositions = max(ctx.identity.ledger.sectionPositions, first + j)
        return sections
    }

    /// Element `j` of a section list.
    @inline(__always)
    static func decodeSectionElement<R: DocumentReader>(_ e: R, _ j: Int, ctx: DecodeContext, base: String, first: Int) -> Section? {
        let section = ctx.at(.index(j)) { decodeSection(e, ctx: ctx, path: "\(base).\(first + j)") }
        e.finished(ctx: ctx)
        return section
    }

    /// One section at identity path `path` (`page.sections.3`); claims its id.
    static func decodeSection<R: DocumentReader>(_ r: R, ctx: DecodeContext, path: String) -> Section? {
        guard let o = r.object() else {
            ctx.record(.droppedElement, "expected a section object, found \(r.foundDescription)")
            return nil
        }
        let f = o.fields(Section.fields)
        var requested = "section@" + path
        if let v = f.present(.id) {
            if let s = v.string() {
                if !s.isEmpty { requested = s }
            } else {
                ctx.record(.invalidField, at: .key("id"), "expected the section id to be a string, found \(v.foundDescription); using \"\(requested)\"")
            }
        }
        var section = Section(id: requested)
        if ctx.identity.defersClaims {
            ctx.deferClaim(isSection: true)
        } else {
            ctx.identity.ledger.sections.claimID(of: &section, at: ctx.path, record: ctx.record)
        }
        if let v = f.present(.layout) {
            do { section.layout = try v.read(SectionLayout.self) } catch {
                ctx.record(.invalidField, at: .key("layout"), describe(error) + "; using the default layout")
            }
        }
        if let v = f.present(.header) {
            section.header = ctx.at(.key("header")) {
                guard var w = decodeWidget(v, ctx: ctx, position: WidgetPosition(prefix: path + ".header", index: nil)) else { return nil }
                claim(&w, ctx: ctx, namespace: .page)
                return w
            }
        }
        if let v = f.present(.widgets) {
            section.widgets = ctx.at(.key("widgets")) { decodeWidgetList(v, ctx: ctx, prefix: path + ".widgets", namespace: .page) }
        }
        return section
    }

    // MARK: Widgets

    /// A lossy widget array: each element that fails is dropped with a diagnostic, its
    /// siblings live on, and survivors claim their ids in `namespace` in order.
    static func decodeWidgetList<R: DocumentReader>(_ r: R, ctx: DecodeContext, prefix: String, namespace: WidgetNamespace) -> [Widget] {
        guard var elements = r.array() else {
            ctx.record(.invalidField, "expected widgets to be an array, found \(r.foundDescription)")
            return []
        }
        var widgets: [Widget] = []
        widgets.reserveCapacity(elements.count ?? 0)
        var i = 0
        while let e = elements.next() {
            ctx.at(.index(i)) {
                if var w = decodeWidget(e, ctx: ctx, position: WidgetPosition(prefix: prefix, index: i)) {
                    claim(&w, ctx: ctx, namespace: namespace)
                    widgets.append(consume w)
                }
            }
            i += 1
        }
        return widgets
    }

    /// Claims the widget's id in `namespace`; a taken one is renamed, with a `duplicate_id`
    /// at the context's path.
    static func claim(_ w: inout Widget, ctx: DecodeContext, namespace: WidgetNamespace) {
        switch namespace {
        case .page:
            if ctx.identity.defersClaims { return ctx.deferClaim(isSection: false) }
            ctx.identity.ledger.widgets.claimID(of: &w, at: ctx.path, record: ctx.record)
        case .local(let box): box.claims.claimID(of: &w, at: ctx.path, record: ctx.record)
        }
    }

    /// One widget, not yet claimed. Nil when it is dropped or skipped (with its diagnostic).
    static func decodeWidget<R: DocumentReader>(_ r: R, ctx: DecodeContext, position: WidgetPosition) -> Widget? {
        guard let o = r.object() else {
            ctx.record(.droppedElement, "expected a widget object, found \(r.foundDescription)")
            return nil
        }
        let f = o.fields(Widget.fields)
        guard let typeValue = f.present(.type) else {
            ctx.record(.droppedElement, "the widget has no \"type\"")
            return nil
        }
        guard let (type, registered) = typeValue.widgetType(in: ctx.registry) else {
            ctx.record(.droppedElement, "expected the widget type to be a string, found \(typeValue.foundDescription)")
            return nil
        }
        let idValue = f.present(.id)
        let explicitID = idValue?.string()
        func requestedID() -> String {
            if let explicitID, !explicitID.isEmpty { return explicitID }
            return position.positionalID(type: type)
        }

        let dataValue = f.present(.data)
        guard let entry = registered else {
            ctx.record(.unknownType, type: type, "no content type is registered for \"\(type)\"")
            return placeholder(.unknownType, id: requestedID(), type: type, data: dataValue, ctx: ctx)
        }

        // Content first: a widget that is skipped reports only why, so nothing inside it
        // (an accordion's items) may stay recorded if it fails.
        let mark = ctx.diagnosticCount
        let content: WidgetModel
        let data: RawJSON
        do {
            content = try ctx.decodingContent(of: position) {
                try ctx.at(.key("data")) {
                    if let dataValue { try dataValue.decodeContent(entry, ctx: ctx) } else { try r.decodeContentOfEmptyObject(entry) }
                }
            }
            if let dataValue {
                guard let raw = dataValue.raw() else { throw ContentError("data holds a string that does not decode").at(.key("data")) }
                data = raw
            } else {
                data = .emptyObject
            }
        } catch {
            ctx.rollBack(to: mark)
            ctx.record(.malformedPayload, type: type, "data does not decode as \"\(type)\": \(describe(error))")
            return placeholder(.malformedPayload, id: requestedID(), type: type, data: dataValue, ctx: ctx)
        }

        // Optional envelope fields: a bad one costs only itself (beyond the original, which
        // dropped the whole widget).
        if let idValue, explicitID == nil {
            ctx.record(.invalidField, at: .key("id"), type: type,
                       "expected the id to be a string, found \(idValue.foundDescription); using \"\(requestedID())\"")
        }
        var layoutBox: LayoutBox?
        if let v = f.present(.layout) { layoutBox = decodeLayout(v, ctx: ctx, type: type) }
        var actions = WidgetActions()
        if let v = f.present(.actions) {
            ctx.at(.key("actions")) { actions = decodeSharedActions(v, ctx: ctx, type: type) }
        }
        var tracking: RawJSON?
        if let v = f.present(.tracking) {
            tracking = v.raw()
            if tracking == nil { ctx.record(.invalidField, at: .key("tracking"), type: type, "tracking holds a string that does not decode") }
        }
        return Widget(id: requestedID(), type: type, layoutBox: layoutBox, actions: actions, tracking: tracking, data: data,
                      content: .model(content), fingerprint: r.widgetFingerprint())
    }

    /// ``decodeActions(_:ctx:type:)``, or the actions of an earlier widget whose `actions`
    /// object is the same bytes (see `WidgetInterner`).
    static func decodeSharedActions<R: DocumentReader>(_ r: R, ctx: DecodeContext, type: String) -> WidgetActions {
        guard let parts = ctx.sharing.widgetParts, parts.looksForActions(), let text = r.shareableText() else {
            return decodeActions(r, ctx: ctx, type: type)
        }
        return parts.actions(spelled: text, ctx: ctx) { decodeActions(r, ctx: ctx, type: type) }
    }

    /// Event name to action; a bad event is absent with its own diagnostic. The first
    /// occurrence of an event name counts; diagnostics come in event-name order, so both
    /// decode paths record them in the same order.
    ///
    /// - Complexity: O(n log n) in the members (the events are kept sorted by name), with
    ///   first occurrences found through a hash set once the object is larger than a few
    ///   members: a widget with 100,000 events, or one event sent 100,000 times, costs no
    ///   more than its size.
    static func decodeActions<R: DocumentReader>(_ r: R, ctx: DecodeContext, type: String) -> WidgetActions {
        guard let o = r.object() else {
            ctx.record(.invalidField, type: type, "expected actions to be an object, found \(r.foundDescription)")
            return WidgetActions()
        }
        var failures: [(event: String, message: String)] = []
        var events: [WidgetActions.Event] = []
        events.reserveCapacity(o.memberCount)
        // A widget sends one or two events: the names kept so far are the record of what
        // was seen (nothing to allocate). Past a few members, a set.
        var seen: Set<String>? = o.memberCount > 8 ? Set(minimumCapacity: o.memberCount) : nil
        var absent: [String] = []  // events sent as null: present for the first-occurrence rule
        o.forEachMember { event, v in
            if seen != nil {
                guard seen!.insert(event).inserted else { return }
            } else {
                guard !events.contains(where: { $0.name == event }), !failures.contains(where: { $0.event == event }), !absent.contains(event) else { return }
            }
            guard !v.isNull else {
                if seen == nil { absent.append(event) }
                return
            }
            do { events.append(WidgetActions.Event(name: event, action: try v.read(ActionData.self))) } catch {
                failures.append((event, describe(error)))
            }
        }
        let actions = WidgetActions(uniqueEvents: &events)
        guard !failures.isEmpty else { return actions }
        for failure in failures.sorted(by: { $0.event < $1.event }) {
            ctx.record(.invalidField, at: .key(failure.event), type: type, failure.message)
        }
        return actions
    }

    /// With placeholders on, a stand-in that keeps the id, type and (when it decodes) the
    /// raw data, so writing the page back loses nothing; otherwise nil (skipped).
    /// A widget's layout, shared with the widgets that spell it alike; nil (the default)
    /// when it does not decode, with a diagnostic. Out of line: most widgets have no layout,
    /// and the lookup inlined would grow every widget's decode.
    @inline(never)
    static func decodeLayout<R: DocumentReader>(_ v: R, ctx: DecodeContext, type: String) -> LayoutBox? {
        do {
            return try ctx.sharing.layouts.box(for: v.sourceText(), in: ctx.document) { try v.read(WidgetLayout.self) }
        } catch {
            ctx.record(.invalidField, at: .key("layout"), type: type, describe(error) + "; using the default layout")
            return nil
        }
    }

    static func placeholder<R: DocumentReader>(_ kind: Diagnostic.Kind, id: String, type: String, data: R?, ctx: DecodeContext) -> Widget? {
        guard ctx.options.placeholders else { return nil }
        return Widget(id: id, type: type, data: data?.raw() ?? .emptyObject, content: .placeholder(kind))
    }

    /// A decoding error in words: what was expected and what was found.
    static func describe(_ error: any Error) -> String {
        if let e = error as? ContentError { return e.description }
        if let e = error as? DecodingError {
            func at(_ path: [any CodingKey]) -> String {
                path.isEmpty ? "" : path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") + ": "
            }
            switch e {
            case .keyNotFound(let key, let c): return "\(at(c.codingPath))required field \"\(key.stringValue)\" is missing"
            case .typeMismatch(let type, let c): return "\(at(c.codingPath))expected \(type): \(c.debugDescription)"
            case .valueNotFound(let type, let c): return "\(at(c.codingPath))expected \(type), found null"
            case .dataCorrupted(let c): return "\(at(c.codingPath))\(c.debugDescription)"
            @unknown default: return "\(e)"
            }
        }
        return "\(error)"
    }
}
