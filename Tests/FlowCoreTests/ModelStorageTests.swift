import Testing
@testable import FlowCore
import FlowJSON
import FlowWidgets

/// How the model is stored: compact per-widget storage and layouts shared between widgets
/// that spell them the same way. None of it may show through the model's value semantics.
@Suite struct ModelStorageTests {
    func widgets(_ layouts: [String]) throws -> (fast: [Widget], reference: [Widget], diagnostics: [String]) {
        let elements = layouts.map { #"{"type": "title_block", "layout": \#($0), "data": {"title": "T"}}"# }
        let input = bytes(#"{"page": {"id": "p", "sections": [{"widgets": ["# + elements.joined(separator: ",") + "]}]}}")
        let fast = try PageDecoder(registry: starterRegistry).decode(input)
        let reference = try ReferencePageDecoder(registry: starterRegistry).decode(input)
        #expect(fast.page == reference.page)
        #expect(keys(fast.diagnostics) == keys(reference.diagnostics))
        return (fast.page.sections[0].widgets, reference.page.sections[0].widgets, keys(fast.diagnostics))
    }

    @Test func widgetsThatSpellALayoutAlikeShareOneBox() throws {
        let w = try widgets([
            #"{"padding": {"top": 4}, "corner_radius": 8}"#,
            #"{"padding": {"top": 4}, "corner_radius": 8}"#,
            #"{"padding": {"top": 4},  "corner_radius": 8}"#,  // equal value, other spelling
            #"{"padding": {"top": 5}, "corner_radius": 8}"#,
        ]).fast
        #expect(w[0].layoutBox != nil)
        #expect(w[0].layoutBox === w[1].layoutBox)
        #expect(w[2].layoutBox !== w[0].layoutBox, "only identical text is shared")
        #expect(w[2].layout == w[0].layout)
        #expect(w[3].layout.padding?.top == 5)
        #expect(w[3].layout.cornerRadius == w[0].layout.cornerRadius)
    }

    @Test func aSharedLayoutIsStillAValue() throws {
        var w = try widgets([#"{"padding": {"top": 4}}"#, #"{"padding": {"top": 4}}"#]).fast
        #expect(w[0].layoutBox === w[1].layoutBox)
        w[1].layout.padding?.top = 9
        #expect(w[0].layout.padding?.top == 4, "changing one widget's layout leaves the other alone")
        #expect(w[1].layout.padding?.top == 9)
    }

    @Test func theDefaultLayoutIsNotBoxedAndFailuresAreNotRemembered() throws {
        let (fast, _, diagnostics) = try widgets([#"{}"#, #"{}"#, #"{"width": true}"#, #"{"width": true}"#])
        #expect(fast.allSatisfy { $0.layoutBox == nil && $0.layout == .default })
        #expect(diagnostics == [
            "invalid_field page.sections.0.widgets.2.layout (title_block)",
            "invalid_field page.sections.0.widgets.3.layout (title_block)",
        ], "each widget with a bad layout reports it")
    }

    @Test func moreLayoutsThanTheTableHoldsStillDecode() throws {
        // More distinct layouts than the table has slots, each followed by a common one (so
        // the interner keeps looking): some overwrite others, and each widget still gets its
        // own layout; the latest one is still shared.
        let n = SpellingTable<LayoutBox?>.slotCount + 50
        let common = #"{"corner_radius": 8}"#
        let layouts = (0..<n).flatMap { [#"{"padding": {"top": \#($0)}}"#, common] } + [#"{"padding": {"top": \#(n - 1)}}"#]
        let (fast, reference, diagnostics) = try widgets(layouts)
        #expect(diagnostics.isEmpty)
        #expect(fast.count == 2 * n + 1)
        for i in 0..<n { #expect(fast[2 * i].layout.padding?.top == Double(i)) }
        #expect(fast[2 * n].layoutBox === fast[2 * n - 2].layoutBox, "the latest layout is remembered")
        #expect(fast[2 * n - 2].layoutBox !== fast[2 * n - 4].layoutBox)
        #expect(fast[3].layoutBox === fast[1].layoutBox, "the common layout is shared")
        #expect(reference.map(\.layout) == fast.map(\.layout))
    }

    /// A page whose layouts all differ rests the interner after a window of misses
    /// (`SharingPolicy.widgetParts`): a layout repeated during the rest gets a box of its own
    /// each time, and after the rest the interner shares again.
    @Test func allDifferentLayoutsRestTheInterner() throws {
        let policy = SharingPolicy.widgetParts
        let repeated = #"{"corner_radius": 8}"#
        let distinct = (0..<policy.window).map { #"{"padding": {"top": \#($0)}}"# }
        let during = [repeated, repeated]
        let rest = (0..<(policy.rest - during.count)).map { #"{"padding": {"left": \#($0)}}"# }
        let (fast, _, diagnostics) = try widgets(distinct + during + rest + [repeated, repeated])
        #expect(diagnostics.isEmpty)
        let w = policy.window
        #expect(fast[w].layout == fast[w + 1].layout)
        #expect(fast[w].layoutBox !== fast[w + 1].layoutBox, "resting: each widget boxes its own")
        let end = fast.count
        #expect(fast[end - 1].layoutBox === fast[end - 2].layoutBox, "after the rest the interner looks again")
    }

    @Test func aReplacementReadFromAnotherDocumentGetsItsOwnLayout() throws {
        // A response's widgets are read from the response's document, not the page's.
        let decoder = PageDecoder(registry: starterRegistry)
        let widget = #"{"id": "a", "type": "title_block", "layout": {"padding": {"top": 4}}, "data": {"title": "A"}}"#
        var page = try decoder.decode(bytes(#"{"page": {"id": "p", "sections": [{"id": "s", "widgets": ["# + widget + "]}]}}")).page
        let response = try decoder.decodeMutations(bytes(#"""
            {"mutations": [{"kind": "replace_widget", "id": "a", "widget": {"id": "a", "type": "title_block", "layout": {"padding": {"top": 7}}, "data": {"title": "B"}}},
                           {"kind": "replace_widget", "id": "a", "widget": \#(widget)}]}
            """#))
        #expect(decoder.apply(response, to: &page).applied == 2)
        #expect(page.sections[0].widgets[0].layout.padding?.top == 4)
    }

    @Test func perWidgetStorageStaysCompact() {
        // A page holds one `Widget` per widget and two or three `RawJSON`s in each: these
        // sizes are most of a decoded page's memory beyond its document
        // (`retained_bytes_per_widget` in Benchmarks/RESULTS.md).
        #expect(MemoryLayout<RawJSON>.size == 16)
        #expect(MemoryLayout<RawJSON?>.size == 16)
        #expect(MemoryLayout<WidgetContent>.size <= 17)
        #expect(MemoryLayout<Widget>.stride <= 112)
    }

    @Test func theMemberwiseMarkerCostsNothingAndMatchesAlways() {
        // Models carry a `Memberwise` marker so their decoders build them in place; it must
        // add no storage and never make two equal models differ.
        #expect(MemoryLayout<Memberwise>.size == 0)
        #expect(MemoryLayout<Section>.size == MemoryLayout<(String, SectionLayout, Widget?, [Widget])>.size)
        let a = ImageTextCard(title: "T", subtitle: "S", tags: [TagData(text: "New", backgroundColor: ColorData(hex: "#FFF"))])
        var b = ImageTextCard(title: "T")
        b.subtitle = "S"
        b.tags = [TagData(text: "New", backgroundColor: ColorData(hex: "#FFF"))]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(ButtonData(title: "Go", style: "primary") != ButtonData(title: "Go"))
    }

    @Test func aChangeForgetsTheStoredFingerprint() throws {
        let w = try widgets([#"{"padding": {"top": 4}}"#]).fast[0]
        let stored = try #require(w.storedFingerprint, "the decoder stores one")
        #expect(stored != 0, "0 is the not-stored mark")
        #expect(w.fingerprint == stored)
        var copy = w
        copy.layout.padding?.top = 5
        #expect(copy.storedFingerprint == nil)
        #expect(copy.fingerprint != stored)
        copy.layout.padding?.top = 4
        #expect(copy == w)
    }
}
