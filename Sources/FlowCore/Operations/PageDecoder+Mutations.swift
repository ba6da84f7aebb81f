import FlowJSON

/// What applying a response did.
public struct MutationOutcome: Sendable {
    /// Recorded while applying, in order (`mutation_target_missing`, and the diagnostics of
    /// the widgets, sections and pages brought in). The response's own come first, in
    /// ``MutationResponse/diagnostics``.
    public var diagnostics: [Diagnostic]
    /// Mutations that took effect.
    public var applied: Int
    /// Mutations that would not apply (unknown, target missing, bad replacement).
    public var failed: Int
    /// Transactional mode only: false when the page was left exactly as it was.
    public var committed: Bool
}

extension PageDecoder {
    /// Applies a response's mutations to `page`, in order, against stable ids.
    ///
    /// - `replace_widget` and `remove_widget` reach a widget wherever it lives (page header,
    ///   a section header, a section body, footer); an id that matches nothing is a
    ///   `mutation_target_missing`. A replacement without an id keeps the id it replaces; a
    ///   replacement that is dropped, unknown or malformed is not applied.
    /// - Newcomers (replacements, brought-in sections) claim ids after the widgets already
    ///   there, which never change id. Appended sections take the next positions;
    ///   prepended ones take `page.sections.0…`.
    /// - `replace_page` decodes its page as a fresh document and starts a new life: a new
    ///   ledger, so generated names may be handed out again.
    /// - With `transactional`, a response in which any mutation would not apply leaves the
    ///   page exactly as it was; every diagnostic is still reported.
    ///
    /// - Complexity: replacing or removing one widget costs O(its list), whatever the
    ///   number of sections (an id index is built once, then kept current).
    public func apply(_ response: MutationResponse, to page: inout Page, transactional: Bool = false) -> MutationOutcome {
        guard transactional else { return applyEach(response, to: &page) }
        var working = page
        var outcome = applyEach(response, to: &working)
        outcome.committed = outcome.failed == 0 && response.isWellFormed
        if outcome.committed { page = working }
        return outcome
    }

    private func applyEach(_ response: MutationResponse, to page: inout Page) -> MutationOutcome {
        let document = response.document
        let ctx = DecodeContext(registry: registry, options: options, document: document, root: DecodePath())
        var outcome = MutationOutcome(diagnostics: [], applied: 0, failed: 0, committed: true)
        var pending = PendingChanges()
        document.withView { view in
            TapeSource.lend(document: document, context: ctx) { source in
                for entry in response.entries {
                    let ok = ctx.at(.key("mutations")) {
                        ctx.at(.index(entry.position)) { apply(entry, source: source, ctx: ctx, page: &page, pending: &pending) }
                    }
                    if ok { outcome.applied += 1 } else { outcome.failed += 1 }
                }
            }
        }
        if !pending.isEmpty { pending.finish(&page) }
        outcome.diagnostics = ctx.diagnostics
        return outcome
    }

    /// One mutation; the context's path is `mutations.I`.
    private func apply(_ entry: MutationResponse.Entry, source: TapeSource, ctx: DecodeContext, page: inout Page, pending: inout PendingChanges) -> Bool {
        page.ensureIndex()
        // The page's ledger moves into the decode so that newcomers claim against it.
        swap(&ctx.identity.ledger, &page.identity)
        defer { swap(&ctx.identity.ledger, &page.identity) }
        switch entry.kind {
        case .replaceWidget:
            return replaceWidget(entry.id!, with: TapeReader(source: source, index: entry.payload!), ctx: ctx, page: &page, pending: &pending)
        case .removeWidget:
            guard let location = ctx.identity.ledger.index!.resolve(entry.id!, in: page, pending: pending) else { return missing(entry.id!, ctx) }
            page.removeWidget(at: location, ledger: &ctx.identity.ledger, pending: &pending)
            return true
        case .appendSections, .prependSections:
            let prepend = entry.kind == .prependSections
            let reader = TapeReader(source: source, index: entry.payload!)
            let first = prepend ? 0 : pending.sectionCount(page)
            let sections = ctx.at(.key("sections")) {
                PageSchema.decodeSectionList(reader, ctx: ctx, base: "page.sections", first: first)
            }
            if prepend {
                pending.prepend(sections)
                ctx.identity.ledger.index!.sectionOrdinalBase -= sections.count
            } else {
                page.sections.append(contentsOf: sections)
            }
            for (j, s) in sections.enumerated() { ctx.identity.ledger.index!.add(s, at: first + j) }
            return true
        case .replacePage:
            guard let object = TapeReader(source: source, index: entry.payload!).object() else { return false }
            // A new life: a fresh ledger, ids as a fresh decode of the page gives them.
            ctx.identity.ledger = IdentityLedger()
            pending = PendingChanges()  // the lists it marked are gone with the old page
            var replacement = ctx.at(.key("page")) { PageSchema.decodePage(object, ctx: ctx) }
            replacement.identity = IdentityLedger()
            page = replacement
            ctx.identity.ledger.index = LocationIndex(page)
            return true
        }
    }

    private func missing(_ id: String, _ ctx: DecodeContext) -> Bool {
        ctx.record(.mutationTargetMissing, "no widget on the page has id \"\(id)\"")
        return false
    }

    private func replaceWidget(_ id: String, with reader: TapeReader, ctx: DecodeContext, page: inout Page, pending: inout PendingChanges) -> Bool {
        guard let location = ctx.identity.ledger.index!.resolve(id, in: page, pending: pending) else { return missing(id, ctx) }
        let path = page.path(of: location, index: ctx.identity.ledger.index!, pending: &pending)
        let decoded: Widget? = ctx.at(.key("widget")) {
            // The replacement stands where the target stood (its nested lists continue that
            // position); without an id it keeps the one it replaces.
            PageSchema.decodeWidget(reader, ctx: ctx, position: WidgetPosition(prefix: path, index: nil))
        }
        guard var widget = decoded, !widget.content.isPlaceholder else { return false }
        let explicit = reader.object()?.fields(Widget.fields).present(.id)?.string().flatMap { $0.isEmpty ? nil : $0 }
        if let explicit, explicit != id {
            ctx.identity.ledger.widgets.release(id)
            // The decoded widget asked for its explicit id; claim it as any newcomer would.
            ctx.identity.ledger.widgets.claimID(of: &widget, at: ctx.at(.key("widget")) { ctx.path }, record: ctx.record)
        } else {
            widget.id = id
        }
        ctx.identity.ledger.index!.locations[id] = nil
        ctx.identity.ledger.index!.locations[widget.id] = location
        page.setWidget(widget, at: location, index: ctx.identity.ledger.index!, pending: &pending)
        return true
    }
}

extension Page {
    /// The dotted path of a location (`page.sections.3.widgets.2`), counting in its list
    /// the widgets that survive the removals pending.
    func path(of location: WidgetLocation, index: LocationIndex, pending: inout PendingChanges) -> String {
        switch location {
        case .header(let i): "page.header.widgets.\(pending.position(in: .header, slot: i))"
        case .footer(let i): "page.footer.widgets.\(pending.position(in: .footer, slot: i))"
        case .sectionHeader(let ordinal): "page.sections.\(index.sectionIndex(ordinal)).header"
        case .sectionBody(let ordinal, let i):
            "page.sections.\(index.sectionIndex(ordinal)).widgets.\(pending.position(in: .section(ordinal: ordinal), slot: i))"
        }
    }

    /// Puts `widget` at `location` (a location from the id index).
    mutating func setWidget(_ widget: Widget, at location: WidgetLocation, index: LocationIndex, pending: inout PendingChanges) {
        switch location {
        case .header(let i): header!.widgets[i] = widget
        case .footer(let i): footer!.widgets[i] = widget
        case .sectionHeader(let ordinal): pending.modifySection(at: index.sectionIndex(ordinal), in: &self) { $0.header = widget }
        case .sectionBody(let ordinal, let i): pending.modifySection(at: index.sectionIndex(ordinal), in: &self) { $0.widgets[i] = widget }
        }
    }

    /// Removes the widget at `location` from the index and the ledger (its id is given
    /// back) and marks its slot in `pending`; a list's marked slots leave it when the
    /// response is done (see ``PendingChanges``). A section header leaves at once.
    mutating func removeWidget(at location: WidgetLocation, ledger: inout IdentityLedger, pending: inout PendingChanges) {
        let removed: Widget
        switch location {
        case .header(let i):
            removed = header!.widgets[i]
            pending.mark(.header, slot: i, slots: header!.widgets.count)
        case .footer(let i):
            removed = footer!.widgets[i]
            pending.mark(.footer, slot: i, slots: footer!.widgets.count)
        case .sectionHeader(let ordinal):
            removed = pending.modifySection(at: ledger.index!.sectionIndex(ordinal), in: &self) { section in
                defer { section.header = nil }
                return section.header!
            }
        case .sectionBody(let ordinal, let i):
            let widgets = pending.section(at: ledger.index!.sectionIndex(ordinal), in: self).widgets
            removed = widgets[i]
            pending.mark(.section(ordinal: ordinal), slot: i, slots: widgets.count)
        }
        ledger.index!.locations[removed.id] = nil
        ledger.widgets.release(removed.id)
    }
}
