import FlowCore
import FlowJSON
import FlowWidgets
import Foundation

extension Oracles {
    /// The API a host reads a decoded page through agrees with the page it describes:
    /// - lookup: every top-level widget is found by its id, on a `let` page (a walk) and
    ///   on a `var` (through the id index its first call builds), at a location that holds
    ///   it; an id no widget has is found nowhere;
    /// - a page built in code from the decoded page's parts is equal to it, ids unchanged
    ///   (they are already unique, so the claims a page built in code makes rename none);
    /// - actions: events distinct and sorted by name, each read back by its name, unchanged
    ///   by removing and re-adding one, each action's payload decodes (through the tape
    ///   decoder) to the `type` the envelope read, and each equals the action built in code
    ///   from its type and its members;
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
            if case .object(let members) = event.action.raw.value,
               ActionData(type: event.action.type, fields: members) != event.action {
                failures.append("\(w.id)'s \(event.name) action built in code from its type and members differs from it")
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
            edited.layout = w.layout
            edited.actions = w.actions
            if edited != w { failures.append("\(w.id): setting a field to its own value changed the widget") }
            if edited.fingerprint != w.fingerprint {
                failures.append("\(w.id): the decoder's fingerprint differs from the one computed from the model")
            }
        }
        return failures
    }

    /// On the normalized page, each of the first ``widgetRoundTripLimit`` widgets, written
    /// alone as the encoder writes it and decoded with ``PageDecoder/decodeWidget(_:path:)``
    /// at its own place, is itself, with the diagnostics the page's decode recorded inside
    /// it (its `data` is kept as received, so an accordion's items may still be without
    /// ids, or collide, and take their ids from that place); so is the decode of the same
    /// element held as opaque JSON. The widget is unchanged by taking that decode's content
    /// (``Widget/replaceContent(with:)``) and equal to one built in code from its id, content
    /// and envelope. The atoms of its content round-trip too (``atomRoundTrips(_:)``).
    static func widgetRoundTrips(_ normalized: DecodedPage, decoder: PageDecoder) -> [String] {
        var failures: [String] = []
        let page = normalized.page
        var placed: [(widget: Widget, path: String)] = []
        for (i, w) in (page.header?.widgets ?? []).enumerated() { placed.append((w, "page.header.widgets.\(i)")) }
        for (j, section) in page.sections.enumerated() {
            if let h = section.header { placed.append((h, "page.sections.\(j).header")) }
            for (i, w) in section.widgets.enumerated() { placed.append((w, "page.sections.\(j).widgets.\(i)")) }
        }
        for (i, w) in (page.footer?.widgets ?? []).enumerated() { placed.append((w, "page.footer.widgets.\(i)")) }
        for (w, path) in placed.prefix(widgetRoundTripLimit) {
            var writer = JSONWriter()
            PageEncoder.write(w, to: &writer)
            let element = writer.bytes
            let recorded = normalized.diagnostics.filter { $0.path == path || $0.path.hasPrefix(path + ".") }
            do {
                let fromBytes = try decoder.decodeWidget(element, path: path)
                if fromBytes.widget != w || fromBytes.diagnostics != recorded {
                    failures.append("\(w.id) written alone decodes to another widget at \(path) (diagnostics \(fromBytes.diagnostics.map(\.description)), the page's \(recorded.map(\.description)))")
                }
                // JSONValue refuses a string holding a lone surrogate; the bytes keep it.
                if let value = try? JSONValue(parsing: element) {
                    let fromRaw = try decoder.decodeWidget(RawJSON(value), path: path)
                    if fromRaw.widget != fromBytes.widget || fromRaw.diagnostics != fromBytes.diagnostics {
                        failures.append("\(w.id) decodes differently from opaque JSON and from its bytes")
                    }
                }
                if let decoded = fromBytes.widget {
                    var replaced = w
                    replaced.replaceContent(with: decoded)
                    if replaced != w { failures.append("\(w.id): taking the content of its own decode changed it") }
                }
            } catch {
                failures.append("\(w.id) written alone does not decode: \(error)")
            }
            let rebuilt = Widget(id: w.id, contentOf: w, layout: w.layout, actions: w.actions, tracking: w.tracking)
            if rebuilt != w { failures.append("\(w.id): a widget built in code from its parts differs from it") }
            failures += atomRoundTrips(w).map { "\(w.id): \($0)" }
        }
        return failures
    }

    /// See ``widgetRoundTrips(_:decoder:)``.
    static let widgetRoundTripLimit = 4

    /// The atoms a starter widget's content holds (tags, images, buttons, a separator):
    /// each is equal to the one its public initializer builds from its public properties
    /// (and to itself with its fields set to their own values), and written back
    /// (`JSONWritable`, the canonical form) it reads as the same atom, with the same hash,
    /// through `JSONDecoder` (the reference path's reader) and through the tape decoder.
    static func atomRoundTrips(_ w: Widget) -> [String] {
        var failures: [String] = []
        func check<A: FlowDecodable & JSONWritable & Hashable>(_ atom: A, rebuilt: A, _ name: String) {
            if rebuilt != atom { failures.append("a \(name) built from its properties differs from it") }
            let bytes = atom.jsonBytes
            switch Result(catching: { try JSONDecoder().decode(A.self, from: Data(bytes)) }) {
            case .success(let again) where again != atom:
                failures.append("a \(name) written and read by JSONDecoder differs: \(String(decoding: bytes, as: UTF8.self))")
            case .success(let again) where again.hashValue != atom.hashValue:
                failures.append("a \(name) written and read by JSONDecoder is equal but hashes differently")
            case .failure(let error):
                failures.append("a \(name) written does not read through JSONDecoder (\(error)): \(String(decoding: bytes, as: UTF8.self))")
            case .success: break
            }
            switch Result(catching: { try RawJSON(JSONValue(parsing: bytes)).decode(A.self) }) {
            case .success(let again) where again != atom:
                failures.append("a \(name) written and read by the tape decoder differs: \(String(decoding: bytes, as: UTF8.self))")
            case .failure(let error):
                failures.append("a \(name) written does not read through the tape decoder (\(error))")
            case .success: break
            }
        }
        func check(_ tag: TagData) {
            var edited = tag
            edited.borderColor = tag.borderColor
            edited.cornerRadius = tag.cornerRadius
            edited.icon = tag.icon
            edited.action = tag.action
            check(tag, rebuilt: TagData(text: tag.text, backgroundColor: tag.backgroundColor, borderColor: tag.borderColor,
                                        cornerRadius: tag.cornerRadius, icon: tag.icon, action: tag.action), "tag")
            if edited != tag { failures.append("a tag with its fields set to their own values differs from it") }
        }
        func check(_ image: ImageData) {
            var edited = image
            edited.aspectRatio = image.aspectRatio
            edited.cornerRadius = image.cornerRadius
            edited.alt = image.alt
            check(image, rebuilt: ImageData(url: image.url, aspectRatio: image.aspectRatio, scaleMode: image.scaleMode,
                                            cornerRadius: image.cornerRadius, placeholderColor: image.placeholderColor,
                                            shimmer: image.shimmer, alt: image.alt), "image")
            if edited != image { failures.append("an image with its fields set to their own values differs from it") }
        }
        if let rail = w.model(as: TagRail.self) { rail.tags.prefix(atomLimit).forEach(check) }
        if let card = w.model(as: ImageTextCard.self) {
            card.image.map(check)
            (card.tags ?? []).prefix(atomLimit).forEach(check)
        }
        if let banner = w.model(as: Banner.self) { check(banner.image) }
        if let row = w.model(as: ButtonRow.self) {
            for b in row.buttons.prefix(atomLimit) {
                check(b, rebuilt: ButtonData(title: b.title, style: b.style, backgroundColor: b.backgroundColor,
                                             cornerRadius: b.cornerRadius, icon: b.icon, fullWidth: b.fullWidth,
                                             disabled: b.disabled, action: b.action), "button")
            }
        }
        if let separator = w.model(as: SeparatorData.self) {
            check(separator, rebuilt: SeparatorData(style: separator.style, color: separator.color,
                                                    thickness: separator.thickness, insets: separator.insets), "separator")
        }
        return failures
    }

    /// See ``atomRoundTrips(_:)``: the atoms of one list checked per widget.
    static let atomLimit = 2
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
