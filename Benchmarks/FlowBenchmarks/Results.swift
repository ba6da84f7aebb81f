/// The measured figures of one benchmark, as reported and compared.
public struct BenchmarkResult: Sendable {
    public let name: String
    public let summary: String
    public let gates: Bool
    public let iterations: Int
    /// Wall time per call, nanoseconds.
    public let min: Double
    public let median: Double
    public let p90: Double
    public let max: Double
    public let bytes: Int?
    public let widgets: Int?
    public let allocationsPerOp: Double
    public let peakRSS: Int?
    public let rssGrowth: Int?
    /// Heap bytes a warm call leaves in use while its result is alive (see `Worker`).
    public let retainedBytes: Int?
    public var instructions: Instructions
    public var comparisons: [Comparison] = []
    /// Wall time of each timed call, nanoseconds, in the order they ran.
    public let times: [Double]

    public enum Instructions: Sendable {
        case measured(Double)
        /// valgrind is not on this machine.
        case unavailable
        /// Not measured on purpose (too slow under callgrind, or a competitor), or not asked for.
        case skipped(String)

        public var value: Double? { if case .measured(let v) = self { v } else { nil } }
    }

    /// The other benchmark of a peer pair, measured in the same run.
    public struct Comparison: Sendable {
        public let peer: String
        public let label: String
        public let isShare: Bool
        /// Speedup: peer median / this median. Share: this median / peer median.
        public let value: Double

        public var formatted: String {
            isShare ? String(format: "%.1f%% %@", value * 100, label) : String(format: "%.1fx %@", value, label)
        }
    }

    public var group: String { String(name.split(separator: "/").first ?? Substring(name)) }
    public var size: String { name.split(separator: "/").dropFirst().first.map(String.init) ?? "" }

    /// MB/s (10^6 bytes) at the median.
    public var megabytesPerSecond: Double? { bytes.map { Double($0) / 1e6 / (median / 1e9) } }
    public var widgetsPerSecond: Double? { widgets.map { Double($0) / (median / 1e9) } }
    /// Resident growth over the cold call as a multiple of the input.
    public var growthRatio: Double? {
        guard let rssGrowth, let bytes, bytes > 0 else { return nil }
        return Double(rssGrowth) / Double(bytes)
    }
    /// Retained heap bytes per widget of the result (a decoded page's model, for a decode).
    public var retainedBytesPerWidget: Double? {
        guard let retainedBytes, let widgets, widgets > 0 else { return nil }
        return Double(retainedBytes) / Double(widgets)
    }

    init(benchmark: Benchmark, worker: WorkerResult) {
        name = benchmark.name
        summary = benchmark.summary
        gates = benchmark.gates
        times = worker.times.map { Double($0) }
        let sorted = times.sorted()
        iterations = sorted.count
        min = sorted.first ?? 0
        max = sorted.last ?? 0
        median = Self.percentile(sorted, 0.5)
        p90 = Self.percentile(sorted, 0.9)
        bytes = worker.bytesPerOp
        widgets = worker.widgetsPerOp
        allocationsPerOp = worker.allocationsPerOp
        peakRSS = worker.peakRSS
        rssGrowth = worker.rssGrowth
        retainedBytes = worker.retainedBytes
        instructions = .skipped("not measured")
    }

    /// Linear interpolation between closest ranks.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = p * Double(sorted.count - 1)
        let low = Int(rank.rounded(.down))
        let high = Swift.min(low + 1, sorted.count - 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }
}

/// How a family of benchmarks grows with its size (widgets on the page; for `hostile.*`,
/// the count of what the shape repeats).
public struct Scaling: Sendable {
    public let group: String
    /// (size, median ns) per size, ascending.
    public let points: [(widgets: Int, median: Double)]
    /// Instructions per call at each size, when every point was counted: the exponent is
    /// then fitted to these (deterministic) rather than to the times.
    public var instructions: [Int]? = nil

    /// The most a `hostile.*` group's instruction exponent may be: n log n fits about 1.1
    /// at the suite's sizes, a square 2. Past it `flow bench` exits 2 (see README).
    public static let limit = 1.25

    /// What the exponent was fitted to.
    public var metric: String { instructions == nil ? "time" : "instructions" }

    /// Whether this group breaks the linear-time promise (the page contract, "Limits and hostile input"): a hostile shape whose
    /// counted cost grows faster than ``limit``.
    public var breaksLinearTime: Bool { group.hasPrefix("hostile.") && instructions != nil && exponent > Self.limit }

    /// Least-squares slope of log(time) against log(widgets): 1 is linear.
    public var exponent: Double {
        let xs = points.map { Foundation.log(Double($0.widgets)) }
        let ys = instructions.map { $0.map { Foundation.log(Double($0)) } } ?? points.map { Foundation.log($0.median) }
        let mx = xs.reduce(0, +) / Double(xs.count)
        let my = ys.reduce(0, +) / Double(ys.count)
        var num = 0.0, den = 0.0
        for (x, y) in zip(xs, ys) {
            num += (x - mx) * (y - my)
            den += (x - mx) * (x - mx)
        }
        return den == 0 ? 0 : num / den
    }

    /// Cost multiplier per 10x the size, from the fitted exponent.
    public var perTenfold: Double { Foundation.pow(10, exponent) }
}

import Foundation
