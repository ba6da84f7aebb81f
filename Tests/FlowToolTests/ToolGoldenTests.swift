import Foundation
import Testing
import FlowCore
import FlowJSON
import FlowWidgets
import FlowTool
import FlowWorkloads

/// The tool's output on the corpus, compared whole with the golden files beside each case
/// (`NAME.golden.json`, indented for review): `flow inspect --format json` on every page,
/// `flow mutate` on every mutation case, `flow diff` on every refresh pair, `flow merge` on the
/// feed. Run with `UPDATE_GOLDENS=1` to rewrite them after a deliberate change, then read the
/// diff. (FlowCoreTests' `CorpusGoldenTests` reads the same files in the core's own terms.)
@Suite struct ToolGoldenTests {
    static let update = ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1"
    static let starterRegistry = FlowWidgets.registry
    static let packageRoot = FuzzTargets.defaultRepositoryRoot

    /// The `*.json` files of `Corpus/<folder>` ending in `suffix`, golden files aside, sorted.
    static func corpusFiles(_ folder: String, suffix: String = ".json") -> [URL] {
        let dir = packageRoot.appendingPathComponent("Corpus").appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) && !$0.hasSuffix(".golden.json") }.sorted().map { dir.appendingPathComponent($0) }
    }

    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try #require(FileManager.default.contents(atPath: url.path), "\(url.path) is missing"))
    }

    static func inspect(_ url: URL) throws -> [UInt8] {
        let options = PageDecodingOptions(bareRoot: url.lastPathComponent == "bare_root.json")
        let input = try bytes(url)
        do {
            let decoded = try PageDecoder(registry: starterRegistry, options: options).decode(input)
            return InspectReport(page: decoded.page, diagnostics: decoded.diagnostics, bytes: input.count).json
        } catch {
            return error.json
        }
    }

    @Test func everyCorpusPageMatchesItsGoldenInspectOutput() throws {
        let pages = Self.corpusFiles("pages")
        #expect(pages.count >= 12)
        for url in pages {
            try Self.check(try Self.inspect(url), golden: url.deletingPathExtension().appendingPathExtension("golden.json"))
        }
    }
}

extension ToolGoldenTests {
    /// `actual` against the golden file, whole (`UPDATE_GOLDENS=1`: rewrites the file instead).
    static func check(_ actual: [UInt8], golden: URL) throws {
        let value = try JSONValue(parsing: actual)
        if update {
            try Data(JSONWriter.pretty(value)).write(to: golden)
            return
        }
        guard let expected = FileManager.default.contents(atPath: golden.path) else {
            Issue.record("\(golden.lastPathComponent) is missing (run UPDATE_GOLDENS=1 swift test --filter ToolGoldenTests)")
            return
        }
        let expectedValue = try JSONValue(parsing: [UInt8](expected))
        #expect(value == expectedValue, "\(golden.lastPathComponent) differs")
        // Order matters for diagnostics (document order); JSONValue equality ignores
        // member order but not element order, so this holds them to it.
        #expect(value["diagnostics"] == expectedValue["diagnostics"], "\(golden.lastPathComponent): diagnostics order")
    }

    /// `flow mutate` on every mutation case, default and transactional.
    @Test func everyMutationCaseMatchesItsGolden() throws {
        let pages = Self.corpusFiles("mutations", suffix: ".page.json")
        #expect(pages.count >= 10)
        let decoder = PageDecoder(registry: Self.starterRegistry)
        for pageURL in pages {
            let name = pageURL.lastPathComponent.replacingOccurrences(of: ".page.json", with: "")
            let dir = pageURL.deletingLastPathComponent()
            let decoded = try decoder.decode(try Self.bytes(pageURL))
            let responseBytes = try Self.bytes(dir.appendingPathComponent("\(name).response.json"))
            for transactional in [false, true] {
                let golden = dir.appendingPathComponent("\(name)\(transactional ? ".transactional" : "").golden.json")
                let output: [UInt8]
                do {
                    let response = try decoder.decodeMutations(responseBytes)
                    var page = decoded.page
                    let outcome = decoder.apply(response, to: &page, transactional: transactional)
                    output = InspectReport(page: page, diagnostics: decoded.diagnostics + response.diagnostics + outcome.diagnostics,
                                           bytes: responseBytes.count).mutationJSON(toast: response.toast, committed: outcome.committed)
                } catch {
                    output = error.json
                }
                try Self.check(output, golden: golden)
            }
        }
    }

    /// `flow diff` on every refresh pair.
    @Test func everyDiffCaseMatchesItsGolden() throws {
        let olds = Self.corpusFiles("diff", suffix: ".old.json")
        #expect(olds.count >= 6)
        for oldURL in olds {
            let name = oldURL.lastPathComponent.replacingOccurrences(of: ".old.json", with: "")
            let dir = oldURL.deletingLastPathComponent()
            let decoder = PageDecoder(registry: Self.starterRegistry)
            let old = try decoder.decode(try Self.bytes(oldURL)).page
            let new = try decoder.decode(try Self.bytes(dir.appendingPathComponent("\(name).new.json"))).page
            let diff = PageDiff(old: old, new: new)
            try Self.check(diff.json, golden: dir.appendingPathComponent("\(name).golden.json"))
        }
    }

    /// `flow merge` of the feed's two pages.
    @Test func theFeedMergeMatchesItsGolden() throws {
        let dir = Self.packageRoot.appendingPathComponent("Corpus/pages")
        let decoder = PageDecoder(registry: Self.starterRegistry)
        let first = try decoder.decode(try Self.bytes(dir.appendingPathComponent("feed_page1.json")))
        var page = first.page
        let next = try Self.bytes(dir.appendingPathComponent("feed_page2.json"))
        let diagnostics = try decoder.append(nextPage: next, to: &page)
        try Self.check(InspectReport(page: page, diagnostics: first.diagnostics + diagnostics, bytes: next.count).json,
                       golden: Self.packageRoot.appendingPathComponent("Corpus/merge/feed_page1+feed_page2.golden.json"))
    }
}

extension ToolGoldenTests {
    /// `stats.widgets` of the inspect output is ``Page/widgetCount``: nested widgets included.
    @Test func theInspectStatsCountEveryWidgetAsThePageDoes() throws {
        let bytes = PageGenerator(PageGenerator.Options(widgets: 2000, seed: 5, nesting: 3)).generate()
        let decoded = try PageDecoder(registry: Self.starterRegistry).decode(bytes)
        #expect(decoded.page.widgetCount > decoded.page.allWidgets.count, "the generated page holds nested widgets")
        let report = try JSONValue(parsing: InspectReport(page: decoded.page, diagnostics: decoded.diagnostics, bytes: bytes.count).json)
        #expect(report["stats"]?["widgets"]?.numberValue?.int64Value == Int64(decoded.page.widgetCount), "stats.widgets is the page's count")
    }
}
