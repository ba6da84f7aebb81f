import Foundation
import Testing
import FlowCore
import FlowJSON
import FlowWidgets
import FlowTool
import FlowWorkloads

/// Each corpus page has its expected `flow inspect --format json` output beside it
/// (`NAME.golden.json`, indented for review). Run with `UPDATE_GOLDENS=1` to rewrite them
/// after a deliberate change, then read the diff.
@Suite struct GoldenTests {
    static let update = ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1"

    static func inspect(_ url: URL) -> [UInt8] {
        let options = PageDecodingOptions(bareRoot: url.lastPathComponent == "bare_root.json")
        let input = bytes(url)
        do {
            let decoded = try PageDecoder(registry: starterRegistry, options: options).decode(input)
            return InspectReport(page: decoded.page, diagnostics: decoded.diagnostics, bytes: input.count).json
        } catch {
            return error.json
        }
    }

    @Test func everyCorpusPageMatchesItsGoldenInspectOutput() throws {
        let pages = corpusFiles("pages")
        #expect(pages.count >= 12)
        for url in pages {
            let golden = url.deletingPathExtension().appendingPathExtension("golden.json")
            let actual = try JSONValue(parsing: Self.inspect(url))
            if Self.update {
                try Data(JSONWriter.pretty(actual)).write(to: golden)
                continue
            }
            guard let expectedBytes = FileManager.default.contents(atPath: golden.path) else {
                Issue.record("\(golden.lastPathComponent) is missing (run UPDATE_GOLDENS=1 swift test --filter Golden)")
                continue
            }
            let expected = try JSONValue(parsing: [UInt8](expectedBytes))
            #expect(actual == expected, "\(url.lastPathComponent): inspect output differs from \(golden.lastPathComponent)")
            // Order matters for diagnostics (document order); JSONValue equality ignores
            // member order but not element order, so this holds them to it.
            #expect(actual["diagnostics"] == expected["diagnostics"])
        }
    }
}

extension GoldenTests {
    static func check(_ actual: [UInt8], golden: URL) throws {
        let value = try JSONValue(parsing: actual)
        if update {
            try Data(JSONWriter.pretty(value)).write(to: golden)
            return
        }
        guard let expected = FileManager.default.contents(atPath: golden.path) else {
            Issue.record("\(golden.lastPathComponent) is missing (run UPDATE_GOLDENS=1 swift test --filter Golden)")
            return
        }
        let expectedValue = try JSONValue(parsing: [UInt8](expected))
        #expect(value == expectedValue, "\(golden.lastPathComponent) differs")
        #expect(value["diagnostics"] == expectedValue["diagnostics"], "\(golden.lastPathComponent): diagnostics order")
    }

    /// `flow mutate` on every mutation case, default and transactional.
    @Test func everyMutationCaseMatchesItsGolden() throws {
        let pages = corpusFiles("mutations", suffix: ".page.json")
        #expect(pages.count >= 10)
        let decoder = PageDecoder(registry: starterRegistry)
        for pageURL in pages {
            let name = pageURL.lastPathComponent.replacingOccurrences(of: ".page.json", with: "")
            let dir = pageURL.deletingLastPathComponent()
            let decoded = try decoder.decode(bytes(pageURL))
            let responseBytes = bytes(dir.appendingPathComponent("\(name).response.json"))
            for transactional in [false, true] {
                let golden = dir.appendingPathComponent("\(name)\(transactional ? ".transactional" : "").golden.json")
                let output: [UInt8]
                do {
                    let response = try decoder.decodeMutations(responseBytes)
                    var page = decoded.page
                    let outcome = decoder.apply(response, to: &page, transactional: transactional)
                    #expect(page.identityViolations().isEmpty, "\(name): \(page.identityViolations())")
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
        let olds = corpusFiles("diff", suffix: ".old.json")
        #expect(olds.count >= 6)
        for oldURL in olds {
            let name = oldURL.lastPathComponent.replacingOccurrences(of: ".old.json", with: "")
            let dir = oldURL.deletingLastPathComponent()
            let old = try decode(String(decoding: bytes(oldURL), as: UTF8.self)).page
            let new = try decode(String(decoding: bytes(dir.appendingPathComponent("\(name).new.json")), as: UTF8.self)).page
            let diff = PageDiff(old: old, new: new)
            #expect(diff.applied(to: .init(old)) == .init(new), "\(name): the changeset does not rebuild the new lists")
            try Self.check(diff.json, golden: dir.appendingPathComponent("\(name).golden.json"))
        }
    }

    /// `flow merge` of the feed's two pages.
    @Test func theFeedMergeMatchesItsGolden() throws {
        let dir = packageRoot.appendingPathComponent("Corpus/pages")
        let decoder = PageDecoder(registry: starterRegistry)
        let first = try decoder.decode(bytes(dir.appendingPathComponent("feed_page1.json")))
        var page = first.page
        let next = bytes(dir.appendingPathComponent("feed_page2.json"))
        let diagnostics = try decoder.append(nextPage: next, to: &page)
        #expect(page.identityViolations().isEmpty)
        #expect(page.pagination?.postback?.description == #"{"cursor":9007199254741001}"#)
        try Self.check(InspectReport(page: page, diagnostics: first.diagnostics + diagnostics, bytes: next.count).json,
                       golden: packageRoot.appendingPathComponent("Corpus/merge/feed_page1+feed_page2.golden.json"))
    }
}
