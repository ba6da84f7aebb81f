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
}
