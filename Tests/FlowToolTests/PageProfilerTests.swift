import Foundation
import Testing
import FlowBenchmarks
import FlowCore
import FlowJSON
import FlowWidgets
import FlowWorkloads

/// `flow profile`'s figures: the stages account for the total, the types for the widgets.
@Suite struct PageProfilerTests {
    static let bytes = PageGenerator(PageGenerator.Options(widgets: 400, seed: 3, badRate: 0.05)).generate()

    static let profile: PageProfile = {
        var settings = PageProfiler.Settings()
        settings.minTime = 0.05
        settings.minRuns = 5
        settings.maxRuns = 15
        settings.heaviest = 5
        let profiler = try! PageProfiler(bytes: bytes, registry: FlowWidgets.registry, options: PageDecodingOptions())
        return try! profiler.profile(settings)
    }()

    @Test func theStagesAreTheFourOfTheDecodeWithEncodeApart() {
        #expect(Self.profile.stages.map(\.name) == ["scan", "envelope", "content models", "identity"])
        #expect(Self.profile.encode.name == "encode")
    }

    @Test func theStagesAddUpToTheTotal() {
        let p = Self.profile
        let sum = p.stages.reduce(0) { $0 + $1.ns }
        #expect(p.unaccountedNs == p.totalNs - sum)
        // Separately measured medians: noise, not a missing stage (how far: the profile
        // schema in FlowCore.docc's CommandLineOutput.md).
        #expect(abs(p.unaccountedNs) < 0.35 * p.totalNs, "stages \(sum) ns against a total of \(p.totalNs) ns")
    }

    @Test func typeCountsAddUpToTheWidgetsThePageKeeps() throws {
        let p = Self.profile
        let decoded = try PageDecoder(registry: FlowWidgets.registry).decode(Self.bytes)
        #expect(p.widgets == decoded.page.widgetCount)
        #expect(p.types.reduce(0) { $0 + $1.count } == p.widgets)
        #expect(p.types.filter { $0.count > 0 }.allSatisfy { $0.ns != nil }, "every registered type kept is timed")
        #expect(p.types.reduce(0) { $0 + $1.bytes } < p.bytes, "widget bytes are part of the document")
    }

    @Test func theHeaviestWidgetsComeLargestFirstWithTheirPaths() {
        let h = Self.profile.heaviest
        #expect(h.count == 5)
        #expect(h.map(\.bytes) == h.map(\.bytes).sorted(by: >))
        #expect(h.allSatisfy { $0.path.hasPrefix("page.") && $0.ns > 0 })
    }

    @Test func theJSONFollowsTheSchema() throws {
        let value = try JSONValue(parsing: Self.profile.json)
        guard case .object(let o) = value else { Issue.record("not an object"); return }
        #expect(o["schema"] == .string("flow-profile/1"))
        for key in ["bytes", "widgets", "total_ns", "stages", "types", "heaviest", "encode", "unaccounted_ns"] {
            #expect(o[key] != nil, "missing \(key)")
        }
        guard case .array(let stages)? = o["stages"], case .object(let first)? = stages.first else { Issue.record("no stages"); return }
        #expect(first["name"] == .string("scan"))
        #expect(first["allocations"] == .null, "the test process does not link the allocation counter: null, never 0")
    }

    @Test func theTextHasProportionalBars() {
        let text = Self.profile.text(title: "page")
        #expect(text.contains("content models"))
        #expect(text.contains("█"))
    }
}
