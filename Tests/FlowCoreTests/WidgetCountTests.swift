import Testing
import FlowCore
import FlowWidgets
import FlowWorkloads

/// A page's widget count takes in every widget it holds, accordion items at any depth.
@Suite struct WidgetCountTests {
    let decoder = PageDecoder(registry: starterRegistry)

    /// Two top-level widgets and a section header; an accordion of three items, one of them
    /// an accordion of two, one of which holds one more: 3 + 1 + 3 + 2 + 1 = 10.
    let document = #"""
        {"page": {"header": {"widgets": [{"type": "separator", "id": "h"}]}, "sections": [{"id": "s",
          "header": {"type": "separator", "id": "sh"},
          "widgets": [{"type": "accordion", "id": "outer", "data": {"header": "Outer", "items": [
            {"type": "separator", "id": "i1"},
            {"type": "accordion", "id": "middle", "data": {"header": "Middle", "items": [
              {"type": "separator", "id": "m1"},
              {"type": "accordion", "id": "inner", "data": {"header": "Inner", "items": [{"type": "separator", "id": "deepest"}]}}]}},
            {"type": "hologram", "id": "dropped"},
            {"type": "separator", "id": "i3"}]}}]}]}}
        """#

    @Test func nestedAccordionItemsCountAtEveryDepth() throws {
        let page = try decoder.decode(Array(document.utf8)).page
        var visited: [String] = []
        page.forEachWidget { visited.append($0.id) }
        #expect(visited == ["h", "sh", "outer", "i1", "middle", "m1", "inner", "deepest", "i3"], "claiming order, nested right after their parent")
        #expect(page.widgetCount == 9, "the unknown item is dropped and not counted")
        #expect(page.allWidgets.map(\.id) == ["h", "sh", "outer"], "allWidgets stays the page's own regions")
        #expect(page.widget(id: "outer")?.nestedWidgets.map(\.id) == ["i1", "middle", "i3"])
    }

    @Test func aGeneratedPageCountsItsNestedWidgets() throws {
        let bytes = PageGenerator(PageGenerator.Options(widgets: 2000, seed: 5, nesting: 3)).generate()
        let page = try decoder.decode(bytes).page
        var nested = 0
        page.forEachWidget { nested += $0.nestedWidgets.count }
        #expect(nested > 0, "the generated page holds accordion items")
        #expect(page.widgetCount == page.allWidgets.count + nested)
    }
}
