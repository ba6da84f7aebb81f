import FlowJSON
import Foundation

// A run in the formats other tools read, so that its figures go where teams already look:
// Google Benchmark's JSON (its compare.py, Bencher's cpp_google adapter and
// github-action-benchmark's googlecpp tool read it), github-action-benchmark's custom lists,
// and the Bencher Metric Format.
extension Report {
    /// Where and when the run happened, as the exports describe it.
    public struct ExportContext: Sendable {
        public var date: String
        public var hostName: String
        public var cores: Int
        public var cpu: String

        public init(date: String, hostName: String, cores: Int, cpu: String) {
            self.date = date
            self.hostName = hostName
            self.cores = cores
            self.cpu = cpu
        }

        public static func current() -> ExportContext {
            let machine = HistoryRun.currentMachine()
            return ExportContext(date: HistoryRun.timestamp(), hostName: ProcessInfo.processInfo.hostName, cores: machine.cores, cpu: machine.cpu)
        }
    }

    /// How many repetitions a benchmark's timed calls are cut into for Google Benchmark's
    /// format: contiguous runs of calls, each reported as its mean per call, so that
    /// compare.py's U test has repetitions to rank without a line per call.
    static let repetitions = 10

    /// `times` (in call order) cut into at most ``repetitions`` contiguous runs of near-equal
    /// length (the first ones one call longer when they do not divide evenly): each run's
    /// call count and mean.
    static func repetitions(of times: [Double]) -> [(calls: Int, mean: Double)] {
        let count = Swift.min(repetitions, times.count)
        guard count > 0 else { return [] }
        var runs: [(calls: Int, mean: Double)] = []
        var start = 0
        for k in 0..<count {
            let length = times.count / count + (k < times.count % count ? 1 : 0)
            let slice = times[start..<start + length]
            runs.append((length, slice.reduce(0, +) / Double(length)))
            start += length
        }
        return runs
    }

    // MARK: Google Benchmark

    /// Google Benchmark's JSON (`--benchmark_format=json` with repetitions): one `iteration`
    /// entry per repetition, then the `mean`, `median` and `stddev` aggregates, times in ns.
    /// `cpu_time` is the wall time: the benchmarks run on one thread, and the worker times
    /// the wall clock only. The deterministic figures are counters of each entry
    /// (`allocations`, `instructions` where callgrind counted them, `peak_rss_bytes`,
    /// `retained_bytes`).
    public func googleBenchmark(_ context: ExportContext = .current()) -> [UInt8] {
        var ctx = JSONObject()
        ctx.append("date", .string(context.date))
        ctx.append("host_name", .string(context.hostName))
        ctx.append("executable", "flow bench")
        ctx.append("num_cpus", Self.number(Double(context.cores)))
        ctx.append("mhz_per_cpu", 0)
        ctx.append("cpu_scaling_enabled", .bool(false))
        ctx.append("caches", .array([]))
        ctx.append("load_avg", .array([]))
        ctx.append("library_build_type", "release")
        ctx.append("json_schema_version", 1)
        ctx.append("flow_bench_cpu", .string(context.cpu))
        var entries: [JSONValue] = []
        for (family, r) in results.enumerated() {
            let runs = Self.repetitions(of: r.times)
            func entry(name: String, runType: String, aggregate: String?, index: Int?, iterations: Int, time: Double) -> JSONValue {
                var o = JSONObject()
                o.append("name", .string(name))
                o.append("family_index", Self.number(Double(family)))
                o.append("per_family_instance_index", 0)
                o.append("run_name", .string(r.name))
                o.append("run_type", .string(runType))
                o.append("repetitions", Self.number(Double(runs.count)))
                if let index { o.append("repetition_index", Self.number(Double(index))) }
                o.append("threads", 1)
                if let aggregate {
                    o.append("aggregate_name", .string(aggregate))
                    o.append("aggregate_unit", "time")
                }
                o.append("iterations", Self.number(Double(iterations)))
                o.append("real_time", Self.number(time))
                o.append("cpu_time", Self.number(time))
                o.append("time_unit", "ns")
                if aggregate != "stddev", time > 0 {
                    if let bytes = r.bytes { o.append("bytes_per_second", Self.number(Double(bytes) / time * 1e9)) }
                    if let widgets = r.widgets { o.append("items_per_second", Self.number(Double(widgets) / time * 1e9)) }
                }
                o.append("allocations", Self.number(r.allocationsPerOp))
                if let instructions = r.instructions.value { o.append("instructions", Self.number(instructions)) }
                if let peak = r.peakRSS { o.append("peak_rss_bytes", Self.number(Double(peak))) }
                if let retained = r.retainedBytes { o.append("retained_bytes", Self.number(Double(retained))) }
                return .object(o)
            }
            for (k, run) in runs.enumerated() {
                entries.append(entry(name: r.name, runType: "iteration", aggregate: nil, index: k, iterations: run.calls, time: run.mean))
            }
            let means = runs.map(\.mean)
            guard !means.isEmpty else { continue }
            let mean = means.reduce(0, +) / Double(means.count)
            let median = BenchmarkResult.percentile(means.sorted(), 0.5)
            let variance = means.count > 1 ? means.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(means.count - 1) : 0
            for (aggregate, value) in [("mean", mean), ("median", median), ("stddev", variance.squareRoot())] {
                entries.append(entry(name: "\(r.name)_\(aggregate)", runType: "aggregate", aggregate: aggregate, index: nil,
                                     iterations: runs.count, time: value))
            }
        }
        var members = JSONObject()
        members.append("context", .object(ctx))
        members.append("benchmarks", .array(entries))
        return JSONWriter.pretty(.object(members))
    }

    // MARK: github-action-benchmark

    /// github-action-benchmark's `customSmallerIsBetter` list: each benchmark's wall median
    /// (`ns`, its range the spread from min to p90), allocations, instructions where counted,
    /// peak resident memory and retained heap (`bytes`).
    public func githubActionBenchmarkSmallerIsBetter() -> [UInt8] {
        var list: [JSONValue] = []
        for r in results {
            list.append(Self.customEntry("\(r.name) wall median", unit: "ns", value: r.median,
                                         range: String(format: "%.0f .. %.0f", r.min, r.p90),
                                         extra: "\(r.iterations) calls; min \(Format.duration(r.min)), p90 \(Format.duration(r.p90))"))
            list.append(Self.customEntry("\(r.name) allocations", unit: "allocations", value: r.allocationsPerOp))
            if let instructions = r.instructions.value {
                list.append(Self.customEntry("\(r.name) instructions", unit: "instructions", value: instructions))
            }
            if let peak = r.peakRSS { list.append(Self.customEntry("\(r.name) peak RSS", unit: "bytes", value: Double(peak))) }
            if let retained = r.retainedBytes { list.append(Self.customEntry("\(r.name) retained", unit: "bytes", value: Double(retained))) }
        }
        return JSONWriter.pretty(.array(list))
    }

    /// github-action-benchmark's `customBiggerIsBetter` list: throughput, `MB/s` and
    /// `widgets/s` at the median, where the benchmark has bytes or widgets.
    public func githubActionBenchmarkBiggerIsBetter() -> [UInt8] {
        var list: [JSONValue] = []
        for r in results {
            if let mbs = r.megabytesPerSecond { list.append(Self.customEntry("\(r.name) throughput", unit: "MB/s", value: mbs)) }
            if let wps = r.widgetsPerSecond { list.append(Self.customEntry("\(r.name) widgets", unit: "widgets/s", value: wps)) }
        }
        return JSONWriter.pretty(.array(list))
    }

    static func customEntry(_ name: String, unit: String, value: Double, range: String? = nil, extra: String? = nil) -> JSONValue {
        var o = JSONObject()
        o.append("name", .string(name))
        o.append("unit", .string(unit))
        o.append("value", number(value))
        if let range { o.append("range", .string(range)) }
        if let extra { o.append("extra", .string(extra)) }
        return .object(o)
    }

    // MARK: Bencher Metric Format

    /// The Bencher Metric Format: for each benchmark, `latency` (ns: the median, with min and
    /// p90 as its lower and upper values), `throughput` (calls per second at the median, the
    /// same spread), and the counts as measures of their own (`allocations`, `instructions`
    /// where counted, `peak-rss` and `retained-bytes` in bytes).
    public func bencherMetricFormat() -> [UInt8] {
        var members = JSONObject()
        for r in results {
            var measures = JSONObject()
            func measure(_ value: Double, lower: Double? = nil, upper: Double? = nil) -> JSONValue {
                var o = JSONObject()
                o.append("value", Self.number(value))
                if let lower { o.append("lower_value", Self.number(lower)) }
                if let upper { o.append("upper_value", Self.number(upper)) }
                return .object(o)
            }
            let spread = r.iterations > 1
            measures.append("latency", measure(r.median, lower: spread ? r.min : nil, upper: spread ? r.p90 : nil))
            if r.median > 0 {
                measures.append("throughput", measure(1e9 / r.median, lower: spread && r.p90 > 0 ? 1e9 / r.p90 : nil,
                                                      upper: spread && r.min > 0 ? 1e9 / r.min : nil))
            }
            measures.append("allocations", measure(r.allocationsPerOp))
            if let instructions = r.instructions.value { measures.append("instructions", measure(instructions)) }
            if let peak = r.peakRSS { measures.append("peak-rss", measure(Double(peak))) }
            if let retained = r.retainedBytes { measures.append("retained-bytes", measure(Double(retained))) }
            members.append(r.name, .object(measures))
        }
        return JSONWriter.pretty(.object(members))
    }
}
