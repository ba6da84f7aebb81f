import Foundation

/// `flow bench --against BASE_TOOL`: the wall time of two builds on one machine, judged with
/// statistics.
///
/// Wall time is the one figure a machine's load moves, and it moves both builds alike only if
/// they are measured at the same time and place. On a shared machine a core's speed changes
/// for tenths of a second at a time, by as much as 1.7x (measured on a 2-core VM), and two
/// cores change apart. So the base and the head are measured in rounds, each round measuring
/// every benchmark with a fresh worker of each build (started from paths of the same length,
/// so that a round also draws a fresh memory layout), both kept on one core. Once both have
/// warmed up, they time slices of a hundredth of a second in turn, base–head then head–base
/// (which goes first alternates from benchmark to benchmark and from round to round): the
/// two slices of a pair share the core's spell, and the round's ratio is the median of its
/// pairs' ratios. The rounds' ratios are what ``SignedRank`` tests. Rounds go on, for the
/// benchmarks still undecided only, until each has a verdict (``WallComparison/decided(threshold:confidence:)``)
/// or `maxRounds` is reached, when those left are unknown. A base whose workers cannot serve
/// slices (built before they could) is measured in whole runs instead: each worker's median
/// over at least `minTime`, one right after the other.
public struct InterleavedRunner {
    public struct Options: Sendable {
        /// The base's `flow` (or its measuring sibling, which is used when it is beside it).
        public var base: String
        public var filter: String?
        public var quick = false
        /// The benchmarks to choose from instead of the built-in suite (`--pages`).
        public var suite: [Benchmark]?
        /// Words every worker gets, base and head (`--pages ...`).
        public var workerArguments: [String] = []
        public var maxRounds = 20
        /// Percent either way below which a change counts as none.
        public var threshold = 5.0
        public var confidence = 0.99
        /// Each whole-run worker's least measuring time, after its warm-up (a base that
        /// cannot serve slices).
        public var minTime = 0.1
        /// The benchmark whose head workers spin this many percent longer per call.
        public var planted: PlantedSlowdown?
        public var progress = true

        public init(base: String) { self.base = base }
    }

    /// A slowdown planted in the head, to show that the verdict catches one.
    public struct PlantedSlowdown: Sendable {
        public let benchmark: String
        public let percent: Double
        public init(benchmark: String, percent: Double) {
            self.benchmark = benchmark
            self.percent = percent
        }
    }

    public let options: Options

    public init(options: Options) { self.options = options }

    /// The measuring executable of the tool at `path`: its `-measure` sibling when there is
    /// one (a `flow` that hands measuring over), else the tool itself.
    static func measuring(_ path: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError("--against expects the base's flow executable, found no executable file at \(path)")
        }
        // Absolute: the worker is started through a link to it in another folder.
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let sibling = absolute + "-measure"
        return FileManager.default.isExecutableFile(atPath: sibling) ? sibling : absolute
    }

    public func run() throws -> WallReport {
        guard options.maxRounds >= SignedRank.fewestRounds(confidence: options.confidence) else {
            throw BenchError("--rounds \(options.maxRounds) is too few: a \(Format.percent(options.confidence * 100)) interval needs at least \(SignedRank.fewestRounds(confidence: options.confidence)) rounds")
        }
        var selection = Runner.Options()
        selection.filter = options.filter
        selection.quick = options.quick
        selection.suite = options.suite
        let (chosen, missing) = try Runner(options: selection).selected()
        let benchmarks = chosen.filter(\.gates)
        guard !benchmarks.isEmpty else {
            throw BenchError("no gated benchmark matches (competitors and parallel runs are not compared; see flow bench --list)")
        }
        if let planted = options.planted, !benchmarks.contains(where: { $0.name == planted.benchmark }) {
            throw BenchError("--plant-slowdown names \(planted.benchmark), which is not among the benchmarks compared")
        }
        let head = WorkerLaunch()
        let base = WorkerLaunch(target: try Self.measuring(options.base), id: 9_000_000_000 + Int(getpid()))
        defer {
            head.remove()
            base.remove()
        }
        let started = Date()
        let fewest = SignedRank.fewestRounds(confidence: options.confidence)
        var comparisons = benchmarks.map { WallComparison(name: $0.name) }
        var notInBase: Set<String> = []
        var decidedAt: [String: Int] = [:]
        var sliced = true
        let cpus = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let threshold = options.threshold / 100
        for round in 1...options.maxRounds {
            let open = comparisons.indices.filter { decidedAt[comparisons[$0].name] == nil && !notInBase.contains(comparisons[$0].name) }
            if open.isEmpty { break }
            for (k, i) in open.enumerated() {
                let name = comparisons[i].name
                progress("round \(round) of at most \(options.maxRounds): \(name) (\(k + 1)/\(open.count)) …")
                // Base first in odd places, head first in even ones; the places shift each round.
                let baseFirst = (round + k) % 2 == 1
                var figures: RoundFigures?
                if sliced {
                    do {
                        figures = try measureSlices(name, baseFirst: baseFirst, base: base, head: head, cpu: (round + k) % cpus)
                    } catch let error as BenchError where error.description.contains("unknown option '--serve'") {
                        // A base from before serving workers: whole runs in fresh processes,
                        // for every benchmark, so that all rounds are measured alike.
                        sliced = false
                        progress("the base's workers cannot serve slices: measuring whole runs, one process each", done: true)
                    }
                }
                if !sliced { figures = try measureWhole(name, baseFirst: baseFirst, base: base, head: head) }
                guard let figures else {
                    notInBase.insert(name)
                    continue
                }
                comparisons[i].append(base: figures.base, head: figures.head, ratio: figures.ratio)
                if round >= fewest, comparisons[i].decided(threshold: threshold, confidence: options.confidence) != nil {
                    decidedAt[name] = round
                }
            }
            let undecided = comparisons.filter { decidedAt[$0.name] == nil && !notInBase.contains($0.name) }.count
            progress("round \(round): \(comparisons.count - undecided - notInBase.count) decided, \(undecided) still open", done: true)
        }
        return WallReport(base: options.base, comparisons: comparisons.filter { !notInBase.contains($0.name) },
                          notInBase: benchmarks.map(\.name).filter(notInBase.contains), missing: missing.map(\.name),
                          threshold: options.threshold, confidence: options.confidence, maxRounds: options.maxRounds,
                          planted: options.planted, seconds: Date().timeIntervalSince(started), sliced: sliced)
    }

    /// What one round measured of one benchmark: the base's and the head's median call time,
    /// and the round's own ratio where its measurements were paired.
    struct RoundFigures {
        var base: Double
        var head: Double
        var ratio: Double?
    }

    /// How long each slice is, and how many pairs of slices a round takes: ten, or fewer once
    /// half a second has gone (a benchmark whose calls are slow), but never fewer than three.
    static let sliceSeconds = 0.01
    static let slicePairs = (most: 10, fewest: 3, seconds: 0.5)

    /// One round of benchmark `name` in slices: a worker of each build, both kept on `cpu`,
    /// warmed up, then timing slices in turn (base–head, head–base, …, starting with the base
    /// when `baseFirst`). The round's ratio is the median of its pairs' ratios. Nil when the
    /// base has no benchmark of that name (an older base).
    private func measureSlices(_ name: String, baseFirst: Bool, base: WorkerLaunch, head: WorkerLaunch, cpu: Int) throws -> RoundFigures? {
        let baseWorker = try ServedWorker(name, arguments: workerArguments(name, isBase: true), launch: base, cpu: cpu)
        defer { baseWorker.finish() }
        let headWorker = try ServedWorker(name, arguments: workerArguments(name, isBase: false), launch: head, cpu: cpu)
        defer { headWorker.finish() }
        do {
            try baseWorker.ready()
        } catch let error as BenchError where error.description.contains("no benchmark named") {
            return nil
        }
        try headWorker.ready()
        var times: (base: [Double], head: [Double]) = ([], [])
        var ratios: [Double] = []
        let started = Date()
        for pair in 0..<Self.slicePairs.most {
            let baseLeads = (pair % 2 == 0) == baseFirst
            let (first, second) = baseLeads ? (baseWorker, headWorker) : (headWorker, baseWorker)
            guard let a = try first.slice(seconds: Self.sliceSeconds), let b = try second.slice(seconds: Self.sliceSeconds) else { break }
            let (baseTime, headTime) = baseLeads ? (a, b) : (b, a)
            times.base.append(baseTime)
            times.head.append(headTime)
            ratios.append(headTime / baseTime)
            if ratios.count >= Self.slicePairs.fewest && Date().timeIntervalSince(started) >= Self.slicePairs.seconds { break }
        }
        guard !ratios.isEmpty else {
            throw BenchError("\(name) allows no calls after its warm-up, so it has no slices to compare")
        }
        return RoundFigures(base: WallComparison.median(times.base), head: WallComparison.median(times.head),
                            ratio: WallComparison.median(ratios))
    }

    /// One round of benchmark `name` in whole runs: a fresh worker of each build, one right
    /// after the other, each giving its median call time. Nil when the base has no benchmark
    /// of that name.
    private func measureWhole(_ name: String, baseFirst: Bool, base: WorkerLaunch, head: WorkerLaunch) throws -> RoundFigures? {
        var pair: (base: Double?, head: Double?) = (nil, nil)
        for side in baseFirst ? [true, false] : [false, true] {
            if side {
                pair.base = try measure(name, launch: base, isBase: true)
                if pair.base == nil { return nil }
            } else {
                pair.head = try measure(name, launch: head, isBase: false)
            }
        }
        guard let b = pair.base, let h = pair.head else { return nil }
        return RoundFigures(base: b, head: h)
    }

    /// The worker arguments of benchmark `name`: the pages' words, and for the head the
    /// planted slowdown when it is this benchmark's.
    private func workerArguments(_ name: String, isBase: Bool) -> [String] {
        var arguments = options.workerArguments
        if !isBase, let planted = options.planted, planted.benchmark == name {
            arguments += ["--planted-slowdown", String(planted.percent)]
        }
        return arguments
    }

    /// One whole-run worker's median call time of benchmark `name`, or nil when the base has
    /// no benchmark of that name.
    private func measure(_ name: String, launch: WorkerLaunch, isBase: Bool) throws -> Double? {
        let arguments = ["--min-time", String(options.minTime)] + workerArguments(name, isBase: isBase)
        let worker: WorkerResult
        do {
            worker = try Runner.spawnWorker(name, arguments: arguments, launch: launch)
        } catch let error as BenchError where isBase && error.description.contains("no benchmark named") {
            return nil
        }
        return WallComparison.median(worker.times.map { Double($0) })
    }

    private func progress(_ line: String, done: Bool = false) {
        if options.progress { Terminal.progress(line, done: done) }
    }
}
