import Foundation

/// What a history says over a window of runs (`flow bench trend`): per benchmark a series of
/// its figures, the step changes past the threshold between consecutive runs, the drift from
/// the first run of the window to the last, and the spread of wall time.
///
/// Only the latest run decides the verdict: it regressed when a gating metric rose past its
/// threshold against the benchmark's previous measurement (the run before it, or the last
/// earlier run that measured that metric). Older steps are history, already judged when
/// they were the latest.
public struct Trend: Sendable {
    public enum Metric: String, Sendable, CaseIterable {
        case instructions = "instructions/op"
        case allocations = "allocations/op"
        case wall = "wall median"

        /// The key in JSON output.
        public var key: String {
            switch self {
            case .instructions: "instructions_per_op"
            case .allocations: "allocations_per_op"
            case .wall: "wall_median_ns"
            }
        }

        func value(_ e: HistoryRun.Entry) -> Double? {
            switch self {
            case .instructions: e.instructions
            case .allocations: e.allocations
            case .wall: e.wallMedian
            }
        }

        func threshold(_ t: GateThresholds) -> Double {
            switch self {
            case .instructions: t.instructions
            case .allocations: t.allocations
            case .wall: t.wall
            }
        }
    }

    /// One measurement: which run of the window (index into ``runs``) and the value.
    public struct Point: Sendable, Equatable {
        public let run: Int
        public let value: Double
    }

    /// A change past the threshold between two consecutive measurements of one metric.
    public struct Step: Sendable, Equatable {
        public let benchmark: String
        public let metric: Metric
        /// Indices into ``Trend/runs``: the run before, and the run where it happened.
        public let from: Int
        public let to: Int
        public let before: Double
        public let after: Double
        /// (after - before) / before; +1 when it rose from zero.
        public let change: Double
        /// Whether the toolchain or the machine differs between the two runs.
        public let environmentChanged: Bool
    }

    public struct Series: Sendable {
        public let name: String
        public let gates: Bool
        public let points: [Metric: [Point]]

        public func points(_ metric: Metric) -> [Point] { points[metric] ?? [] }

        /// First to last measurement in the window, as a fraction; nil with fewer than two.
        public func drift(_ metric: Metric) -> Double? {
            let p = points(metric)
            guard p.count >= 2, let first = p.first, let last = p.last else { return nil }
            return Trend.change(first.value, last.value)
        }

        /// Wall medians over the window: smallest, middle, largest.
        public var wallSpread: (min: Double, median: Double, max: Double)? {
            let values = points(.wall).map(\.value).sorted()
            guard let low = values.first, let high = values.last else { return nil }
            return (low, BenchmarkResult.percentile(values, 0.5), high)
        }
    }

    /// The window, oldest first.
    public let runs: [HistoryRun]
    /// Runs of the history before the window (`--last N`).
    public let earlierRuns: Int
    public let thresholds: GateThresholds
    public let gateWall: Bool
    /// In the order of the latest run, then benchmarks only older runs measured.
    public let series: [Series]
    /// Every step past the threshold of a gated benchmark in the window, up or down, oldest
    /// first. Wall time steps are listed only with `gateWall` (without it they are noise).
    public let steps: [Step]

    public init(runs allRuns: [HistoryRun], thresholds: GateThresholds = .defaults, gateWall: Bool = false, last: Int? = nil) {
        let window = last.map { Array(allRuns.suffix(max($0, 1))) } ?? allRuns
        runs = window
        earlierRuns = allRuns.count - window.count
        self.thresholds = thresholds
        self.gateWall = gateWall

        var order: [String] = []
        var seen: Set<String> = []
        for run in window.reversed() {
            for e in run.benchmarks where !seen.contains(e.name) {
                seen.insert(e.name)
                order.append(e.name)
            }
        }
        var series: [Series] = []
        var steps: [Step] = []
        for name in order {
            var points: [Metric: [Point]] = [:]
            var gates = true
            for (i, run) in window.enumerated() {
                guard let e = run.entry(name) else { continue }
                gates = e.gates
                for m in Metric.allCases {
                    if let v = m.value(e) { points[m, default: []].append(Point(run: i, value: v)) }
                }
            }
            series.append(Series(name: name, gates: gates, points: points))
            // Competitors are measured for the ratio; their counts (threads, Foundation) move.
            guard gates else { continue }
            let metrics: [Metric] = gateWall ? Metric.allCases : [.instructions, .allocations]
            for m in metrics {
                let p = points[m] ?? []
                let limit = m.threshold(thresholds) / 100
                for (a, b) in zip(p, p.dropFirst()) {
                    let change = Self.change(a.value, b.value)
                    guard abs(change) > limit else { continue }
                    let environmentChanged = window[a.run].toolchain != window[b.run].toolchain || window[a.run].machine != window[b.run].machine
                    steps.append(Step(benchmark: name, metric: m, from: a.run, to: b.run, before: a.value, after: b.value,
                                      change: change, environmentChanged: environmentChanged))
                }
            }
        }
        self.series = series
        self.steps = steps.sorted { ($0.to, $0.from) < ($1.to, $1.from) }
    }

    public var latest: HistoryRun? { runs.last }

    /// A deterministic metric that moved past its threshold from its first measurement in the
    /// window to its last: a slow drift shows here even when no single step is past it.
    public struct Drift: Sendable, Equatable {
        public let benchmark: String
        public let metric: Metric
        public let from: Int
        public let to: Int
        public let before: Double
        public let after: Double
        public let change: Double
    }

    /// Informational: the exit status is the latest run's alone.
    public var drifts: [Drift] {
        series.filter(\.gates).flatMap { s in
            [Metric.instructions, .allocations].compactMap { m -> Drift? in
                let p = s.points(m)
                guard p.count >= 2, let first = p.first, let last = p.last else { return nil }
                let change = Self.change(first.value, last.value)
                guard abs(change) > m.threshold(thresholds) / 100 else { return nil }
                return Drift(benchmark: s.name, metric: m, from: first.run, to: last.run, before: first.value, after: last.value, change: change)
            }
        }
    }

    /// Steps into the latest run that rose: the reasons the trend fails.
    public var regressions: [Step] {
        steps.filter { $0.to == runs.count - 1 && $0.change > 0 }
    }

    public var regressed: Bool { !regressions.isEmpty }

    /// 2 when the latest run regressed, 0 otherwise (the command's 1 is for errors).
    public var exitStatus: Int32 { regressed ? 2 : 0 }

    /// The change of the latest run against the benchmark's previous measurement.
    public func latestChange(_ series: Series, _ metric: Metric) -> Double? {
        let p = series.points(metric)
        guard p.count >= 2, let last = p.last, last.run == runs.count - 1 else { return nil }
        return Self.change(p[p.count - 2].value, last.value)
    }

    static func change(_ before: Double, _ after: Double) -> Double {
        if before == 0 { return after == 0 ? 0 : 1 }
        return (after - before) / before
    }
}
