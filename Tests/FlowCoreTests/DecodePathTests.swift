import Testing
import FlowCore

/// The one dotted path format (SPEC §5), rendered the same way for every length of path.
@Suite struct DecodePathTests {
    @Test func rendersKeysAndIndicesWithDots() {
        #expect(DecodePath.root("page").appending("sections").appending(0).appending("widgets").appending(2).description
            == "page.sections.0.widgets.2")
        #expect(DecodePath().description == "")
        #expect(DecodePath([.index(0)]).description == "0")
    }

    @Test func rendersEveryDigitOfAnIndex() {
        for (index, text) in [(9, "9"), (10, "10"), (99, "99"), (100, "100"), (1_234_567, "1234567"), (-3, "-3"), (-40, "-40"),
                              (Int.max, "9223372036854775807")] {
            #expect(DecodePath([.key("w"), .index(index)]).description == "w." + text)
        }
    }

    @Test func longAndNonASCIIPathsAreWrittenWhole() {
        // Past 15 bytes a string leaves its inline form; the render must not care.
        let keys = ["page", "sections", "12", "widgets", "ÿ名前🙂", String(repeating: "k", count: 300)]
        let path = DecodePath(keys.map(PathComponent.key))
        #expect(path.description == keys.joined(separator: "."))
        #expect(path.appending(17).description == keys.joined(separator: ".") + ".17")
    }

    @Test func anEmptyLeadingKeyTakesNoSeparator() {
        // The separator goes between written parts: nothing written yet, no dot.
        #expect(DecodePath([.key(""), .key("a")]).description == "a")
        #expect(DecodePath([.key("a"), .key(""), .key("b")]).description == "a..b")
    }
}
