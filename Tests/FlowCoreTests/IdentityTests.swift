import Testing
import FlowCore
import FlowJSON
import FlowWidgets

/// the page contract, "Identity and renaming": ids present, unique, positional when absent, renamed `x#k` when taken.
@Suite struct IdentityTests {
    func widgets(_ list: [String]) -> String {
        "[" + list.joined(separator: ",") + "]"
    }

    func titled(id: String?) -> String {
        let idPart = id.map { #""id": "\#($0)", "# } ?? ""
        return #"{"type": "title_block", \#(idPart)"data": {"title": "t"}}"#
    }

    @Test func renamingFollowsTheSpecExample() throws {
        let decoded = try decode(#"{"page": {"sections": [{"widgets": "# + widgets([titled(id: "x"), titled(id: "x"), titled(id: "x#2"), titled(id: "x")]) + "}]}}")
        #expect(ids(decoded.page) == ["x", "x#2", "x#2#2", "x#3"])
        #expect(keys(decoded.diagnostics) == [
            "duplicate_id page.sections.0.widgets.1 (title_block)", "duplicate_id page.sections.0.widgets.2 (title_block)",
            "duplicate_id page.sections.0.widgets.3 (title_block)",
        ])
    }

    @Test func claimingFollowsRegionOrder() throws {
        // The footer is written first in the document, but claims last.
        let decoded = try decode("""
            {"page": {"footer": {"widgets": [\(titled(id: "a"))]}, "header": {"widgets": [\(titled(id: "a"))]},
              "sections": [{"header": \(titled(id: "a")), "widgets": [\(titled(id: "a"))]}]}}
            """)
        #expect(ids(decoded.page) == ["a", "a#2", "a#3", "a#4"])
        #expect(decoded.page.footer?.widgets.first?.id == "a#4")
        #expect(decoded.diagnostics.map(\.path) == ["page.sections.0.header", "page.sections.0.widgets.0", "page.footer.widgets.0"])
    }

    @Test func emptyAndNonStringIdsArePositional() throws {
        let decoded = try decode(#"{"page": {"id": "", "sections": [{"id": "", "widgets": [{"type": "title_block", "id": "", "data": {"title": "t"}}]}]}}"#)
        #expect(decoded.page.id == "page@page")
        #expect(decoded.page.sections[0].id == "section@page.sections.0")
        #expect(ids(decoded.page) == ["title_block@page.sections.0.widgets.0"])
        #expect(decoded.diagnostics.isEmpty, "an empty string counts as absent")
    }

    @Test func positionalIdsCanCollideWithExplicitOnes() throws {
        let decoded = try decode(#"{"page": {"sections": [{"widgets": [{"type": "title_block", "id": "title_block@page.sections.0.widgets.1", "data": {"title": "t"}}, {"type": "title_block", "data": {"title": "u"}}]}]}}"#)
        #expect(ids(decoded.page) == ["title_block@page.sections.0.widgets.1", "title_block@page.sections.0.widgets.1#2"])
    }

    @Test func sectionsAreUniqueInTheirOwnNamespace() throws {
        let decoded = try decode(#"{"page": {"sections": [{"id": "s"}, {"id": "s"}, {"id": "s", "widgets": [{"type": "separator", "id": "s"}]}]}}"#)
        #expect(decoded.page.sections.map(\.id) == ["s", "s#2", "s#3"])
        #expect(ids(decoded.page) == ["s"], "widgets and sections do not share a namespace")
        #expect(keys(decoded.diagnostics) == ["duplicate_id page.sections.1", "duplicate_id page.sections.2"])
    }

    @Test func skippedWidgetsClaimNothing() throws {
        let decoded = try decode(#"{"page": {"sections": [{"widgets": [{"type": "hologram", "id": "x"}, {"type": "title_block", "id": "x", "data": {}}, \#(titled(id: "x"))]}]}}"#)
        #expect(ids(decoded.page) == ["x"])
        #expect(!decoded.diagnostics.contains { $0.kind == .duplicateID })
    }

    @Test func aHundredThousandWidgetsWithOneIdAllBecomeUnique() throws {
        let n = 100_000
        let body = Array(repeating: #"{"type":"separator","id":"same"}"#, count: n).joined(separator: ",")
        let decoded = try decode(#"{"page":{"sections":[{"widgets":["# + body + "]}]}}")
        let all = ids(decoded.page)
        #expect(all.count == n)
        #expect(Set(all).count == n)
        #expect(all.first == "same" && all[1] == "same#2" && all.last == "same#\(n)")
        #expect(decoded.diagnostics.count == n - 1)
    }

    @Test func nameClaimsNeverHandOutAGeneratedNameTwice() {
        var claims = NameClaims()
        #expect(claims.claim("x").name == "x")
        #expect(claims.claim("x").name == "x#2")
        claims.release("x#2")
        #expect(claims.claim("x").name == "x#3", "x#2 was generated: retired for good")
        #expect(claims.claim("x#2").name == "x#2#2", "not even when asked for explicitly")
        claims.release("x")
        #expect(claims.claim("x").name == "x", "an explicit name that is free again may be claimed again")
    }

    @Test func aRenameNeverHandsOutANameThatWasHeld() {
        var claims = NameClaims()
        _ = claims.claim("x")
        _ = claims.claim("x#3")  // explicit
        #expect(claims.claim("x").name == "x#2")
        #expect(claims.claim("x").name == "x#4")  // x#3 taken explicitly
        claims.release("x#3")
        #expect(claims.claim("x").name == "x#5", "x#3 was held: a rename skips it even when it is free")
        #expect(claims.wasHeld("x#3") && !claims.isTaken("x#3"))
        #expect(claims.claim("x#3").name == "x#3", "asked for by name, a freed explicit id is granted")
    }

    @Test func aRenameSkipsAnExplicitSuffixHeldAndFreedAboveTheCounter() {
        var claims = NameClaims()
        _ = claims.claim("x")
        _ = claims.claim("x#2")  // explicit, then removed
        claims.release("x#2")
        #expect(claims.claim("x").name == "x#3")
        #expect(claims.claim("x").name == "x#4")
    }
}
