import Foundation
import Testing
import FlowCore
import FlowJSON
import FlowWidgets

/// A widget's type, data and content change as one: a page built or changed in code through
/// the public API encodes and decodes back to an equal page, content included.
@Suite struct ContentDataTests {
    /// One widget of every starter type, from the corpus pages: the first whose element
    /// decodes alone with nothing to report (some corpus widgets are there for their
    /// problems).
    static func oneOfEachStarterType() throws -> [Widget] {
        var found: [String: Widget] = [:]
        let decoder = PageDecoder(registry: starterRegistry)
        for url in corpusFiles("pages") {
            guard let decoded = try? decoder.decode(bytes(url)) else { continue }
            for w in decoded.page.allWidgets where found[w.type] == nil && !w.content.isPlaceholder {
                if try decoder.decodeWidget(element(w)).diagnostics.isEmpty { found[w.type] = w }
            }
        }
        let missing = Set(starterRegistry.typeNames).subtracting(found.keys)
        #expect(missing.isEmpty, "no corpus page holds a decodable widget of \(missing.sorted())")
        return starterRegistry.typeNames.compactMap { found[$0] }
    }

    static func element(_ widget: Widget) -> [UInt8] {
        var writer = JSONWriter()
        PageEncoder.write(widget, to: &writer)
        return writer.bytes
    }

    /// Encoded and decoded again with `registry`: the page that comes back.
    static func roundTrip(_ page: Page, _ registry: WidgetRegistry = starterRegistry) throws -> DecodedPage {
        try PageDecoder(registry: registry).decode(PageEncoder.encode(page))
    }

    @Test func aPageBuiltFromEveryStarterTypeComesBackEqual() throws {
        let decoder = PageDecoder(registry: starterRegistry)
        var built: [Widget] = []
        for (i, w) in try Self.oneOfEachStarterType().enumerated() {
            let (widget, diagnostics) = try decoder.decodeWidget(Self.element(w), path: "page.sections.0.widgets.\(i)")
            #expect(diagnostics.isEmpty, "\(w.type): \(diagnostics)")
            let made = try #require(widget)
            #expect(made.type == w.type && made.content == w.content && made.data == w.data)
            built.append(made)
        }
        let page = Page(id: "built", sections: [Section(id: "s", widgets: built)])
        let back = try Self.roundTrip(page)
        #expect(back.diagnostics.isEmpty)
        #expect(back.page == page)
    }

    /// A widget given another type's content encodes that content, not its old data.
    @Test func aChangedWidgetEncodesItsNewContent() throws {
        let all = try Self.oneOfEachStarterType()
        var page = Page(id: "changed", sections: [Section(id: "s", widgets: all)])
        let last = all[all.count - 1]
        page.sections[0].widgets[0].replaceContent(with: last)
        let changed = page.sections[0].widgets[0]
        #expect(changed.type == last.type && changed.data == last.data && changed.content == last.content)
        #expect(changed.id == all[0].id && changed.layout == all[0].layout, "the envelope stays")
        page.sections[0].widgets.append(Widget(id: "copy", contentOf: all[1]))
        let back = try Self.roundTrip(page)
        #expect(back.diagnostics.isEmpty)
        #expect(back.page == page)
        #expect(back.page.sections[0].widgets[0].content == last.content)
        #expect(back.page.sections[0].widgets.last?.content == all[1].content)
    }

    /// A path given to `decodeWidget` names its diagnostics and its positional ids.
    @Test func aDecodedWidgetStandsAtItsPath() throws {
        let decoder = PageDecoder(registry: starterRegistry, options: PageDecodingOptions(placeholders: true))
        let (widget, diagnostics) = try decoder.decodeWidget(bytes(#"{"type": "separator", "data": {"thickness": "thick"}}"#),
                                                            path: "page.sections.2.widgets.5")
        #expect(widget?.id == "separator@page.sections.2.widgets.5")
        #expect(widget?.content == .placeholder(.malformedPayload))
        #expect(keys(diagnostics) == ["malformed_payload page.sections.2.widgets.5 (separator)"])
        let dropped = try decoder.decodeWidget(bytes(#"{"data": {}}"#))
        #expect(dropped.widget == nil && keys(dropped.diagnostics) == ["dropped_element widget"])
        #expect(throws: PageDecodingError.self) { try decoder.decodeWidget(bytes("{")) }
        let raw = RawJSON(.object(["type": .string("separator"), "data": .object(["thickness": .number(2)])]))
        let fromRaw = try decoder.decodeWidget(raw, path: "page.sections.0.widgets.1")
        #expect(fromRaw.widget?.model(as: SeparatorData.self)?.thickness == 2 && fromRaw.diagnostics.isEmpty)
    }

    /// A placeholder built in code keeps the data it is given, and encodes it.
    @Test func aPlaceholderKeepsItsData() throws {
        let data = RawJSON(.object(["label": .string("Soon")]))
        let w = Widget(id: "p", type: "hologram", placeholder: .unknownType, data: data)
        let page = Page(id: "p", sections: [Section(id: "s", widgets: [w])])
        let back = try PageDecoder(registry: starterRegistry, options: PageDecodingOptions(placeholders: true)).decode(PageEncoder.encode(page))
        #expect(back.page == page)
        #expect(back.page.sections[0].widgets[0].data == data)
    }

    /// A host's `Codable` type: built from its encoding, changed, and round-tripped.
    struct Note: Codable, Equatable, Sendable {
        let text: String
        let pinned: Bool
        let tags: [String]
    }

    static let hostRegistry: WidgetRegistry = {
        var r = FlowWidgets.registry
        r.register(Note.self, as: "note")
        return r
    }()

    static func noteWidget(_ note: Note, id: String) throws -> Widget {
        let data = try JSONEncoder().encode(note)
        let element = Array(#"{"id": "\#(id)", "type": "note", "data": "#.utf8) + data + Array("}".utf8)
        let (widget, diagnostics) = try PageDecoder(registry: hostRegistry).decodeWidget(element)
        #expect(diagnostics.isEmpty)
        return try #require(widget)
    }

    @Test func aHostsCodableTypeRoundTrips() throws {
        let first = Note(text: "Bring a bag", pinned: true, tags: ["home", "errand"])
        let second = Note(text: "Call back", pinned: false, tags: [])
        var page = Page(id: "notes", sections: [Section(id: "s", widgets: [try Self.noteWidget(first, id: "a"), try Self.noteWidget(first, id: "b")])])
        #expect(page.sections[0].widgets[0].model(as: Note.self) == first)
        page.sections[0].widgets[1].replaceContent(with: try Self.noteWidget(second, id: "unused"))
        #expect(page.sections[0].widgets[1].id == "b")
        let back = try Self.roundTrip(page, Self.hostRegistry)
        #expect(back.diagnostics.isEmpty)
        #expect(back.page == page)
        #expect(back.page.sections[0].widgets.map { $0.model(as: Note.self) } == [first, second])
    }
}
