import Dispatch
import FlowJSON
import Foundation

/// `flow bench --repeat-counts`: the check that the gate's counts are the same in any run.
///
/// A gate on counts is only as good as their repeatability: a count that moves between two
/// runs of one build flags regressions that are not there. So each gated benchmark's counts
/// are measured a second time, in fresh processes, while the first count runs on the other
/// core: allocations per call, retained bytes where they gate, and instructions where
/// callgrind counts them must come out identical. (Every worker starts the same way wherever
/// the clone lies and whatever the environment, ``WorkerLaunch``; what this catches is
/// anything else that moves a count: timing, threads, addresses.)
public struct RepeatCheck: Sendable {
    public struct Difference: Sendable {
        public let benchmark: String
        public let metric: String
        public let first: Double
        public let second: Double

        var text: String { "\(benchmark)  \(metric): \(Self.exact(first)) first, \(Self.exact(second)) the second time" }

        /// Every digit: two counts that differ may round alike.
        static func exact(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(format: "%.3f", v) }
    }

    /// Benchmarks measured twice.
    public var compared = 0
    public var differences: [Difference] = []
    public var failed: Bool { !differences.isEmpty }

    /// Compares `result` with the same benchmark's second measurement.
    mutating func check(_ result: BenchmarkResult, against again: Repeat.Counts) {
        compared += 1
        func same(_ metric: String, _ first: Double?, _ second: Double?) {
            guard let first, let second, first != second else { return }
            differences.append(Difference(benchmark: result.name, metric: metric, first: first, second: second))
        }
        same("allocations/op", result.allocationsPerOp, again.allocations)
        if Baseline.gatesRetained(result.name) {
            same("retained bytes", result.retainedBytes.map(Double.init), again.retained.map(Double.init))
        }
        same("instructions/op", result.instructions.value, again.instructions)
    }

    func textLines() -> [String] {
        let what = "Counts measured again in fresh processes"
        let benchmarks = compared == 1 ? "1 benchmark" : "\(compared) benchmarks"
        if differences.isEmpty { return ["\(what): \(benchmarks), every count identical."] }
        return ["\(what): \(differences.count) difference(s) in \(benchmarks)."]
            + differences.map { "  NOT REPEATABLE  " + $0.text }
    }

    func markdownLine() -> String {
        if differences.isEmpty {
            return "**Repeat check:** \(compared == 1 ? "1 benchmark's" : "\(compared) benchmarks'") counts measured again, every one identical."
        }
        return "**Repeat check: \(differences.count) count(s) not repeatable:** "
            + differences.map { "`\($0.benchmark)` \($0.metric) \(Difference.exact($0.first)) vs \(Difference.exact($0.second))" }.joined(separator: ", ")
    }

    var json: JSONValue {
        .object(["compared": Report.number(Double(compared)),
                 "differences": .array(differences.map { d in
                     .object(["benchmark": .string(d.benchmark), "metric": .string(d.metric),
                              "first": Report.number(d.first), "second": Report.number(d.second)])
                 })])
    }
}

/// The second measurement of ``RepeatCheck``.
enum Repeat {
    /// What the second measurement found.
    struct Counts: Sendable {
        var allocations: Double
        var retained: Int?
        var instructions: Double?
    }

    /// The counts of benchmark `name` measured again: a worker that times nothing worth keeping
    /// (`--min-time 0`: its counts come from calls at fixed places in its run, whatever the
    /// clock says), and given `callgrind`, a second counted worker.
    static func measure(_ name: String, arguments: [String], callgrind: Callgrind?, launch: WorkerLaunch) throws -> Counts {
        let worker = try Runner.spawnWorker(name, arguments: ["--min-time", "0"] + arguments, launch: launch)
        let count = try callgrind?.instructions(for: name, arguments: arguments, launch: launch)
        return Counts(allocations: worker.allocationsPerOp, retained: worker.retainedBytes, instructions: count)
    }

    /// `first` and `second` on two threads at once (each waits on a child process, one per core).
    static func inParallel<A, B>(_ first: () throws -> A, _ second: () throws -> B) throws -> (A, B) {
        try withoutActuallyEscaping(first) { first in
            try withoutActuallyEscaping(second) { second in
                let a = Work(first), b = Work(second)
                DispatchQueue.concurrentPerform(iterations: 2) { k in
                    if k == 0 { a.run() } else { b.run() }
                }
                return (try a.result!.get(), try b.result!.get())
            }
        }
    }

    /// One of the two. `@unchecked Sendable`: each is run by one thread, and its result read
    /// only after `concurrentPerform` has returned (which orders the memory); the closure does
    /// not outlive `inParallel`.
    private final class Work<T>: @unchecked Sendable {
        let body: () throws -> T
        var result: Result<T, any Error>?
        init(_ body: @escaping () throws -> T) { self.body = body }
        func run() { result = Result { try body() } }
    }
}
