import Testing
import FlowCore
import FlowWidgets

/// Looking a widget up by id: on a `let` page (no index), through the index, and after
/// sections were prepended (where the index's section ordinals and the page's indices differ).
@Suite struct PageLookupTests {
    let decoder = PageDecoder(registry: starterRegistry)
    let document = #"{"page": {"header": {"widgets": [{"type": "separator", "id": "h"}]}, "sections": [{"id": "s0", "header": {"type": "separator", "id": "sh"}, "widgets": [{"type": "separator", "id": "a"}, {"type": "separator", "id": "b"}]}], "footer": {"widgets": [{"type": "separator", "id": "f"}]}}}"#

    @Test func aLetPageFindsEveryWidgetByIDWithoutAnIndex() throws {
        let page = try decoder.decode(bytes(document)).page
        #expect(page.widget(id: "h")?.id == "h")
        #expect(page.widget(id: "sh")?.id == "sh")
        #expect(page.widget(id: "b")?.id == "b")
        #expect(page.widget(id: "f")?.id == "f")
        #expect(page.widget(id: "missing") == nil)
    }

    @Test func locationsNameSectionsByTheirIndexAfterAPrepend() throws {
        var page = try decoder.decode(bytes(document)).page
        #expect(page.location(of: "b") == .sectionBody(section: 0, index: 1))
        let response = try decoder.decodeMutations(bytes(#"{"mutations": [{"kind": "prepend_sections", "sections": [{"id": "p0", "widgets": [{"type": "separator", "id": "p"}]}, {"id": "p1", "header": {"type": "separator", "id": "ph"}, "widgets": []}]}]}"#))
        #expect(decoder.apply(response, to: &page).failed == 0)
        #expect(page.location(of: "b") == .sectionBody(section: 2, index: 1))
        #expect(page.location(of: "sh") == .sectionHeader(section: 2))
        #expect(page.location(of: "ph") == .sectionHeader(section: 1))
        #expect(page.location(of: "p") == .sectionBody(section: 0, index: 0))
        // The index exists now, and the read-only lookup goes through it to the same widgets.
        let frozen = page
        for id in ["h", "sh", "a", "b", "f", "p", "ph"] {
            let found = page.location(of: id)
            #expect(found != nil, "\(id)")
            if let location = found { #expect(frozen[location].id == id) }
            #expect(frozen.widget(id: id)?.id == id)
        }
        #expect(frozen.widget(id: "gone") == nil)
    }
}
