import FlowJSON
import Foundation
import Testing
@testable import FlowBenchmarks

/// `flow profile --speedscope`: the folded stacks as one sampled speedscope profile, each
/// frame named once, each stack a sample weighted by its instructions; valid against
/// speedscope's own schema (from ../shared/tools when it is beside the clone).
@Suite struct SpeedscopeExportTests {
    static let stacks = FoldedStacks(counts: ["decode;scan": 500, "decode;widgets;title_block": 300, "decode": 200, "decode;widgets": 0])

    @Test func stacksBecomeWeightedSamplesOverSharedFrames() throws {
        let json = try JSONValue(parsing: Self.stacks.speedscope(name: "shop.json", exporter: "flow profile"))
        #expect(json["$schema"]?.stringValue == "https://www.speedscope.app/file-format-schema.json")
        let frames = try #require(json["shared"]?["frames"]?.arrayValue).compactMap { $0["name"]?.stringValue }
        #expect(frames == ["decode", "scan", "widgets", "title_block"], "each name once, in order of first use")
        let profile = try #require(json["profiles"]?.arrayValue?.first)
        #expect(profile["type"]?.stringValue == "sampled" && profile["unit"]?.stringValue == "none")
        let samples = try #require(profile["samples"]?.arrayValue).map { $0.arrayValue?.compactMap { $0.numberValue?.doubleValue } ?? [] }
        #expect(samples == [[0], [0, 1], [0, 2, 3]], "stacks in name order; a stack of no instructions left out")
        let weights = try #require(profile["weights"]?.arrayValue).compactMap { $0.numberValue?.doubleValue }
        #expect(weights == [200, 500, 300])
        #expect(profile["endValue"]?.numberValue?.doubleValue == 1000 && profile["startValue"]?.numberValue?.doubleValue == 0)
        #expect(json["exporter"]?.stringValue == "flow profile" && json["name"]?.stringValue == "shop.json")
    }

    static let schema: URL? = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        let file = url.appendingPathComponent("shared/tools/speedscope/file-format-schema.json")
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }()

    @Test(.enabled(if: SpeedscopeExportTests.schema != nil, "../shared/tools/speedscope is not beside this clone: schema check skipped"),
          .enabled(if: ExportFormatTests.pythonHasJSONSchema, "python3 lacks jsonschema (pip install jsonschema): schema check skipped"))
    func theFileValidatesAgainstSpeedscopesSchema() throws {
        let schema = try String(contentsOf: Self.schema!, encoding: .utf8)
        #expect(try ExportFormatTests.schemaErrors(Self.stacks.speedscope(name: "shop.json", exporter: "flow profile"), schema) == nil)
        // What speedscope would refuse, the check refuses: a sample's frame that is not a number.
        let broken = Array(#"{"$schema": "https://www.speedscope.app/file-format-schema.json", "shared": {"frames": []}, "profiles": [{"type": "sampled", "name": "x", "unit": "none", "startValue": 0, "endValue": 1, "samples": [["a"]], "weights": [1]}]}"#.utf8)
        #expect(try ExportFormatTests.schemaErrors(broken, schema) != nil)
    }
}
