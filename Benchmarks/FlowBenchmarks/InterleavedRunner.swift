import Foundation

/// `flow bench --against BASE_TOOL`: the wall time of two builds on one machine, judged with
/// statistics.
///
/// Wall time is the one figure a machine's load moves, and it moves both builds alike only if
/// they are measured at the same time. So the base and the head are measured in rounds, each
/// round measuring every benchmark once with each build, one right after the other (which
/// goes first alternates from benchmark to benchmark and from round to round), each in a
/// fresh worker started from a path of the same length. A round gives each benchmark one
/// pair of medians; the pairs' ratios are what ``SignedRank`` tests. Rounds go on, for the
/// benchmarks still undecided only, until each has a verdict (``WallComparison/decided(threshold:confidence:)``)
/// or `maxRounds` is reached, when those left are unknown.
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
        /// Each worker's least measuring time, after its warm-up.
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
        let threshold = options.threshold / 100
        for round in 1...options.maxRounds {
            let open = comparisons.indices.filter { decidedAt[comparisons[$0].name] == nil && !notInBase.contains(comparisons[$0].name) }
            if open.isEmpty { break }
            for (k, i) in open.enumerated() {
                let name = comparisons[i].name
                progress("round \(round) of at most \(options.maxRounds): \(name) (\(k + 1)/\(open.count)) …")
                // Base first in odd places, head first in even ones; the places shift each round.
                let baseFirst = (round + k) % 2 == 1
                var pair: (base: Double?, head: Double?) = (nil, nil)
                for side in baseFirst ? [true, false] : [false, true] {
                    if side {
                        pair.base = try measure(name, launch: base, isBase: true)
                        if pair.base == nil { break }
                    } else {
                        pair.head = try measure(name, launch: head, isBase: false)
                    }
                }
                guard let b = pair.base, let h = pair.head else {
                    notInBase.insert(name)
                    continue
                }
                comparisons[i].base.append(b)
                comparisons[i].head.append(h)
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
                          planted: options.planted, seconds: Date().timeIntervalSince(started))
    }

    /// One worker's median call time of benchmark `name`, or nil when the base has no
    /// benchmark of that name (an older base).
    private func measure(_ name: String, launch: WorkerLaunch, isBase: Bool) throws -> Double? {
        var arguments = ["--min-time", String(options.minTime)] + options.workerArguments
        if !isBase, let planted = options.planted, planted.benchmark == name {
            arguments += ["--planted-slowdown", String(planted.percent)]
        }
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
