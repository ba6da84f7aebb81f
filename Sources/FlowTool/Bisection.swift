/// The search behind `flow bench bisect`: over commits GOOD … BAD (oldest first), the first
/// one whose deterministic count rises past the threshold over GOOD's, with as few
/// measurements as a binary search needs. Counts (callgrind instructions, allocations) do
/// not vary between runs, so one measurement per commit is the truth: nothing is rerun for
/// noise.
///
/// A commit that cannot be measured (it does not build, or lacks the benchmark) is skipped,
/// as `git bisect skip` does: the search probes the nearest commit that can be, and when
/// only skipped commits are left between a good and a bad one, says the regression is among
/// them.
struct Bisection {
    /// What measuring one commit gave: each matched benchmark's count, or why there is none.
    enum Outcome: Equatable {
        case measured([String: Double])
        case skipped(String)
    }

    struct Probe: Equatable {
        let index: Int
        let outcome: Outcome
        /// Whether it regressed against GOOD (nil when skipped).
        let regressed: Bool?
    }

    /// A benchmark whose count rose past the threshold, before (the last good probe) and after.
    struct Rise: Equatable {
        let benchmark: String
        let before: Double
        let after: Double
        var change: Double { after / before - 1 }
    }

    /// A change past the threshold between two probes next to each other in history order.
    struct Step: Equatable {
        let from: Int
        let to: Int
        let benchmark: String
        let before: Double
        let after: Double
    }

    enum Verdict: Equatable {
        /// The first regressing commit (`index`), what rose there, and the last good index before it.
        case found(index: Int, lastGood: Int, rises: [Rise])
        /// Every commit between `lastGood` and `firstBad` was skipped: the regression is one of them or `firstBad`.
        case among(lastGood: Int, firstBad: Int)
        /// BAD's counts are within the threshold of GOOD's.
        case noRegression
    }

    enum Failure: Error, Equatable, CustomStringConvertible {
        case endpointNotMeasured(which: String, why: String)
        case nothingInCommon
        var description: String {
            switch self {
            case .endpointNotMeasured(let which, let why): "\(which) cannot be measured: \(why)"
            case .nothingInCommon: "GOOD and BAD measure no benchmark in common (the filter matches none in both)"
            }
        }
    }

    /// Percent: a count past GOOD's by more than this regresses.
    let threshold: Double
    private(set) var probes: [Probe] = []

    init(threshold: Double) { self.threshold = threshold }

    /// Runs the search over `count` commits (0 is GOOD, `count - 1` is BAD), calling `measure`
    /// at most once per index.
    mutating func run(count: Int, measure: (Int) -> Outcome) throws(Failure) -> Verdict {
        precondition(count >= 2, "GOOD and BAD are two commits")
        guard case .measured(let good) = record(0, measure(0), against: nil) else {
            throw .endpointNotMeasured(which: "GOOD", why: reason(probes[0].outcome))
        }
        guard case .measured(let bad) = record(count - 1, measure(count - 1), against: good) else {
            throw .endpointNotMeasured(which: "BAD", why: reason(probes[1].outcome))
        }
        guard good.keys.contains(where: { bad[$0] != nil }) else { throw .nothingInCommon }
        guard rises(good, bad).isEmpty == false else { return .noRegression }

        var low = 0, high = count - 1
        var skipped = Set<Int>()
        while high - low > 1 {
            // The commit nearest the middle not yet skipped.
            let middle = (low + high) / 2
            let candidates = (low + 1..<high).filter { !skipped.contains($0) }.sorted { abs($0 - middle) < abs($1 - middle) || (abs($0 - middle) == abs($1 - middle) && $0 < $1) }
            guard let next = candidates.first else { return .among(lastGood: low, firstBad: high) }
            let probe = record(next, measure(next), against: good)
            switch probe {
            case .skipped: skipped.insert(next)
            case .measured(let counts):
                if rises(good, counts).isEmpty { low = next } else { high = next }
            }
        }
        guard case .measured(let before) = outcome(at: low), case .measured(let after) = outcome(at: high) else {
            return .among(lastGood: low, firstBad: high)
        }
        // Against the last good commit; against GOOD when that one had already crept up.
        let step = rises(before, after)
        return .found(index: high, lastGood: low, rises: step.isEmpty ? rises(good, after) : step)
    }

    /// Changes past the threshold between probes next to each other in history order, up or
    /// down: more than one means the count moved more than once between GOOD and BAD.
    var steps: [Step] {
        let measured = probes.compactMap { p -> (Int, [String: Double])? in
            if case .measured(let c) = p.outcome { (p.index, c) } else { nil }
        }.sorted { $0.0 < $1.0 }
        var steps: [Step] = []
        for (a, b) in zip(measured, measured.dropFirst()) {
            for name in a.1.keys.sorted() {
                guard let x = a.1[name], let y = b.1[name], x > 0 else { continue }
                if abs(y / x - 1) * 100 > threshold { steps.append(Step(from: a.0, to: b.0, benchmark: name, before: x, after: y)) }
            }
        }
        return steps
    }

    /// The benchmarks of `base` whose count in `counts` is past the threshold above it.
    func rises(_ base: [String: Double], _ counts: [String: Double]) -> [Rise] {
        base.keys.sorted().compactMap { name in
            guard let before = base[name], let after = counts[name], before > 0, (after / before - 1) * 100 > threshold else { return nil }
            return Rise(benchmark: name, before: before, after: after)
        }
    }

    private mutating func record(_ index: Int, _ outcome: Outcome, against good: [String: Double]?) -> Outcome {
        var regressed: Bool?
        if case .measured(let counts) = outcome, let good { regressed = !rises(good, counts).isEmpty }
        if case .measured = outcome, good == nil { regressed = false }
        probes.append(Probe(index: index, outcome: outcome, regressed: regressed))
        return outcome
    }

    private func outcome(at index: Int) -> Outcome? { probes.first { $0.index == index }?.outcome }

    private func reason(_ outcome: Outcome) -> String {
        if case .skipped(let why) = outcome { return why }
        return "measured"
    }
}
