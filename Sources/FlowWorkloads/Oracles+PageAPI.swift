import FlowCore
import FlowJSON

extension Oracles {
    /// The API a host reads a decoded page through agrees with the page it describes:
    /// - lookup: every top-level widget is found by its id, on a `let` page (a walk) and
    ///   on a `var` (through the id index its first call builds), at a location that holds
    ///   it; an id no widget has is found nowhere;
    /// - a page built in code from the decoded page's parts is equal to it, ids unchanged
    ///   (they are already unique, so the claims a page built in code makes rename none);
    /// - actions: events distinct and sorted by name, each read back by its name, unchanged
    ///   by removing and re-adding one, and each action's payload decodes (through the tape
    ///   decoder) to the `type` the envelope read;
    /// - sheets: each `open_bottom_sheet` action's sheet decodes with every widget and
    ///   section id present and unique, as a page's are.
    ///
    /// The widgets checked one by one are the first ``apiWidgetLimit`` (the lookups on a
    /// `let` page, a walk each, the first ``walkLookupLimit``): enough for any fuzz input,
    /// and the corpus's large pages stay quick to replay.
    static func pageAPI(_ page: Page, decoder: PageDecoder) -> [String] {
        var failures: [String] = []
        let widgets = page.allWidgets
        var indexed = page
        for (n, w) in widgets.prefix(apiWidgetLimit).enumerated() {
            if n < walkLookupLimit, page.widget(id: w.id) != w {
                failures.append("widget(id: \(w.id)) on a let page does not give the widget with that id")
            }
            guard let location = indexed.location(of: w.id) else {
                failures.append("location(of: \(w.id)) found no widget, though the page holds one with that id")
                continue
            }
            if indexed[location] != w { failures.append("location(of: \(w.id)) is \(location), which holds another widget") }
            if indexed.widget(id: w.id) != w { failures.append("widget(id: \(w.id)) through the id index does not give the widget") }
            failures += actionAPI(w)
        }
        let ids = Set(widgets.map(\.id))
        var absent = "absent"
        while ids.contains(absent) { absent += "~" }
        if page.widget(id: absent) != nil || indexed.location(of: absent) != nil {
            failures.append("an id no widget has (\(absent)) was found")
        }

        let rebuilt = Page(id: page.id, nav: page.nav, header: page.header, sections: page.sections, footer: page.footer,
                           pagination: page.pagination, refresh: page.refresh)
        if rebuilt != page { failures.append("a page built in code from the decoded page's parts differs from it") }

        for w in widgets.prefix(apiWidgetLimit) {
            for event in w.actions where event.action.type == "open_bottom_sheet" {
                guard let sheet = event.action.raw.value["sheet"], sheet.kind == .object,
                      let decoded = decoder.decodeSheet(RawJSON(sheet)) else { continue }
                let ids = decoded.sheet.allWidgetIDs, sectionIDs = decoded.sheet.sections.map(\.id)
                if ids.contains("") || Set(ids).count != ids.count || Set(sectionIDs).count != sectionIDs.count {
                    failures.append("the sheet of \(w.id)'s \(event.name) has an empty or a repeated id: \(ids), sections \(sectionIDs)")
                }
            }
        }
        return failures
    }

    /// See ``pageAPI(_:decoder:)``.
    static let apiWidgetLimit = 512
    static let walkLookupLimit = 32

    private struct ActionType: Decodable { let type: String }

    /// A widget's actions, read through the public API.
    static func actionAPI(_ w: Widget) -> [String] {
        var failures: [String] = []
        let names = w.actions.names
        if zip(names, names.dropFirst()).contains(where: { !($0 < $1) }) {
            failures.append("\(w.id)'s events are not distinct and sorted by name: \(names)")
        }
        for event in w.actions {
            if w.actions[event.name] != event.action {
                failures.append("\(w.id)'s actions[\(event.name)] is not the action of that event")
            }
            switch Result(catching: { try event.action.payload(ActionType.self) }) {
            case .success(let payload) where payload.type != event.action.type:
                failures.append("\(w.id)'s \(event.name) payload decodes type \(payload.type), the envelope read \(event.action.type)")
            case .failure(let error):
                failures.append("\(w.id)'s \(event.name) payload does not decode its own type: \(error)")
            case .success: break
            }
        }
        if let first = w.actions.events.first {
            var actions = w.actions
            actions[first.name] = nil
            if actions[first.name] != nil || actions.count != w.actions.count - 1 {
                failures.append("\(w.id): removing the action for \(first.name) did not remove exactly it")
            }
            actions[first.name] = first.action
            if actions != w.actions { failures.append("\(w.id): re-adding the action for \(first.name) did not restore the actions") }
        }
        return failures
    }

    /// On a page that went through the encoder once (so each widget's element is written as
    /// the encoder writes a widget), the fingerprint the decoder stored is the one a widget
    /// computes from its model once a field is set (which drops the stored one).
    static func fingerprintAgreement(_ normalized: Page) -> [String] {
        var failures: [String] = []
        for w in normalized.allWidgets.prefix(apiWidgetLimit) {
            var edited = w
            edited.tracking = w.tracking
            if edited != w { failures.append("\(w.id): setting a field to its own value changed the widget") }
            if edited.fingerprint != w.fingerprint {
                failures.append("\(w.id): the decoder's fingerprint differs from the one computed from the model")
            }
        }
        return failures
    }
}

private extension Sheet {
    var allWidgetIDs: [String] {
        var ids = (header?.widgets ?? []).map(\.id)
        for s in sections {
            if let h = s.header { ids.append(h.id) }
            ids += s.widgets.map(\.id)
        }
        return ids + (footer?.widgets ?? []).map(\.id)
    }
}
