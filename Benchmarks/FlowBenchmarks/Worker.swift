#if canImport(Glibc)
import Glibc
#endif
import CBenchSupport
import Foundation
import FlowJSON

/// What a worker process measured for one benchmark (one JSON line on its stdout).
struct WorkerResult: Codable {
    var name: String
    var times: [UInt64]
    var allocationsPerOp: Double
    var bytesPerOp: Int?
    var widgetsPerOp: Int?
    var peakRSS: Int?
    var rssGrowth: Int?
    /// Heap bytes one warm call leaves allocated while its result is alive.
    var retainedBytes: Int?
    /// Instruction-count mode: how many measured calls the callgrind run made.
    var measuredCalls: Int?
}

/// The child side of `flow bench`: one benchmark, in a process of its own, so that its
/// peak memory is its own and nothing left over from another benchmark disturbs it.
public enum Worker {
    public struct Settings: Sendable {
        public var minTime: Double = 1.0
        public var minIterations = 5
        public var maxIterations = 10_000
        /// Stop measuring after this long whatever the count (slow competitors).
        public var maxTime: Double = 12
        /// Instead of timing, make this many calls through `flow_bench_measured` for callgrind.
        public var instructionCalls: Int?
        /// A planted slowdown, as a fraction: each timed call spins this much of its own time
        /// longer (`flow bench --against --plant-slowdown`, the check that the wall verdict
        /// catches one).
        public var plantedSlowdown: Double?
        public init() {}
    }

    /// Measures the benchmark of `suite` (the built-in one by default) named `name`.
    public static func run(name: String, settings: Settings, suite: [Benchmark] = Suites.all) throws -> String {
        guard let benchmark = suite.first(where: { $0.name == name }) ?? Suites.named(name) else { throw BenchError("no benchmark named \(name)") }
        let workload = try LoadedWorkload(benchmark.workload)
        let operation = try benchmark.prepare(workload)
        var result = WorkerResult(name: name, times: [], allocationsPerOp: 0, bytesPerOp: operation.bytes, widgetsPerOp: operation.widgets)

        guard flow_allocation_counter_is_active() != 0 else {
            throw BenchError("the allocation counter is not linked into this executable (link the FlowAllocationCounter product); refusing to report 0")
        }
        if let calls = settings.instructionCalls {
            _ = operation.run()  // warm-up: lazily initialised state, outside the counted region
            // The result is released after the counted call returns, as the timed loop
            // releases it after the clock stops: teardown is not the operation's cost.
            var kept: [Any?] = []
            kept.reserveCapacity(calls)
            let box = Unmanaged.passRetained(OperationBox { kept.append(operation.run()) })
            let a0 = flow_allocation_count()
            for _ in 0..<calls {
                flow_run_measured({ context in Unmanaged<OperationBox>.fromOpaque(context!).takeUnretainedValue().body() }, box.toOpaque())
            }
            result.allocationsPerOp = Double(flow_allocation_count() - a0) / Double(calls)
            box.release()
            kept.removeAll()
            result.measuredCalls = calls
            return try encode(result)
        }

        // The counts come from calls at fixed places in the run, so that they do not depend on
        // how fast the machine is: the cold call first, then `countedCalls` calls whose
        // allocations are counted, then one whose retained bytes are, and only then the
        // warm-up bounded by time. (An operation whose calls differ, one cycling through its
        // inputs say, would otherwise average over however many calls the clock allowed.)
        var warm = 0
        let warmLimit = warmLimit(operation)
        var counted: (calls: Int, allocations: UInt64)?
        if warmLimit > 0 {
            // The first call runs cold, before the allocator holds any memory from earlier
            // calls: how far resident memory rises over it (its result still alive) is the
            // memory one operation needs.
            Memory.resetPeak()
            let before = Memory.currentRSS()
            var made = operation.run()
            if let peak = Memory.peakRSS(), let before { result.rssGrowth = max(0, peak - before) }
            made = nil
            _ = made
            warm = 1
        }
        // Only where the counts gate: a slow competitor would pay seconds for them.
        let countedCalls = benchmark.gates ? min(Self.countedCalls, warmLimit - 2) : 0
        if countedCalls > 0 {
            let a0 = flow_allocation_count()
            for _ in 0..<countedCalls { _ = operation.run() }
            counted = (countedCalls, flow_allocation_count() - a0)
            warm += countedCalls
        }
        // One warm call, its result alive: the heap it leaves in use is what its result holds
        // (what a decoded page keeps while it is on screen). Counted by the allocator, block by
        // block (usable sizes), so it does not depend on what the process held before, as
        // resident memory does, nor on what the allocator keeps cached. It counts as a
        // warm-up call, so an exhaustible operation's timed calls stay within what it allows.
        if warm > 0 && flow_live_bytes_available() != 0 {
            flow_live_bytes_begin()
            var made = operation.run()
            result.retainedBytes = max(0, Int(flow_live_bytes_end()))
            made = nil
            _ = made
            warm += 1
        }
        warm = warmUp(operation, from: warm, limit: warmLimit)
        let maxIterations = min(settings.maxIterations, operation.maxCalls.map { $0 < 4 ? $0 : max(3, $0 - warm) } ?? Int.max)
        Memory.resetPeak()
        let start = now()
        var allocations: UInt64 = 0
        while true {
            let a0 = flow_allocation_count()
            let (t0, t1) = timedCall(operation, planted: settings.plantedSlowdown)
            allocations &+= flow_allocation_count() - a0
            result.times.append(t1 - t0)
            let elapsed = Double(t1 - start) / 1e9
            if result.times.count >= maxIterations { break }
            if result.times.count >= settings.minIterations && elapsed >= settings.minTime { break }
            if result.times.count >= min(3, maxIterations) && elapsed >= settings.maxTime { break }
        }
        result.allocationsPerOp = counted.map { Double($0.allocations) / Double($0.calls) } ?? Double(allocations) / Double(result.times.count)
        result.peakRSS = Memory.peakRSS()
        return try encode(result)
    }

    /// The most warm-up calls: a tenth of the calls an exhaustible operation allows (none
    /// when it allows fewer than four), else 100.
    private static func warmLimit(_ operation: Operation) -> Int {
        operation.maxCalls.map { $0 < 4 ? 0 : max(1, $0 / 10) } ?? 100
    }

    /// Warm-up calls after the `warm` already made: until 0.2 s or two calls, whichever is
    /// longer, `limit` at most. Returns the calls made in all.
    private static func warmUp(_ operation: Operation, from warm: Int, limit: Int) -> Int {
        var warm = warm
        let warmStart = now()
        while warm < limit && (warm < 2 || now() - warmStart < 200_000_000) {
            _ = operation.run()
            warm += 1
        }
        return warm
    }

    /// One timed call: when the clock started and stopped. A planted slowdown spins after the
    /// call for that fraction of its time; the result is released after the clock stops
    /// (teardown is not the operation's cost).
    private static func timedCall(_ operation: Operation, planted: Double?) -> (start: UInt64, end: UInt64) {
        let t0 = now()
        var made = operation.run()
        var t1 = now()
        if let planted {
            let until = t1 + UInt64(Double(t1 - t0) * planted)
            while now() < until {}
            t1 = now()
        }
        made = nil
        _ = made
        return (t0, t1)
    }

    /// `--serve`: the worker side of `flow bench --against`'s slices. It warms up, says
    /// `ready`, then answers each `slice SECONDS` line on its stdin with the median time of
    /// the calls it made in that long (at least one) and how many: `MEDIAN_NS CALLS`, or
    /// `exhausted` once an operation that allows only so many calls has had them. It ends at
    /// the end of its input.
    ///
    /// Why slices: a shared machine's cores change speed for tenths of a second at a time
    /// (a neighbour on the same physical core, say), by as much as 1.7x. Two workers measured
    /// one after the other in whole runs land in different spells; slices of a hundredth of a
    /// second, taken in turn on one core, land in the same spell, and their ratio is steady.
    public static func serve(name: String, settings: Settings, suite: [Benchmark] = Suites.all,
                             reply: (String) -> Void = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
                             nextLine: () -> String? = { readLine() }) throws {
        guard let benchmark = suite.first(where: { $0.name == name }) ?? Suites.named(name) else { throw BenchError("no benchmark named \(name)") }
        let operation = try benchmark.prepare(try LoadedWorkload(benchmark.workload))
        var callsLeft = operation.maxCalls ?? Int.max
        // The same warm-up as a whole run's.
        callsLeft -= warmUp(operation, from: 0, limit: warmLimit(operation))
        reply("ready")
        while let line = nextLine() {
            guard line.hasPrefix("slice "), let seconds = Double(line.dropFirst(6)), seconds >= 0 else {
                throw BenchError("a serving worker expects 'slice SECONDS' lines, found '\(line)'")
            }
            guard callsLeft > 0 else {
                reply("exhausted")
                continue
            }
            var times: [Double] = []
            let start = now()
            repeat {
                let (t0, t1) = timedCall(operation, planted: settings.plantedSlowdown)
                times.append(Double(t1 - t0))
                callsLeft -= 1
            } while callsLeft > 0 && Double(now() - start) / 1e9 < seconds
            let median = BenchmarkResult.percentile(times.sorted(), 0.5)
            reply("\(UInt64(median.rounded())) \(times.count)")
        }
    }

    /// How many calls after the cold one have their allocations counted.
    static let countedCalls = 4

    private static func encode(_ result: WorkerResult) throws -> String {
        String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
    }

    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

final class OperationBox {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// Resident memory, from /proc (Linux).
enum Memory {
    /// Resets the peak (VmHWM) so that what follows is measured on its own.
    static func resetPeak() {
        if let f = fopen("/proc/self/clear_refs", "w") {
            fputs("5", f)
            fclose(f)
        }
    }

    static func currentRSS() -> Int? { statusField("VmRSS:") }

    static func peakRSS() -> Int? { statusField("VmHWM:") }

    /// A `kB` field of /proc/self/status, in bytes.
    private static func statusField(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let digits = line.dropFirst(name.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first
            return digits.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}
