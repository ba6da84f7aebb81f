import Testing
@testable import FlowCore
import FlowJSON
import FlowWidgets

/// Widgets of one type whose `data` is spelled alike share one content box, widgets whose
/// `actions` are spelled alike one array of events, and arrays of library values spelled
/// alike one buffer (`WidgetInterner`), and it never shows: each widget holds what its own text says, the diagnostics are the reference
/// path's, and what may not share (a container, a host's `Decodable`, a decode that
/// reported something) does not.
@Suite struct WidgetSharingTests {
    /// A library-route type that reports a diagnostic when its data has `warn`.
    struct Warner: FlowDecodable, Equatable {
        let warned: Bool
        init<R: ValueReader>(from reader: R) throws {
            warned = reader.object()?.value(forKey: "warn") != nil
            if warned { reader.context.record(.invalidField, at: .key("warn"), "warn is set") }
        }
    }

    /// A host's plain `Decodable`.
    struct HostNote: Decodable, Sendable, Equatable { let text: String }

    static var registry: WidgetRegistry {
        var registry = FlowWidgets.registry
        registry.register(Warner.self, as: "warner")
        registry.register(HostNote.self, as: "host_note")
        registry.register(SeparatorData.self, as: "separator_2")
        return registry
    }

    /// The widgets of a one-section page of `elements`, decoded with sharing on whatever the
    /// size; the fast path must agree with the reference path, diagnostics included.
    func widgets(_ elements: [String], options: PageDecodingOptions = AtomSharingTests.sharingAlways) throws -> (widgets: [Widget], diagnostics: [String]) {
        let input = bytes(#"{"page": {"id": "p", "sections": [{"widgets": ["# + elements.joined(separator: ",") + "]}]}}")
        let fast = try PageDecoder(registry: Self.registry, options: options).decode(input)
        let reference = try ReferencePageDecoder(registry: Self.registry).decode(input)
        #expect(fast.page == reference.page)
        #expect(keys(fast.diagnostics) == keys(reference.diagnostics))
        return (fast.page.sections.first?.widgets ?? [], keys(fast.diagnostics))
    }

    static func box(_ widget: Widget) -> ContentBox? {
        if case .model(let model) = widget.content { return model.box }
        return nil
    }

    static let separator = ##"{"type": "separator", "data": {"style": "solid", "color": "#E5E7EB", "thickness": 1}}"##

    @Test func widgetsSpelledAlikeShareTheirContent() throws {
        let w = try widgets([Self.separator, Self.separator, Self.separator]).widgets
        try #require(w.count == 3)
        let first = try #require(Self.box(w[0]))
        #expect(Self.box(w[1]) === first && Self.box(w[2]) === first)
        #expect(w[1].model(as: SeparatorData.self) == w[0].model(as: SeparatorData.self))
        #expect(Set(w.map(\.id)).count == 3, "each widget keeps its own envelope")
    }

    /// The same data spelled with other spacing, or under another registered name of the
    /// same type, decodes alike but is not shared.
    @Test func otherSpellingsAndOtherTypesAreNotShared() throws {
        let spaced = ##"{"type": "separator", "data": {"style": "solid",  "color": "#E5E7EB", "thickness": 1}}"##
        let renamed = Self.separator.replacingOccurrences(of: #""separator""#, with: #""separator_2""#)
        let w = try widgets([Self.separator, spaced, renamed]).widgets
        try #require(w.count == 3)
        #expect(Self.box(w[1]) !== Self.box(w[0]) && Self.box(w[2]) !== Self.box(w[0]))
        #expect(w[1].model(as: SeparatorData.self) == w[0].model(as: SeparatorData.self))
        #expect(w[2].model(as: SeparatorData.self) == w[0].model(as: SeparatorData.self))
    }

    /// An accordion's items claim ids where they stand, and a host's `init(from:)` is its
    /// own: neither shares.
    @Test func containersAndHostTypesDecodeEachTime() throws {
        let accordion = #"{"type": "accordion", "data": {"header": "H", "items": [{"type": "separator", "id": "i"}]}}"#
        let note = #"{"type": "host_note", "data": {"text": "the same note"}}"#
        let w = try widgets([accordion, accordion, note, note]).widgets
        try #require(w.count == 4)
        #expect(Self.box(w[1]) !== Self.box(w[0]))
        #expect(Self.box(w[3]) !== Self.box(w[2]))
        #expect(w[3].model(as: HostNote.self) == HostNote(text: "the same note"))
    }

    /// A decode that reported something is not remembered: the next widget spelled alike
    /// decodes again and reports it too.
    @Test func aDecodeThatReportedIsNotShared() throws {
        let warner = #"{"type": "warner", "data": {"warn": true}}"#
        let (w, diagnostics) = try widgets([warner, warner, warner])
        try #require(w.count == 3)
        #expect(diagnostics.count == 3, "\(diagnostics)")
        #expect(Self.box(w[1]) !== Self.box(w[0]) && Self.box(w[2]) !== Self.box(w[1]))
        let quiet = #"{"type": "warner", "data": {"calm": true}}"#
        let q = try widgets([quiet, quiet]).widgets
        #expect(Self.box(q[1]) === Self.box(q[0]))
    }

    /// Under the sharing threshold every widget decodes its own content.
    @Test func smallPagesDoNotShare() throws {
        let w = try widgets([Self.separator, Self.separator], options: PageDecodingOptions()).widgets
        try #require(w.count == 2)
        #expect(Self.box(w[1]) !== Self.box(w[0]))
    }

    /// A type whose widgets all differ rests after a window of misses, and a long page of
    /// them still decodes each exactly.
    @Test func manyDifferentWidgetsStillDecode() throws {
        let elements = (0..<3_000).map { #"{"type": "separator", "data": {"thickness": \#($0)}}"# }
        let w = try widgets(elements).widgets
        #expect(w.count == 3_000)
        #expect(w.enumerated().allSatisfy { $0.element.model(as: SeparatorData.self)?.thickness == Double($0.offset) })
    }

    static func events(_ widget: Widget) -> UnsafeRawPointer? {
        widget.actions.events.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func actionsSpelledAlikeShareTheirEvents() throws {
        let toast = #"{"type": "separator", "actions": {"tap": {"type": "toast", "message": "Added to your list"}}}"#
        let spaced = #"{"type": "separator", "actions": {"tap": {"type": "toast",  "message": "Added to your list"}}}"#
        let w = try widgets([toast, toast, spaced]).widgets
        try #require(w.count == 3)
        #expect(Self.events(w[0]) != nil && Self.events(w[1]) == Self.events(w[0]))
        #expect(Self.events(w[2]) != Self.events(w[0]), "other spacing is not shared")
        #expect(w[2].actions == w[0].actions && w[0].actions["tap"]?.type == "toast")
    }

    /// Actions with a bad event report it for every widget that sends them.
    @Test func actionsThatReportedAreNotShared() throws {
        let bad = #"{"type": "separator", "actions": {"tap": {"type": "toast"}, "swipe": 3}}"#
        let (w, diagnostics) = try widgets([bad, bad, bad])
        try #require(w.count == 3)
        #expect(diagnostics.count == 3, "\(diagnostics)")
        #expect(w.allSatisfy { $0.actions.names == ["tap"] })
    }

    /// Cards that differ share the tags they spell alike.
    @Test func arraysSpelledAlikeShareOneBuffer() throws {
        func card(_ title: String, _ tags: String) -> String {
            ##"{"type": "image_text_card", "data": {"title": "\##(title)", "tags": \##(tags)}}"##
        }
        let tags = ##"[{"text": "New", "bg_color": "#DCFCE7"}]"##
        let spaced = ##"[{"text": "New",  "bg_color": "#DCFCE7"}]"##
        let w = try widgets([card("A", tags), card("B", tags), card("C", spaced), card("D", "[]")]).widgets
        try #require(w.count == 4)
        func buffer(_ widget: Widget) -> UnsafeRawPointer? {
            widget.model(as: ImageTextCard.self)?.tags?.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } ?? nil
        }
        #expect(Self.box(w[1]) !== Self.box(w[0]), "the cards differ")
        #expect(buffer(w[0]) != nil && buffer(w[1]) == buffer(w[0]))
        #expect(buffer(w[2]) != buffer(w[0]), "other spacing is not shared")
        #expect(w[2].model(as: ImageTextCard.self)?.tags == w[0].model(as: ImageTextCard.self)?.tags)
        #expect(w[3].model(as: ImageTextCard.self)?.tags == [])
    }

    /// A value larger than `SpellingTable.maximumEntries` is not looked up (a hostile page
    /// of one huge widget pays for no hashing), yet decodes the same.
    @Test func largeValuesAreNotLookedUp() throws {
        let tags = "[" + Array(repeating: #"{"text": "T"}"#, count: SpellingTable<Void>.maximumEntries / 2).joined(separator: ",") + "]"
        let rail = #"{"type": "tag_rail", "data": {"tags": \#(tags)}}"#
        let w = try widgets([rail, rail]).widgets
        try #require(w.count == 2)
        #expect(Self.box(w[1]) !== Self.box(w[0]))
        #expect(w[1].model(as: TagRail.self) == w[0].model(as: TagRail.self))
        let small = #"{"type": "tag_rail", "data": {"tags": [{"text": "T"}]}}"#
        let s = try widgets([small, small]).widgets
        #expect(Self.box(s[1]) === Self.box(s[0]))
    }
}
