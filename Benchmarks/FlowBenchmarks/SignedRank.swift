import Foundation

/// Wilcoxon's signed-rank test and the Hodges–Lehmann estimate with its confidence interval,
/// for paired differences: the statistics behind `flow bench --against`.
///
/// Each round measures the base and then the head (or the other way round) one after the
/// other, so a round's pair shares whatever the machine was doing at the time; the difference
/// of their logarithms is that round's change, and the rounds' differences are what is
/// tested. The test makes no assumption about their distribution beyond symmetry around
/// the true change, which is why it suits wall time: skewed, with outliers, and with a
/// machine that drifts. The p-value and the interval come from the exact distribution of
/// the signed-rank statistic, so they agree: the interval at confidence 1 − α leaves out
/// zero exactly when the test rejects "no change" at level α.
public enum SignedRank {
    /// The distribution of the signed-rank statistic W+ (the sum of the ranks of the positive
    /// differences) when there is no change: `p[w]` is P(W+ = w) for `w` in 0...n(n+1)/2.
    /// Each of the 2^n sign patterns is equally likely, so the counts come from adding the
    /// ranks one at a time.
    static func nullDistribution(count n: Int) -> [Double] {
        precondition(n >= 0 && n <= 1000, "rounds out of range: \(n)")
        var counts = [Double](repeating: 0, count: n * (n + 1) / 2 + 1)
        counts[0] = 1
        var top = 0
        for rank in stride(from: 1, through: n, by: 1) {
            top += rank
            // Downwards, so that each rank is added once.
            for w in stride(from: top, through: rank, by: -1) { counts[w] += counts[w - rank] }
        }
        let total = pow(2, Double(n))
        return counts.map { $0 / total }
    }

    /// P(W+ ≤ w) for each `w`.
    static func cumulative(_ distribution: [Double]) -> [Double] {
        var sum = 0.0
        return distribution.map { sum += $0; return min(1, sum) }
    }

    /// The two-sided p-value of "no change" for `differences`. Zeros carry no sign and are
    /// left out (Wilcoxon's rule); tied magnitudes share their mean rank, and the statistic
    /// is then rounded away from the centre, which can only make the p-value larger.
    public static func pValue(_ differences: [Double]) -> Double {
        let nonZero = differences.filter { $0 != 0 }
        let n = nonZero.count
        guard n > 0 else { return 1 }
        let ranks = midRanks(nonZero.map(abs))
        var positive = 0.0
        for (d, r) in zip(nonZero, ranks) where d > 0 { positive += r }
        let top = n * (n + 1) / 2
        let cdf = cumulative(nullDistribution(count: n))
        // By symmetry P(W+ ≥ w) = P(W+ ≤ top − w): take the tail W+ lies in.
        let centre = Double(top) / 2
        let tail = positive <= centre ? Int(positive.rounded(.down)) : top - Int(positive.rounded(.up))
        return min(1, 2 * cdf[max(0, tail)])
    }

    /// Ranks 1...n of `values` by size, ties sharing the mean of the ranks they span.
    static func midRanks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count && values[order[end + 1]] == values[order[start]] { end += 1 }
            let shared = Double(start + end + 2) / 2
            for k in start...end { ranks[order[k]] = shared }
            start = end + 1
        }
        return ranks
    }

    /// The Hodges–Lehmann estimate of the change (the median of the Walsh averages, the
    /// means of every pair of differences, each with itself included) and the interval
    /// around it at `confidence`: the k-th smallest and k-th largest Walsh averages, k taken
    /// from the exact distribution so that the interval misses the true change with
    /// probability at most 1 − `confidence`. Nil when there are too few differences for any
    /// interval at that confidence (at 99%, fewer than eight).
    public static func interval(_ differences: [Double], confidence: Double) -> (low: Double, estimate: Double, high: Double)? {
        let n = differences.count
        guard n > 0 else { return nil }
        var walsh: [Double] = []
        walsh.reserveCapacity(n * (n + 1) / 2)
        for i in 0..<n {
            for j in i..<n { walsh.append((differences[i] + differences[j]) / 2) }
        }
        walsh.sort()
        let m = walsh.count
        let estimate = BenchmarkResult.percentile(walsh, 0.5)
        // The largest k with P(W+ ≤ k − 1) ≤ α/2.
        let cdf = cumulative(nullDistribution(count: n))
        let halfAlpha = (1 - confidence) / 2
        var k = 0
        while k < cdf.count && cdf[k] <= halfAlpha { k += 1 }
        guard k >= 1 else { return nil }
        return (walsh[k - 1], estimate, walsh[m - k])
    }

    /// The fewest differences for which an interval at `confidence` exists.
    public static func fewestRounds(confidence: Double) -> Int {
        // With n differences the narrowest tail is one sign pattern in 2^n, on each side.
        var n = 1
        while 2 / pow(2, Double(n)) > 1 - confidence { n += 1 }
        return n
    }
}
