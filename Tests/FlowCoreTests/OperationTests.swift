import Testing
import FlowCore
import FlowJSON
import FlowWidgets
import FlowWorkloads

/// the page contract, "Identity and renaming", §7, §9: merge, mutations and diff keep identity sound after every step.
@Suite struct OperationTests {
    let decoder = PageDecoder(registry: starterRegistry)

    @Test func appendingANextPageEqualsDecodingTheConcatenatedDocument() throws {
        for seed in 1...8 {
            let first = PageGenerator(.init(widgets: 120, seed: UInt64(seed), badRate: 0.05, duplicateRate: 0.05, sections: 3)).generate()
            let next = PageGenerator(.init(widgets: 80, seed: UInt64(seed + 100), badRate: 0.05, duplicateRate: 0.05, sections: 2, firstSection: 3)).generateNextPage()
            var page = try decoder.decode(first).page
            _ = try decoder.append(nextPage: next, to: &page)
            let whole = try decoder.decode(RefreshGenerator.concatenated(first, next)).page
            #expect(page == whole, "seed \(seed)")
            #expect(ids(page) == ids(whole), "seed \(seed)")
            #expect(page.identityViolations().isEmpty)
        }
    }

    @Test func aBadToastDoesNotHoldBackATransaction() throws {
        let original = try decoder.decode(bytes(#"{"page": {"sections": [{"widgets": [{"type": "separator", "id": "a"}, {"type": "separator", "id": "b"}]}]}}"#)).page
        for toast in ["3", #"{"message": "\uD800"}"#] {
            var page = original
            let response = try decoder.decodeMutations(bytes(#"{"mutations": [{"kind": "remove_widget", "id": "a"}], "toast": \#(toast)}"#))
            #expect(response.toast == nil)
            #expect(keys(response.diagnostics) == ["invalid_field toast"])
            #expect(response.isWellFormed)
            let outcome = decoder.apply(response, to: &page, transactional: true)
            #expect(outcome.committed)
            #expect(ids(page) == ["b"])
        }
        let found = try decoder.decodeMutations(bytes(#"{"toast": {"message": "\uD800"}}"#)).diagnostics.first?.message ?? ""
        #expect(found.contains("does not decode"))
    }

    /// Removals are marked and compacted once per response: a replacement after them still
    /// stands at the position the page shows (its nested positional ids say so), and every
    /// later mutation of the response finds its target.
    @Test func aReplacementAfterRemovalsStandsWhereThePageShowsIt() throws {
        let widgets = (0..<10).map { #"{"type": "separator", "id": "w\#($0)"}"# }.joined(separator: ",")
        var page = try decoder.decode(bytes(#"{"page": {"sections": [{"id": "s", "widgets": [\#(widgets)]}]}}"#)).page
        let accordion = #"{"type": "accordion", "data": {"header": "More", "items": [{"type": "separator"}]}}"#
        let response = try decoder.decodeMutations(bytes(#"""
            {"mutations": [{"kind": "remove_widget", "id": "w0"}, {"kind": "remove_widget", "id": "w2"},
                           {"kind": "replace_widget", "id": "w3", "widget": \#(accordion)},
                           {"kind": "remove_widget", "id": "w9"}, {"kind": "remove_widget", "id": "w2"},
                           {"kind": "replace_widget", "id": "w8", "widget": {"type": "separator", "id": "w0"}}]}
            """#))
        let outcome = decoder.apply(response, to: &page)
        #expect(ids(page) == ["w1", "w3", "w4", "w5", "w6", "w7", "w0"])
        #expect(keys(outcome.diagnostics) == ["mutation_target_missing mutations.4"])
        guard let items = page.sections[0].widgets[1].model(as: Accordion.self)?.items else {
            Issue.record("the replacement is not an accordion")
            return
        }
        // w3 stood at index 1 once w0 and w2 were gone.
        #expect(items.map(\.id) == ["separator@page.sections.0.widgets.1.data.items.0"])
        #expect(page.identityViolations().isEmpty)
    }

    /// Found by the merge-diff fuzz target: a dropped section still takes a position in the
    /// concatenated document, so the next page's sections start after it.
    @Test func aDroppedSectionStillTakesItsPositionForTheNextPage() throws {
        let first = bytes(#"{"page": {"sections": [{"widgets": [{"type": "separator"}]}, 7, {"widgets": [{"type": "separator"}]}]}}"#)
        let next = bytes(#"{"page": {"sections": [{"widgets": [{"type": "separator"}]}]}}"#)
        var page = try decoder.decode(first).page
        _ = try decoder.append(nextPage: next, to: &page)
        #expect(ids(page).last == "separator@page.sections.3.widgets.0")
        #expect(page == (try decoder.decode(RefreshGenerator.concatenated(first, next)).page))
    }

    /// The one deliberate difference from the concatenated document: ids on screen never
    /// change, so a newcomer asking for a footer widget's id is the one renamed.
    @Test func aNewcomerNeverTakesAFooterWidgetsId() throws {
        var page = try decoder.decode(bytes(#"{"page": {"sections": [], "footer": {"widgets": [{"type": "separator", "id": "f"}]}}}"#)).page
        _ = try decoder.append(nextPage: bytes(#"{"page": {"sections": [{"widgets": [{"type": "separator", "id": "f"}]}]}}"#), to: &page)
        #expect(page.footer?.widgets.map(\.id) == ["f"])
        #expect(page.sections[0].widgets.map(\.id) == ["f#2"])
    }

    @Test func aNextPageThatFailsLeavesThePageAsItWas() throws {
        var page = try decoder.decode(bytes(#"{"page": {"sections": [{"widgets": [{"type": "separator", "id": "a"}]}]}}"#)).page
        let before = page
        #expect(throws: PageDecodingError.self) { try decoder.append(nextPage: bytes("{not json"), to: &page) }
        #expect(throws: PageDecodingError.self) { try decoder.append(nextPage: bytes(#"{"page": 3}"#), to: &page) }
        #expect(page == before)
    }

    @Test func appendingKeepsExistingIdsAndRenamesNewcomers() throws {
        var page = try decoder.decode(bytes(#"{"page": {"sections": [{"id": "s", "widgets": [{"type": "separator", "id": "a"}]}]}}"#)).page
        let diagnostics = try decoder.append(nextPage: bytes(#"{"page": {"sections": [{"id": "s", "widgets": [{"type": "separator", "id": "a"}, {"type": "separator"}]}], "pagination": {"has_more": false}}}"#), to: &page)
        #expect(page.sections.map(\.id) == ["s", "s#2"])
        #expect(ids(page) == ["a", "a#2", "separator@page.sections.1.widgets.1"])
        #expect(keys(diagnostics) == ["duplicate_id page.sections.0", "duplicate_id page.sections.0.widgets.0 (separator)"])
        #expect(page.pagination == Pagination(hasMore: false))
    }

    /// Random mutation sequences on generated pages: the id index and uniqueness hold after
    /// every step, and transactional mode never leaves a half-applied page.
    @Test func identityHoldsAfterEveryMutation() throws {
        var rng = SeededRandom(seed: 9)
        for seed in 1...6 {
            var page = try decoder.decode(PageGenerator(.init(widgets: 200, seed: UInt64(seed), badRate: 0.05, duplicateRate: 0.1, sections: 5)).generate()).page
            for step in 0..<40 {
                let all = ids(page)
                let target = all.isEmpty ? "nothing" : rng.pick(all)
                let mutation: String
                switch rng.below(6) {
                case 0: mutation = #"{"kind": "remove_widget", "id": "\#(target)"}"#
                case 1: mutation = #"{"kind": "replace_widget", "id": "\#(target)", "widget": {"type": "separator"}}"#
                case 2: mutation = #"{"kind": "replace_widget", "id": "\#(target)", "widget": {"type": "separator", "id": "\#(rng.pick(all + ["fresh"]))"}}"#
                case 3: mutation = #"{"kind": "append_sections", "sections": [{"id": "n\#(step)", "widgets": [{"type": "separator", "id": "\#(target)"}, {"type": "separator"}]}]}"#
                case 4: mutation = #"{"kind": "prepend_sections", "sections": [{"widgets": [{"type": "separator", "id": "p"}, {"type": "hologram"}]}]}"#
                default: mutation = #"{"kind": "remove_widget", "id": "missing_\#(step)"}"#
                }
                let response = try decoder.decodeMutations(bytes(#"{"mutations": ["# + mutation + "]}"))
                let before = page
                let outcome = decoder.apply(response, to: &page, transactional: step % 3 == 0)
                #expect(page.identityViolations().isEmpty, "seed \(seed) step \(step): \(page.identityViolations())")
                if step % 3 == 0 && !outcome.committed { #expect(page == before, "a rolled-back response leaves the page exactly as it was") }
            }
        }
    }

    /// Removing does not rewrite the index entries of the widgets after the removed one
    /// (they become upper bounds); later operations must still find each widget exactly.
    @Test func widgetsAfterARemovedOneAreStillFoundExactly() throws {
        let body = (0..<6).map { #"{"type": "separator", "id": "w\#($0)"}"# }.joined(separator: ",")
        var page = try decoder.decode(bytes(#"{"page": {"header": {"widgets": [{"type": "separator", "id": "h0"}, {"type": "separator", "id": "h1"}]}, "sections": [{"widgets": [\#(body)]}]}}"#)).page
        for response in [#"{"mutations": [{"kind": "remove_widget", "id": "w1"}, {"kind": "remove_widget", "id": "w3"}, {"kind": "remove_widget", "id": "h0"}]}"#,
                         #"{"mutations": [{"kind": "replace_widget", "id": "w4", "widget": {"type": "separator", "id": "n4"}}, {"kind": "remove_widget", "id": "w5"}]}"#] {
            let outcome = decoder.apply(try decoder.decodeMutations(bytes(response)), to: &page)
            #expect(outcome.failed == 0)
            #expect(page.identityViolations().isEmpty, "\(page.identityViolations())")
        }
        #expect(page.sections[0].widgets.map(\.id) == ["w0", "w2", "n4"])
        #expect(page.location(of: "n4") == .sectionBody(section: 0, index: 2))
        #expect(page.location(of: "h1") == .header(index: 0))
        #expect(page.location(of: "w3") == nil)
    }

    @Test func aReplacementWithoutIdKeepsTheIdItReplaces() throws {
        var page = try decoder.decode(bytes(#"{"page": {"header": {"widgets": [{"type": "separator", "id": "h"}]}, "sections": [{"header": {"type": "separator", "id": "sh"}, "widgets": [{"type": "separator", "id": "b"}]}], "footer": {"widgets": [{"type": "separator", "id": "f"}]}}}"#)).page
        let response = try decoder.decodeMutations(bytes(#"{"mutations": [{"kind": "replace_widget", "id": "h", "widget": {"type": "title_block", "data": {"title": "H"}}}, {"kind": "replace_widget", "id": "sh", "widget": {"type": "title_block", "data": {"title": "S"}}}, {"kind": "replace_widget", "id": "b", "widget": {"type": "title_block", "id": "b2", "data": {"title": "B"}}}, {"kind": "remove_widget", "id": "f"}]}"#))
        let outcome = decoder.apply(response, to: &page)
        #expect(outcome.applied == 4 && outcome.diagnostics.isEmpty)
        #expect(ids(page) == ["h", "sh", "b2"])
        #expect(page.header?.widgets[0].type == "title_block" && page.footer?.widgets.isEmpty == true)
    }

    @Test func theDiffRebuildsTheNewListsOnGeneratedPairs() throws {
        for seed in 1...25 {
            let old = PageGenerator(.init(widgets: 300, seed: UInt64(seed), duplicateRate: 0.02, sections: 1 + seed % 7)).generate()
            let new = try RefreshGenerator.changed(old, rate: 0.15 + Double(seed % 5) / 10, seed: UInt64(seed))
            let a = try decoder.decode(old).page, b = try decoder.decode(new).page
            let diff = PageDiff(old: a, new: b)
            #expect(diff.applied(to: .init(a)) == .init(b), "seed \(seed)")
            #expect(!diff.widgets.isEmpty)
            #expect(PageDiff(old: a, new: a).isEmpty)
            // Every widget of the new page is either new, or kept, moved and/or updated.
            let oldIDs = Set(ids(a)), inserted = Set(diff.widgets.inserted.map(\.id))
            #expect(inserted.isDisjoint(with: oldIDs))
        }
    }

    @Test func movesAreMinimalWithinASection() throws {
        func page(_ ids: [String]) -> String {
            #"{"page": {"sections": [{"id": "s", "widgets": ["# + ids.map { #"{"type": "separator", "id": "\#($0)"}"# }.joined(separator: ",") + "]}]}}"
        }
        let a = try decode(page(["a", "b", "c", "d", "e"])).page
        let b = try decode(page(["e", "a", "b", "c", "d"])).page
        let diff = PageDiff(old: a, new: b)
        #expect(diff.widgets.moved.map(\.id) == ["e"], "moving the last to the front is one move, not four")
        #expect(diff.applied(to: .init(a)) == .init(b))
    }

    /// Ids equal as strings are one id to the diff, as to the identity pass, however they
    /// are spelled: the same widgets, nothing inserted or removed.
    @Test func idsEqualAsStringsAreTheSameWidgetToTheDiff() throws {
        func page(_ ids: [String]) -> String {
            #"{"page": {"sections": [{"id": "s", "widgets": ["# + ids.map { #"{"type": "separator", "id": "\#($0)"}"# }.joined(separator: ",") + "]}]}}"
        }
        let a = try decode(page(["caf\u{E9}", "K", "x"])).page
        let b = try decode(page(["x", "cafe\u{301}", "\u{212A}"])).page
        #expect(a.sections[0].widgets[0].id.utf8.count != b.sections[0].widgets[1].id.utf8.count, "spelled differently")
        let diff = PageDiff(old: a, new: b)
        #expect(diff.widgets.inserted.isEmpty && diff.widgets.removed.isEmpty)
        #expect(diff.widgets.moved.map(\.id) == ["x"])
        #expect(diff.applied(to: .init(a)) == .init(b))
    }
}
