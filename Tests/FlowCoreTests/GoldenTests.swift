import Foundation
import Testing
import FlowCore
import FlowJSON
import FlowWidgets
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
