import Foundation
import FlowJSON
import Testing
@testable import FlowBenchmarks

/// The trend of a history: steps past the threshold, drift, and the latest run's verdict.
@Suite struct TrendTests {
    /// Ten clean runs, then one whose decode costs 3% more instructions.
    func historyWithAStep(_ size: Double = 0.03, metric: Trend.Metric = .instructions,
                          before: [HistoryRun] = cleanHistory(10)) -> [HistoryRun] {
        before + [run(before.count, label: "slower") { name, m, value in
            name == "page.decode.fast/1k" && m == metric ? value * (1 + size) : value
        }]
    }

    @Test func aThreePercentStepInTheLatestRunIsFlaggedAndFails() throws {
        let trend = Trend(runs: historyWithAStep())
        #expect(trend.steps.count == 1)
        let step = try #require(trend.steps.first)
        #expect(step.benchmark == "page.decode.fast/1k")
        #expect(step.metric == .instructions)
        #expect(trend.runs[step.to].label == "slower")
        #expect(trend.runs[step.from].label == "c9")
        #expect(abs(step.change - (1.03 / 0.9999 - 1)) < 1e-9)  // c9's count was 0.01% under the base
        #expect(trend.regressions == [step])
        #expect(trend.exitStatus == 2)
        #expect(trend.text().contains("REGRESSION  page.decode.fast/1k  instructions/op +3.01% at slower (from c9)"))
        #expect(trend.markdown().contains("**Latest run `slower`: 1 regression(s)** against `c9`"))
    }

    @Test func tenCleanRunsRaiseNoAlarm() {
        let trend = Trend(runs: cleanHistory(10))
        #expect(trend.steps.isEmpty)
        #expect(trend.regressions.isEmpty)
        #expect(trend.exitStatus == 0)
        #expect(trend.text().contains("Latest run c9 against c8: no regression."))
    }

    @Test func aTwoPercentRegressionOfEitherGatingMetricIsCaughtByTheDefaults() {
        for metric in [Trend.Metric.instructions, .allocations] {
            #expect(Trend(runs: historyWithAStep(0.02, metric: metric)).exitStatus == 2, "\(metric)")
            #expect(Trend(runs: historyWithAStep(0.01, metric: metric)).exitStatus == 0, "\(metric)")
        }
    }

    @Test func wallTimeGatesOnlyWhenAsked() {
        let runs = historyWithAStep(0.5, metric: .wall, before: (0..<5).map { run($0) })
        #expect(Trend(runs: runs).exitStatus == 0)
        #expect(Trend(runs: runs).steps.isEmpty)
        let gated = Trend(runs: runs, gateWall: true)
        #expect(gated.exitStatus == 2)
        #expect(gated.regressions.map(\.metric) == [.wall])
        #expect(gated.regressions.map(\.benchmark) == ["page.decode.fast/1k"])
    }

    @Test func anOlderStepIsHistoryNotAFailure() throws {
        var runs = historyWithAStep()
        runs.append(run(11, label: "after") { name, m, value in
            name == "page.decode.fast/1k" && m == .instructions ? value * 1.03 : value
        })
        let trend = Trend(runs: runs)
        #expect(trend.steps.count == 1)
        #expect(trend.exitStatus == 0)
        let series = try #require(trend.series.first { $0.name == "page.decode.fast/1k" })
        #expect(abs(series.drift(.instructions)! - 0.03) < 0.001)
    }

    @Test func anImprovementIsAStepButNotARegression() {
        let trend = Trend(runs: historyWithAStep(-0.03))
        #expect(trend.steps.count == 1)
        #expect(trend.steps.first!.change < 0)
        #expect(trend.exitStatus == 0)
    }

    @Test func aCompetitorNeverGatesNorSteps() throws {
        let runs = cleanHistory(3) + [run(3) { name, m, value in name == "json.foundation/twitter" && m == .allocations ? value * 2 : value }]
        let trend = Trend(runs: runs)
        #expect(trend.steps.isEmpty)
        #expect(trend.drifts.isEmpty)
        #expect(trend.exitStatus == 0)
        // Still shown, with its figures.
        let competitor = try #require(trend.series.first { $0.name == "json.foundation/twitter" })
        #expect(!competitor.gates)
        #expect(competitor.points(.allocations).last?.value == 4_000)
        #expect(trend.text().contains("json.foundation/twitter (not gated)"))
    }

    @Test func aSlowDriftShowsOverTheWindowWithoutAStep() throws {
        let runs = (0..<10).map { i in
            run(i) { _, m, value in m == .instructions ? value * (1 + 0.005 * Double(i)) : value }
        }
        let trend = Trend(runs: runs)
        #expect(trend.steps.isEmpty)
        let series = try #require(trend.series.first)
        #expect(abs(series.drift(.instructions)! - 0.045) < 1e-9)
        // Informational: listed, but the latest run (+0.5%) did not regress.
        #expect(trend.drifts.map(\.benchmark) == ["page.decode.fast/1k", "page.mutate.replace/1k"])
        #expect(trend.drifts.allSatisfy { $0.metric == .instructions && runs[$0.from].label == "c0" && runs[$0.to].label == "c9" })
        #expect(trend.exitStatus == 0)
        #expect(trend.text().contains("Drift past the threshold from the first run of the window to the last (2):"))
        #expect(trend.text().contains("page.decode.fast/1k  instructions/op +4.50% from c0 to c9: 13,110,867 -> 13,700,856.015"))
        #expect(Trend(runs: cleanHistory(10)).drifts.isEmpty)
    }

    @Test func figuresAreWrittenInFull() {
        #expect(Format.exact(13_110_867) == "13,110,867")
        #expect(Format.exact(1761.988) == "1,761.988")
        #expect(Format.exact(9.398) == "9.398")
        #expect(Format.exact(-1500) == "-1,500")
        #expect(Format.exact(0) == "0")
        #expect(Format.change(0.0312) == "+3.12%")
        #expect(Format.change(0.00015) == "+0.015%")
        #expect(Format.change(-0.000001) == "+0.00%")
    }

    @Test func theWindowIsTheLastNRuns() {
        let runs = historyWithAStep() + cleanHistory(2).map { r in var r = r; r.label = "later-" + r.label; return r }
        let all = Trend(runs: runs)
        #expect(all.steps.count == 2)  // up at "slower", back down at the first later run
        let window = Trend(runs: runs, last: 2)
        #expect(window.runs.map(\.label) == ["later-c0", "later-c1"])
        #expect(window.earlierRuns == 11)
        #expect(window.steps.isEmpty)
    }

    @Test func aStepWithANewToolchainSaysSo() throws {
        let runs = cleanHistory(2) + [run(2, toolchain: "Swift version 6.4") { _, m, v in m == .instructions ? v * 1.05 : v }]
        let trend = Trend(runs: runs)
        #expect(trend.steps.count == 2)
        #expect(trend.steps.allSatisfy { $0.environmentChanged })
        #expect(trend.text().contains("[toolchain or machine changed]"))
    }

    @Test func aMetricMissingFromTheRunBeforeIsComparedWithItsLastMeasurement() {
        var middle = run(1)
        for i in middle.benchmarks.indices { middle.benchmarks[i].instructions = nil }
        let runs = [run(0), middle, run(2) { _, m, v in m == .instructions ? v * 1.03 : v }]
        let trend = Trend(runs: runs)
        #expect(trend.regressions.map { trend.runs[$0.from].label } == ["c0", "c0"])
        #expect(trend.exitStatus == 2)
    }

    @Test func theJSONSaysWhatTheTextSays() throws {
        let trend = Trend(runs: historyWithAStep())
        let value = try JSONValue(parsing: trend.json())
        #expect(value["schema"]?.stringValue == "flow-bench-trend/1")
        #expect(value["regressed"]?.boolValue == true)
        #expect(value["regressions"]?.arrayValue?.count == 1)
        #expect(value["regressions"]?.arrayValue?.first?["metric"]?.stringValue == "instructions_per_op")
        #expect(value["runs"]?.arrayValue?.count == 11)
        #expect(value["thresholds_pct"]?["instructions"]?.numberValue?.doubleValue == 1.5)
    }

    @Test func theChartHasALinePerGatedMetricAndMarksTheStep() {
        let svg = TrendChart.svg(Trend(runs: historyWithAStep()))
        // Two gated benchmarks, each with instructions and allocations; the competitor is not charted.
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 4)
        #expect(svg.contains("page.decode.fast/1k"))
        #expect(!svg.contains("json.foundation/twitter"))
        #expect(svg.components(separatedBy: "r=\"4.5\" fill=\"\(TrendChart.regressionColor)\"").count - 1 == 2)  // legend and the step
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>"))
    }
}
