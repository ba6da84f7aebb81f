import Foundation
import Testing
import FlowCore
@testable import FlowTool
import FlowWidgets
import FlowWorkloads

/// `flow generate --like PAGE`: a page of any size drawn from a team's own page.
@Suite struct GenerateLikeTests {
    /// Starter types, a section header, an accordion whose items carry ids, a widget of a type
    /// the starter registry lacks, and a page header and footer.
    static let source = #"""
        {"page": {"id": "home", "header": {"widgets": [{"type": "separator", "id": "top"}]},
          "sections": [
            {"id": "a", "header": {"type": "title_block", "id": "a_title", "data": {"title": "A"}},
             "widgets": [{"type": "banner", "id": "b1", "data": {"image": {"url": "u"}}},
                         {"type": "separator", "id": "s1"},
                         {"type": "accordion", "id": "acc", "data": {"header": "More", "items": [
                            {"type": "separator", "id": "inner"}]}}]},
            {"id": "b", "widgets": [{"type": "price_tag", "id": "p1", "data": {"amount": 1}},
                                    {"type": "title_block", "id": "t1", "data": {"title": "T"}}]}],
          "footer": {"widgets": [{"type": "separator", "id": "bottom"}]},
          "next": {"url": "/more"}}}
        """#

    static func generate(_ widgets: Int, seed: UInt64 = 1, sections: Int? = nil, from text: String = source) throws -> [UInt8] {
        try SampledPageGenerator(widgets: widgets, seed: seed, sections: sections).generate(like: Array(text.utf8))
    }

    @Test func drawsNWidgetsWithUniqueIdsDeterministically() throws {
        let bytes = try Self.generate(500, seed: 7)
        #expect(try Self.generate(500, seed: 7) == bytes, "same arguments, same bytes")
        #expect(try Self.generate(500, seed: 8) != bytes, "another seed draws otherwise")

        let decoded = try PageDecoder(registry: FlowWidgets.registry).decode(bytes)
        #expect(decoded.diagnostics.filter { $0.kind == .duplicateID }.isEmpty, "\(decoded.diagnostics.prefix(5))")
        let page = decoded.page
        let unknown = decoded.diagnostics.filter { $0.kind == .unknownType }.count
        #expect(decoded.diagnostics.count == unknown, "nothing but the unknown price_tag: \(decoded.diagnostics.prefix(3))")
        #expect(page.sections.reduce(0) { $0 + $1.widgets.count } + unknown == 500, "every drawn widget is in a section")
        #expect(unknown > 0 && unknown < 500, "price_tag is drawn too, as written")
        #expect(page.id == "home")
        #expect(page.header?.widgets.map(\.id) == ["top"] && page.footer?.widgets.map(\.id) == ["bottom"], "kept once, as they are")
        #expect(page.sections.count == 167, "PAGE's 3 widgets per section (5 in 2 sections, rounded up)")
        #expect(Set(page.sections.map(\.id)).count == page.sections.count)
        #expect(page.sections.prefix(4).map(\.id) == ["a", "b", "a~s1", "b~s1"], "templates cycle; a reuse is suffixed")
        #expect(page.sections[2].header?.id == "a_title~s1")
        let ids = page.allWidgets.map(\.id)
        #expect(Set(ids).count == ids.count)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""next":{"url":"/more"}"#))
        #expect(!text.contains(#""id":"inner""#) && text.contains(#""id":"inner~"#), "nested widgets are renamed with their widget")
    }

    @Test func sectionsAndBareRootAreHonoured() throws {
        let spread = try PageDecoder(registry: FlowWidgets.registry).decode(try Self.generate(100, sections: 4)).page
        #expect(spread.sections.count == 4)
        #expect(spread.sections.map(\.widgets.count).reduce(0, +) <= 100)

        let bare = #"{"id": "p", "sections": [{"widgets": [{"type": "separator", "id": "x"}]}]}"#
        let bytes = try Self.generate(10, sections: 1, from: bare)
        let page = try PageDecoder(registry: FlowWidgets.registry, options: PageDecodingOptions(bareRoot: true)).decode(bytes).page
        #expect(page.sections.count == 1 && page.sections[0].widgets.map(\.id) == (0..<10).map { "x~\($0)" })
    }

    @Test func aPageWithoutWidgetsOrNotAPageIsRefused() {
        #expect(throws: SampledPageGenerator.Failure.self) { try Self.generate(5, from: #"{"page": {"sections": []}}"#) }
        #expect(throws: SampledPageGenerator.Failure.self) { try Self.generate(5, from: #"{"nothing": 1}"#) }
        #expect(throws: SampledPageGenerator.Failure.self) { try Self.generate(5, from: "[1]") }
        #expect(throws: SampledPageGenerator.Failure.self) { try Self.generate(5, from: "") }
    }

    @Test func theCommandLineChecksItsArguments() throws {
        let registry = FlowWidgets.registry
        #expect(FlowTool.run(arguments: ["generate", "--like", "/no/such/page.json", "--widgets", "5"], registry: registry) == 66)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flow-like-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("home.json").path
        try Data(Self.source.utf8).write(to: URL(fileURLWithPath: path))
        #expect(FlowTool.run(arguments: ["generate", "--like", path, "--widgets", "5", "--bad-rate", "0.1"], registry: registry) == 64)
        #expect(FlowTool.run(arguments: ["generate", "--like", path], registry: registry) == 64, "--widgets is required")
        let empty = dir.appendingPathComponent("empty.json").path
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(FlowTool.run(arguments: ["generate", "--like", empty, "--widgets", "5"], registry: registry) == 1)
    }
}
