import FlowJSON
import Foundation
import Testing
@testable import FlowBenchmarks

/// `flow bench --against`: the signed-rank statistics, and the verdict they give on rounds
/// with a planted slowdown, on rounds with none, and on rounds too noisy to tell.
@Suite struct WallVerdictTests {
    /// Ten differences whose exact p-value and intervals SciPy and the published table give
    /// (scipy.stats.wilcoxon(d, method="exact"): 0.02734375; critical T for n = 10: 8 at 5%,
    /// 3 at 1%, so the interval runs from the 9th (4th) smallest Walsh average).
    static let ten = [0.12, -0.03, 0.25, 0.07, 0.18, -0.11, 0.31, 0.05, 0.22, 0.09]

    @Test func nullDistributionCountsSignPatterns() {
        // n = 3: W+ takes 0...6 with counts 1 1 1 2 1 1 1 over 8 patterns.
        #expect(SignedRank.nullDistribution(count: 3).map { $0 * 8 } == [1, 1, 1, 2, 1, 1, 1])
        let ten = SignedRank.nullDistribution(count: 10)
        #expect(ten.count == 56)
        #expect(abs(ten.reduce(0, +) - 1) < 1e-12)
    }

    @Test func pValueIsTheExactOne() {
        #expect(abs(SignedRank.pValue(Self.ten) - 0.02734375) < 1e-12)
        // Eight rounds all one way: the smallest p eight rounds can give, 2 / 2^8.
        #expect(SignedRank.pValue((1...8).map { Double($0) / 10 }) == 0.0078125)
        #expect(SignedRank.pValue([0, 0, 0]) == 1, "zeros carry no sign")
        // A tie in magnitude shares its rank and rounds away from the centre.
        #expect(SignedRank.pValue([0.1, -0.1, 0.2, 0.3]) >= SignedRank.pValue([0.1, -0.09, 0.2, 0.3]))
    }

    @Test func intervalComesFromTheCriticalValue() throws {
        let at95 = try #require(SignedRank.interval(Self.ten, confidence: 0.95))
        #expect(abs(at95.low - 0.02) < 1e-12 && abs(at95.high - 0.215) < 1e-12)
        #expect(abs(at95.estimate - 0.115) < 1e-12, "the median of the 55 Walsh averages")
        let at99 = try #require(SignedRank.interval(Self.ten, confidence: 0.99))
        #expect(abs(at99.low - -0.03) < 1e-12 && abs(at99.high - 0.25) < 1e-12)
        #expect(SignedRank.fewestRounds(confidence: 0.99) == 8)
        #expect(SignedRank.interval(Array(Self.ten.prefix(7)), confidence: 0.99) == nil, "seven rounds cannot bound a 99% interval")
        #expect(SignedRank.interval(Array(Self.ten.prefix(8)), confidence: 0.99) != nil)
    }

    /// Rounds of a benchmark whose head runs `slowdown` longer, with the spread a busy
    /// machine gives each round (a fixed pseudo-random draw, up to `noise` either way, on
    /// both builds alike and on each on its own).
    static func rounds(_ count: Int, slowdown: Double, noise: Double, seed: UInt64 = 7) -> WallComparison {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53) * 2 - 1
        }
        var c = WallComparison(name: "page.decode.fast/1k")
        for _ in 0..<count {
            let machine = 1 + 0.3 * abs(next())  // load that both builds of a round share
            c.base.append(1_000_000 * machine * (1 + noise * next()))
            c.head.append(1_000_000 * machine * (1 + slowdown) * (1 + noise * next()))
        }
        return c
    }

    @Test func aPlantedTenPercentSlowdownIsSlowerWithPBelowOnePercent() throws {
        let c = Self.rounds(8, slowdown: 0.10, noise: 0.02)
        #expect(c.decided(threshold: 0.05, confidence: 0.99) == .slower)
        #expect(c.pValue < 0.01)
        let r = try #require(c.ratio(confidence: 0.99))
        #expect(r.low > 1 && abs(r.estimate - 1.10) < 0.03)
    }

    @Test func aFasterHeadIsFaster() {
        #expect(Self.rounds(8, slowdown: -0.2, noise: 0.02).decided(threshold: 0.05, confidence: 0.99) == .faster)
    }

    /// No change, twenty rounds, over many draws: never slower or faster.
    @Test func anUnchangedBuildRaisesNoAlarm() {
        for seed in 1...200 as ClosedRange<UInt64> {
            let c = Self.rounds(20, slowdown: 0, noise: 0.02, seed: seed)
            let v = c.verdict(threshold: 0.05, confidence: 0.99)
            #expect(v == .same, "seed \(seed): \(v), ratio \(String(describing: c.ratio(confidence: 0.99)))")
        }
    }

    /// Below the threshold a real change is the same; too wide to tell is unknown, never a
    /// guess; and before eight rounds nothing is decided.
    @Test func smallChangesAreSameAndWideOnesUnknown() {
        #expect(Self.rounds(20, slowdown: 0.02, noise: 0.01).verdict(threshold: 0.05, confidence: 0.99) == .same)
        let noisy = Self.rounds(8, slowdown: 0, noise: 0.25)
        #expect(noisy.decided(threshold: 0.05, confidence: 0.99) == nil)
        #expect(noisy.verdict(threshold: 0.05, confidence: 0.99) == .unknown)
        #expect(Self.rounds(7, slowdown: 0.5, noise: 0.01).decided(threshold: 0.05, confidence: 0.99) == nil)
    }

    /// A core that switches between two speeds 1.7x apart for spells longer than a round's
    /// slices (what a shared 2-core VM does): whole runs one after the other land in
    /// different spells, slices 10 ms apart in the same one. The rounds' own paired ratios
    /// find a planted 10% in eight rounds; the same rounds' medians alone cannot.
    @Test func pairedSlicesSeeThroughACoreThatSwitchesSpeed() {
        var state: UInt64 = 11
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        var paired = WallComparison(name: "page.decode.fast/1k")
        for _ in 0..<8 {
            // Each build's median falls in a spell of its own; the slices' pairs each share one.
            let baseSpell = next() < 0.5 ? 1.0 : 1.7, headSpell = next() < 0.5 ? 1.0 : 1.7
            paired.append(base: 1_000_000 * baseSpell, head: 1_100_000 * headSpell, ratio: 1.10 * (1 + 0.01 * (next() - 0.5)))
        }
        #expect(paired.decided(threshold: 0.05, confidence: 0.99) == .slower)
        #expect(paired.roundRatios.allSatisfy { abs($0 - 1.10) < 0.01 })
        let unpaired = WallComparison(name: paired.name, base: paired.base, head: paired.head)
        #expect(unpaired.decided(threshold: 0.05, confidence: 0.99) == nil, "medians from different spells decide nothing")
        #expect(unpaired.roundRatios.contains { $0 < 1 }, "some rounds' medians point the wrong way")
    }

    static func report(_ comparisons: [WallComparison]) -> WallReport {
        WallReport(base: "base/.build/release/flow", comparisons: comparisons, notInBase: ["page.new/1k"], missing: [],
                   threshold: 5, confidence: 0.99, maxRounds: 20,
                   planted: .init(benchmark: "page.decode.fast/1k", percent: 10), seconds: 75)
    }

    @Test func theReportGivesEveryFigureAndTheSlowerOnes() throws {
        var same = Self.rounds(12, slowdown: 0, noise: 0.01)
        same = WallComparison(name: "page.encode/1k", base: same.base, head: same.head)
        let report = Self.report([Self.rounds(8, slowdown: 0.10, noise: 0.02), same])
        #expect(report.slower.map(\.name) == ["page.decode.fast/1k"])
        let text = report.text()
        #expect(text.contains("threshold 5% either way"))
        let decode = try #require(text.split(separator: "\n").first { $0.hasPrefix("page.decode.fast/1k") })
        #expect(decode.hasSuffix("slower") && decode.contains("0.0078") && decode.contains(" 8 "))
        #expect(text.contains("1 slower, 0 faster, 1 same, 0 unknown; 8 to 12 rounds (1 min 15 s)."))
        #expect(text.contains("Not in the base, so not compared: page.new/1k."))
        let json = try JSONValue(parsing: report.json())
        let first = try #require(json["benchmarks"]?.arrayValue?.first)
        #expect(first["verdict"]?.stringValue == "slower")
        #expect(first["head_ns"]?.arrayValue?.count == 8)
        #expect(first["round_ratios"]?.arrayValue?.count == 8)
        #expect(json["measured"]?.stringValue == "slices")
        #expect(text.contains("interleaved rounds of paired slices"))
        #expect(try #require(first["ratio_low"]?.numberValue?.doubleValue) > 1)
        #expect(report.markdown().contains("| `page.decode.fast/1k` |"))
    }
}

extension WallComparison {
    init(name: String, base: [Double], head: [Double]) {
        self.init(name: name)
        self.base = base
        self.head = head
    }
}
