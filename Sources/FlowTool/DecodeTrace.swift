#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlowCore
import FlowJSON
import Foundation

/// `flow profile --trace`: one decode recorded as it runs (see `PipelineTimeline`), written
/// as Chrome Trace Event JSON and read back as figures: how long each stage's pieces took
/// against each other, how busy each thread was, how fast each worker decoded against the
/// caller.
struct DecodeTrace {
    let timeline: PipelineTimeline
    /// The decode call, in the timeline's clock (nanoseconds).
    let start: UInt64
    let end: UInt64
    /// Minor page faults of the process during the decode.
    let pageFaults: Int
    /// The threads the decode was allowed (`--threads`), and the machine's cores.
    let threadsAllowed: Int
    let cores: Int
    /// How many decodes were recorded; this is the one of median duration.
    var decodes = 1

    var duration: UInt64 { end - start }

    /// Records `runs` decodes of `bytes` and keeps the one of median duration: the first
    /// decodes fault in memory (the index, the model) that the later ones reuse.
    static func record(_ bytes: [UInt8], registry: WidgetRegistry, options: PageDecodingOptions, runs: Int = 7) throws(PageDecodingError) -> DecodeTrace {
        let decoder = PageDecoder(registry: registry, options: options)
        // One decode unrecorded first: a process's first decode also makes what decoders
        // make once (the `{}` a widget without data decodes from, scanned), which is no stage
        // of a page's decode.
        _ = try decoder.decode(bytes)
        var traces: [DecodeTrace] = []
        for _ in 0..<max(1, runs) {
            let timeline = PipelineTimeline()
            let faults = minorPageFaults()
            let start = PipelineTimeline.now()
            let decoded = PipelineTimeline.bind(timeline) { Result { () throws(PageDecodingError) in try decoder.decode(bytes) } }
            // The whole call, on the caller: what no stage covers (making the document
            // around the scan, handing the page back) is work too.
            let end = PipelineTimeline.now()
            if case .success(let page) = decoded {
                let widgets = page.page.widgetCount
                timeline.record("decode", from: start, to: end, ["bytes": bytes.count, "widgets": widgets, "threads allowed": options.threads])
                timeline.annotate("page", "widgets", widgets)
            }
            let faulted = minorPageFaults() - faults
            _ = try decoded.get()
            traces.append(DecodeTrace(timeline: timeline, start: start, end: end, pageFaults: faulted,
                                      threadsAllowed: options.threads, cores: ProcessInfo.processInfo.activeProcessorCount))
        }
        var median = traces.sorted { $0.duration < $1.duration }[traces.count / 2]
        median.decodes = traces.count
        return median
    }

    static func minorPageFaults() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        let who = RUSAGE_SELF.rawValue
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        return Int(usage.ru_minflt)
    }

    /// The threads that ran a span, numbered by first appearance: the caller first.
    var threads: [UInt] {
        var order = [timeline.callerThread]
        for span in timeline.spans.sorted(by: { $0.start < $1.start }) where !order.contains(span.thread) {
            order.append(span.thread)
        }
        return order
    }

    static func threadName(_ index: Int) -> String { index == 0 ? "caller" : "worker \(index + 1)" }

    var reading: TimelineReading {
        TimelineReading(spans: timeline.spans, threads: threads, start: start, end: end, cores: cores)
    }

    // MARK: Chrome Trace Event JSON

    /// The trace: a complete event (`ph: X`) per span, on a thread named for its role,
    /// with the summary figures in `otherData`.
    func json(title: String) throws -> Data {
        let threads = self.threads
        let reading = self.reading
        var events: [[String: Any]] = [
            ["ph": "M", "name": "process_name", "pid": 1, "tid": 1, "args": ["name": title]],
        ]
        for (k, _) in threads.enumerated() {
            events.append(["ph": "M", "name": "thread_name", "pid": 1, "tid": k + 1, "args": ["name": Self.threadName(k)]])
            events.append(["ph": "M", "name": "thread_sort_index", "pid": 1, "tid": k + 1, "args": ["sort_index": k]])
        }
        // By start, a span before those it holds (same start: the longer first).
        let spans = timeline.spans.sorted { ($0.start, $1.duration) < ($1.start, $0.duration) }
        for span in spans {
            var args: [String: Any] = [:]
            for arg in span.args { args[arg.name] = arg.value }
            events.append([
                "ph": "X", "cat": "decode", "name": span.name, "pid": 1,
                "tid": (threads.firstIndex(of: span.thread) ?? 0) + 1,
                "ts": Self.microseconds(span.start &- start), "dur": Self.microseconds(span.duration), "args": args,
            ])
        }
        var other: [String: Any] = [
            "page": title,
            "threads": reading.threads.count,
            "threads allowed": threadsAllowed,
            "cores": cores,
            "minor page faults": pageFaults,
            "duration ms": (Double(duration) / 1e6 * 1000).rounded() / 1000,
            "decodes recorded": decodes,
            "kept": "the decode of median duration",
        ]
        if let ratio = reading.longestOverMean("stretch") { other["longest stretch over mean"] = (ratio * 100).rounded() / 100 }
        if let idle = reading.otherCoresIdle { other["other cores idle share"] = (idle * 1000).rounded() / 1000 }
        let trace: [String: Any] = ["traceEvents": events, "displayTimeUnit": "ms", "otherData": other]
        return try JSONSerialization.data(withJSONObject: trace, options: [.sortedKeys])
    }

    /// Nanoseconds as microseconds, to the nanosecond.
    static func microseconds(_ ns: UInt64) -> Double { Double(ns) / 1000 }

    /// What the trace says, in words and figures (printed after the file is written).
    func text(file: String) -> String {
        let reading = self.reading
        var lines = ["",
                     "Trace of one decode written to \(file): the median by duration of \(decodes) decodes, "
                        + String(format: "%.2f ms", Double(duration) / 1e6) + " on \(reading.threads.count) thread(s) "
                        + "(\(threadsAllowed) allowed, \(cores) cores)."]
        lines.append("")
        lines.append("  " + "stage".padding(to: 16) + "spans".leftPadded(6) + "mean ms".leftPadded(10) + "longest ms".leftPadded(12) + "longest/mean".leftPadded(14))
        for stage in reading.stages {
            var line = "  " + stage.name.padding(to: 16) + "\(stage.count)".leftPadded(6)
                + String(format: "%.3f", stage.mean / 1e6).leftPadded(10) + String(format: "%.3f", stage.longest / 1e6).leftPadded(12)
            if stage.count > 1 { line += String(format: "%.2f", stage.longest / max(stage.mean, 1)).leftPadded(14) }
            lines.append(line)
        }
        lines.append("")
        lines.append("  " + "thread".padding(to: 16) + "busy ms".leftPadded(9) + "busy".leftPadded(7) + "idle".leftPadded(7)
                     + "stretches".leftPadded(11) + "speed vs caller".leftPadded(17))
        for (k, thread) in reading.threads.enumerated() {
            var line = "  " + Self.threadName(k).padding(to: 16) + String(format: "%.3f", thread.busy / 1e6).leftPadded(9)
                + Self.percent(thread.busyShare).leftPadded(7) + Self.percent(1 - thread.busyShare).leftPadded(7)
                + "\(thread.stretches)".leftPadded(11)
            if let speed = reading.speedAgainstCaller(k) { line += String(format: "%.2f", speed).leftPadded(17) } else { line += "–".leftPadded(17) }
            lines.append(line)
        }
        lines.append("")
        if let idle = reading.otherCoresIdle {
            let others = cores == 2 ? "The second core" : "The other \(cores - 1) cores"
            lines.append("\(others) idle for \(Self.percent(idle)) of the decode.")
        }
        lines.append("Minor page faults during the decode: \(pageFaults).")
        lines.append("Open the file in https://ui.perfetto.dev, chrome://tracing or speedscope; its otherData holds these figures.")
        return lines.joined(separator: "\n") + "\n"
    }

    static func percent(_ share: Double) -> String { String(format: "%.0f%%", share * 100) }
}

/// Figures read off a recorded timeline. A thread is busy where the innermost span it is
/// in is work; it is idle outside every span, and where the innermost span waits for other
/// threads (a scan in parts, a section list decoded in parallel, once its own pieces are
/// out of the way).
struct TimelineReading {
    struct Thread {
        /// Nanoseconds of work in the decode.
        var busy: Double
        var busyShare: Double
        /// The stretches it decoded, their index entries and nanoseconds.
        var stretches: Int
        var stretchEntries: Int
        var stretchTime: Double
    }

    struct Stage {
        var name: String
        var count: Int
        var mean: Double
        var longest: Double
    }

    var duration: Double
    var cores: Int
    /// In the order of `threads` given (the caller first).
    var threads: [Thread]
    /// In the order the decode first reaches them.
    var stages: [Stage]

    init(spans: [PipelineTimeline.Span], threads order: [UInt], start: UInt64, end: UInt64, cores: Int) {
        duration = Double(end &- start)
        self.cores = cores
        threads = order.map { id in
            let own = spans.filter { $0.thread == id }
            let busy = Self.busyTime(own, from: start, to: end)
            let stretches = own.filter { $0.name == "stretch" }
            return Thread(busy: busy, busyShare: end > start ? busy / Double(end - start) : 0,
                          stretches: stretches.count, stretchEntries: stretches.reduce(0) { $0 + ($1["entries"] ?? 0) },
                          stretchTime: stretches.reduce(0) { $0 + Double($1.duration) })
        }
        var names: [String] = []
        for span in spans.sorted(by: { $0.start < $1.start }) where !names.contains(span.name) { names.append(span.name) }
        stages = names.map { name in
            let durations = spans.filter { $0.name == name }.map { Double($0.duration) }
            return Stage(name: name, count: durations.count, mean: durations.reduce(0, +) / Double(durations.count), longest: durations.max() ?? 0)
        }
    }

    /// The time within `from..<to` where the innermost of `spans` (one thread's) is work.
    static func busyTime(_ spans: [PipelineTimeline.Span], from: UInt64, to: UInt64) -> Double {
        var cuts = Set([from, to])
        for span in spans {
            cuts.insert(min(max(span.start, from), to))
            cuts.insert(min(max(span.end, from), to))
        }
        let points = cuts.sorted()
        var busy: UInt64 = 0
        for (a, b) in zip(points, points.dropFirst()) {
            let innermost = spans.filter { $0.start <= a && $0.end >= b }.min { $0.duration < $1.duration }
            if let innermost, !innermost.waits { busy += b - a }
        }
        return Double(busy)
    }

    /// The longest span named `name` over their mean; nil with fewer than two.
    func longestOverMean(_ name: String) -> Double? {
        guard let stage = stages.first(where: { $0.name == name }), stage.count > 1, stage.mean > 0 else { return nil }
        return stage.longest / stage.mean
    }

    /// Thread `k`'s decoding speed on its stretches (entries a nanosecond) over the caller's;
    /// nil when either decoded none.
    func speedAgainstCaller(_ k: Int) -> Double? {
        guard k < threads.count, let caller = threads.first else { return nil }
        let mine = threads[k]
        guard mine.stretchTime > 0, caller.stretchTime > 0, caller.stretchEntries > 0 else { return nil }
        return (Double(mine.stretchEntries) / mine.stretchTime) / (Double(caller.stretchEntries) / caller.stretchTime)
    }

    /// The share of the other cores' time (all but the caller's) during the decode that no
    /// other thread used; nil on one core.
    var otherCoresIdle: Double? {
        guard cores > 1, duration > 0 else { return nil }
        let capacity = Double(cores - 1) * duration
        let used = threads.dropFirst().reduce(0) { $0 + $1.busy }
        return max(0, 1 - min(used, capacity) / capacity)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}
