import Testing
@testable import FlowCore

/// The one dotted path format (the page contract, "Diagnostics and their paths"), rendered the same way for every length of path.
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

/// Ids, paths and messages are written by measuring their pieces and then writing them once;
/// the two passes must agree for every kind of piece, or the string comes out short or torn.
@Suite struct TextAssemblyTests {
    @Test func writesWhatInterpolationWrites() {
        let texts = ["", "a", "#", "fifteen bytes!!", "sixteen bytes!!!", "ÿ名前🙂", "e\u{301}", String(repeating: "k", count: 300)]
        let numbers = [0, 7, 10, 99, 100, -1, -40, Int.max, Int.min + 1]
        for text in texts {
            for number in numbers {
                let assembled = TextAssembly.string { $0.append(text); $0.append("#"); $0.append(number); $0.append(text) }
                #expect(assembled == "\(text)#\(number)\(text)")
                #expect(assembled.utf8.elementsEqual("\(text)#\(number)\(text)".utf8), "bytes, not just canonical equivalence")
            }
        }
        #expect(TextAssembly.string { _ in } == "")
        #expect(TextAssembly.string { $0.append(String(Substring("xyz").dropFirst())) } == "yz")
    }

    @Test func renamedIdsAndTheirMessagesReadAsBefore() {
        #expect(NameClaims.name("hero", 2) == "hero#2")
        #expect(NameClaims.name("名前", 12_345) == "名前#12345")
        var claims = NameClaims()
        #expect(claims.claim("x") == ("x", false))
        #expect(claims.claim("x") == ("x#2", true))
        #expect(claims.claim("x#3") == ("x#3", false))
        #expect(claims.claim("x") == ("x#4", true))
    }
}
