import Foundation

/// One benchmark's wall time, base against head, over interleaved rounds
/// (`flow bench --against`), and the verdict on it.
public struct WallComparison: Sendable {
    /// What the rounds say about the head.
    public enum Verdict: String, Sendable {
        /// Slower past the threshold, and the interval lies above 1 (p below 1 − confidence).
        case slower
        /// Faster past the threshold, and the interval lies below 1.
        case faster
        /// The interval lies within the threshold on both sides: any change is smaller.
        case same
        /// The interval is too wide to say which: more rounds would tell.
        case unknown
    }

    public let name: String
    /// Each round's median call time, in nanoseconds, base and head (same round, same index).
    public var base: [Double] = []
    public var head: [Double] = []
    /// Each round's own ratio of head to base where the round measured one (the median of
    /// its slices' pairs, each pair timed back to back on one core); a round without one
    /// counts as head over base.
    public var pairedRatios: [Double] = []

    public init(name: String) { self.name = name }

    public var rounds: Int { head.count }

    /// Records one round: its medians, and its paired ratio when it has one.
    public mutating func append(base b: Double, head h: Double, ratio: Double? = nil) {
        if let ratio {
            precondition(pairedRatios.count == rounds, "a round with a paired ratio after rounds without")
            pairedRatios.append(ratio)
        }
        base.append(b)
        head.append(h)
    }

    /// Each round's ratio of head to base, as the test sees it.
    public var roundRatios: [Double] { differences.map { exp($0) } }

    /// Each round's change as the logarithm of its ratio.
    var differences: [Double] {
        pairedRatios.count == rounds ? pairedRatios.map { log($0) } : zip(head, base).map { log($0 / $1) }
    }

    /// The head's time over the base's (the Hodges–Lehmann estimate of the rounds' ratios) and
    /// its interval at `confidence`; nil before there are rounds enough for one.
    public func ratio(confidence: Double) -> (low: Double, estimate: Double, high: Double)? {
        SignedRank.interval(differences, confidence: confidence).map { (exp($0.low), exp($0.estimate), exp($0.high)) }
    }

    /// The two-sided p-value of "no change" (Wilcoxon's signed-rank test).
    public var pValue: Double { SignedRank.pValue(differences) }

    /// The verdict the rounds so far allow, or nil when more rounds could still decide it.
    /// `threshold` is a fraction (0.05 for 5%): slower means past 1 + threshold, faster below
    /// 1 / (1 + threshold), so that the threshold is the same distance either way on the
    /// ratio's logarithmic scale.
    public func decided(threshold: Double, confidence: Double) -> Verdict? {
        guard let r = ratio(confidence: confidence) else { return nil }
        let upper = 1 + threshold, lower = 1 / (1 + threshold)
        if r.low > 1 && r.estimate > upper { return .slower }
        if r.high < 1 && r.estimate < lower { return .faster }
        if r.low >= lower && r.high <= upper { return .same }
        return nil
    }

    /// The verdict once rounds are over: undecided is unknown.
    public func verdict(threshold: Double, confidence: Double) -> Verdict {
        decided(threshold: threshold, confidence: confidence) ?? .unknown
    }

    /// The base's and the head's median over the rounds.
    public var medians: (base: Double, head: Double) { (Self.median(base), Self.median(head)) }

    static func median(_ values: [Double]) -> Double { BenchmarkResult.percentile(values.sorted(), 0.5) }
}
