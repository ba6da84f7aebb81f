import Testing
@testable import FlowBenchmarks

/// The `--baseline` gate with the default thresholds: a 2% rise of either deterministic
/// metric fails, the measured noise of clean reruns does not.
@Suite struct BaselineGateTests {
    func report(allocations: Double, instructions: Double, wall: UInt64) -> Report {
        let benchmark = Suites.all.first { $0.gates && $0.quick }!
        let worker = WorkerResult(name: benchmark.name, times: [wall], allocationsPerOp: allocations, bytesPerOp: nil, widgetsPerOp: nil)
        var result = BenchmarkResult(benchmark: benchmark, worker: worker)
        result.instructions = .measured(instructions)
        return Report(results: [result], scaling: [], quick: true, missing: [], seconds: 1, instructionsAvailable: true)
    }

    @Test func theDefaultsCatchTwoPercentAndIgnoreTheNoise() {
        let baseline = Baseline(report(allocations: 6181, instructions: 13_110_867, wall: 1_650_000))
        func gate(_ a: Double, _ i: Double, _ w: UInt64, gateWall: Bool = false) -> BaselineComparison {
            baseline.compare(report(allocations: a, instructions: i, wall: w), thresholds: .defaults, gateWall: gateWall)
        }
        #expect(gate(6181 * 1.02, 13_110_867, 1_650_000).regressions.map(\.metric) == ["allocations/op"])
        #expect(gate(6181, 13_110_867 * 1.02, 1_650_000).regressions.map(\.metric) == ["instructions/op"])
        #expect(!gate(6181 * 1.0006, 13_110_867 * 1.0002, 2_100_000).failed)
        #expect(gate(6181, 13_110_867, 2_500_000, gateWall: true).failed)
        #expect(!gate(6181, 13_110_867, 1_950_000, gateWall: true).failed)
    }

    @Test func oneThresholdForEveryMetricStillWorks() {
        let baseline = Baseline(report(allocations: 100, instructions: 1000, wall: 1000))
        let comparison = baseline.compare(report(allocations: 104, instructions: 1000, wall: 1000), thresholdPercent: 5, gateWall: false)
        #expect(!comparison.failed)
        #expect(comparison.thresholds == GateThresholds(uniform: 5))
    }

    /// A page decode's retained heap gates like a count: the baseline keeps it for page
    /// decodes only, a rise past the allocations' threshold fails, and it survives the file.
    @Test func retainedBytesOfAPageDecodeGate() throws {
        func decode(retained: Int?) -> Report {
            let benchmark = Suites.all.first { $0.name == "page.decode.fast/1k" }!
            var worker = WorkerResult(name: benchmark.name, times: [1_000], allocationsPerOp: 6181, bytesPerOp: 380_000, widgetsPerOp: 1000)
            worker.retainedBytes = retained
            var result = BenchmarkResult(benchmark: benchmark, worker: worker)
            result.instructions = .measured(13_000_000)
            return Report(results: [result], scaling: [], quick: true, missing: [], seconds: 1, instructionsAvailable: true)
        }
        let baseline = try Baseline(bytes: Baseline(decode(retained: 1_500_000)).json())
        #expect(baseline.entries["page.decode.fast/1k"]?.retained == 1_500_000)
        #expect(baseline.compare(decode(retained: 1_530_000), thresholds: .defaults, gateWall: false).regressions.map(\.metric) == ["retained bytes"])
        #expect(!baseline.compare(decode(retained: 1_500_100), thresholds: .defaults, gateWall: false).failed)
        #expect(!baseline.compare(decode(retained: nil), thresholds: .defaults, gateWall: false).failed, "not measured: nothing to compare")
        // Other benchmarks keep no retained figure.
        #expect(Baseline(report(allocations: 1, instructions: 1, wall: 1)).entries.values.allSatisfy { $0.retained == nil })
    }

    /// The cold decode's resident growth, as a multiple of the input, gates for the largest
    /// page the run decodes (and only that one): a rise past the allocations' threshold
    /// fails, and the figure survives the file.
    @Test func residentGrowthOfTheLargestDecodeGatesAsAMultipleOfItsInput() throws {
        func decodes(growth10k: Int?, growth1k: Int = 1_600_000) -> Report {
            let results = [("page.decode.fast/1k", 380_000, growth1k), ("page.decode.fast/10k", 3_800_000, growth10k)].map { name, bytes, growth in
                let benchmark = Suites.all.first { $0.name == name }!
                var worker = WorkerResult(name: name, times: [1_000], allocationsPerOp: 6181, bytesPerOp: bytes, widgetsPerOp: bytes / 380)
                worker.rssGrowth = growth
                var result = BenchmarkResult(benchmark: benchmark, worker: worker)
                result.instructions = .measured(13_000_000)
                return result
            }
            return Report(results: results, scaling: [], quick: true, missing: [], seconds: 1, instructionsAvailable: true)
        }
        let baseline = try Baseline(bytes: Baseline(decodes(growth10k: 11_400_000)).json())
        #expect(baseline.entries["page.decode.fast/10k"]?.growthRatio == 3.0)
        #expect(baseline.entries["page.decode.fast/1k"]?.growthRatio == nil, "only the largest input's growth is kept")
        let grown = baseline.compare(decodes(growth10k: 11_700_000), thresholds: .defaults, gateWall: false)
        #expect(grown.regressions.map(\.metric) == ["resident growth / input"])
        #expect(grown.regressions.first?.text.contains("3.000x -> 3.079x") == true)
        #expect(!baseline.compare(decodes(growth10k: 11_450_000), thresholds: .defaults, gateWall: false).failed)
        #expect(!baseline.compare(decodes(growth10k: 11_400_000, growth1k: 3_000_000), thresholds: .defaults, gateWall: false).failed,
                "the smaller decode's growth is shown, not gated")
        #expect(!baseline.compare(decodes(growth10k: nil), thresholds: .defaults, gateWall: false).failed, "not measured: nothing to compare")
    }
}
