import Foundation
import Testing
import FlowCore
import FlowJSON
@testable import FlowTool
import FlowWidgets
import FlowWorkloads

/// `flow profile --trace`: one decode recorded on a per-thread timeline (`PipelineTimeline`),
/// written as Chrome Trace Event JSON and read back as busy, idle and speed figures.
@Suite struct DecodeTraceTests {
    typealias Span = PipelineTimeline.Span

    /// 3,000 widgets in 60 sections on two threads: scanned in two parts, the list cut into
    /// eight stretches. Every finished section gives its index back at once, so the index
    /// release spans show up on a page this small. The first stretch to start waits (a
    /// while at most) for one to start on another thread, so that a busy machine does not
    /// leave every stretch to the caller.
    static let parallel: DecodeTrace = recordParallel()

    static let input = PageGenerator(PageGenerator.Options(widgets: 3000, seed: 3, sections: 60)).generate()
    /// The same page on one thread, unrecorded: what the spans must count.
    static let serial = try! PageDecoder(registry: FlowWidgets.registry, options: PageDecodingOptions(threads: 1)).decode(input).page
    /// Widgets claimed in the page's ledger: each section's header and top-level widgets.
    static let pageWidgets = serial.sections.reduce(0) { $0 + $1.widgets.count + ($1.header == nil ? 0 : 1) }

    static func recordParallel() -> DecodeTrace {
        var options = PageDecodingOptions(threads: 2)
        options.indexReleaseMinimumBytes = 0
        options.indexReleaseRun = 1
        let gate = SecondThread()
        var hold: (@Sendable (UInt) -> Void)?
        if ProcessInfo.processInfo.activeProcessorCount >= 2 { hold = { @Sendable thread in gate.started(on: thread) } }
        let recorded: Result<DecodeTrace, PageDecodingError> = ParallelSectionsRun.$stretchStarting.withValue(hold) {
            Result { () throws(PageDecodingError) -> DecodeTrace in
                try DecodeTrace.record(input, registry: FlowWidgets.registry, options: options, runs: 3)
            }
        }
        return try! recorded.get()
    }

    static func spans(_ trace: DecodeTrace, _ name: String) -> [Span] {
        trace.timeline.spans.filter { $0.name == name }.sorted { $0.start < $1.start }
    }

    static func contains(_ outer: Span, _ inner: Span) -> Bool {
        outer.start <= inner.start && inner.end <= outer.end
    }

    @Test func everyStageIsRecordedWhereItBelongs() throws {
        let trace = Self.parallel
        let caller = trace.timeline.callerThread
        let scan = try #require(Self.spans(trace, "scan").first)
        let page = try #require(Self.spans(trace, "page").first)
        let list = try #require(Self.spans(trace, "section list").first)
        #expect(Self.spans(trace, "scan").count == 1 && Self.spans(trace, "page").count == 1 && Self.spans(trace, "section list").count == 1)
        #expect([scan, page, list].allSatisfy { $0.thread == caller }, "the scan, the page and the list are the caller's")
        #expect(scan.end <= page.start, "the page decodes after the scan")
        let decode = try #require(Self.spans(trace, "decode").first)
        #expect(decode.thread == caller && Self.contains(decode, scan) && Self.contains(decode, page))
        #expect(trace.start <= decode.start && decode.end <= trace.end)
        #expect(Self.contains(page, list))
        #expect(scan.waits && list.waits && !page.waits)

        // The scan in parts: each part once, the join on the caller after them, inside the scan.
        let parts = Self.spans(trace, "scan part")
        #expect(parts.count == 2 && scan["parts"] == 2)
        #expect(parts.map { $0["part"] ?? -1 }.sorted() == [0, 1])
        #expect(parts.reduce(0) { $0 + ($1["bytes"] ?? 0) } == scan["bytes"], "the parts cover the document")
        let join = try #require(Self.spans(trace, "join").first)
        #expect(join.thread == caller && Self.contains(scan, join))
        #expect(parts.allSatisfy { $0.end <= join.start && Self.contains(scan, $0) })
        #expect(scan["entries"] == join["entries"])

        // Stretches and claims inside the list; the caller's nested in it on its own thread.
        let stretches = Self.spans(trace, "stretch"), claims = Self.spans(trace, "claims")
        #expect(stretches.count == 8 && list["stretches"] == 8)
        #expect(claims.count == 8)
        #expect((stretches + claims).allSatisfy { Self.contains(list, $0) })
        // Index release: on the threads that decode stretches, while the list decodes.
        let releases = Self.spans(trace, "index release")
        #expect(!releases.isEmpty)
        #expect(releases.allSatisfy { release in Self.contains(list, release) && stretches.contains { $0.thread == release.thread } })
        #expect(page["widgets"] == Self.serial.widgetCount && page["sections"] == 60)
    }

    @Test func eachStretchIsClaimedAfterItIsDecodedAndInOrder() throws {
        let trace = Self.parallel
        let stretches = Dictionary(uniqueKeysWithValues: Self.spans(trace, "stretch").map { ($0["stretch"]!, $0) })
        let claims = Self.spans(trace, "claims")
        #expect(claims.map { $0["stretch"] } == Array(0..<8), "claimed in list order")
        for (previous, next) in zip(claims, claims.dropFirst()) {
            #expect(previous.end <= next.start, "claims \(next["stretch"]!) began before claims \(previous["stretch"]!) ended")
        }
        for claim in claims {
            let stretch = try #require(stretches[claim["stretch"]!])
            #expect(stretch.end <= claim.start, "stretch \(claim["stretch"]!) claimed before it was decoded")
            // Every section claims its id, every widget and header its own.
            #expect(claim["ids"] == stretch["sections"]! + stretch["widgets"]!)
        }
        #expect(claims.reduce(0) { $0 + $1["ids"]! } == 60 + Self.pageWidgets)
        #expect(Self.pageWidgets >= 3000)
    }

    @Test func theStretchesCoverEverySectionOnce() {
        let stretches = Self.spans(Self.parallel, "stretch").sorted { $0["first section"]! < $1["first section"]! }
        var next = 0
        for stretch in stretches {
            #expect(stretch["first section"] == next, "a gap or an overlap before section \(next)")
            #expect(stretch["sections"]! >= 1)
            next = stretch["first section"]! + stretch["sections"]!
        }
        #expect(next == 60)
        #expect(stretches.reduce(0) { $0 + $1["widgets"]! } == Self.pageWidgets)
        let list = Self.spans(Self.parallel, "section list")[0]
        #expect(stretches.reduce(0) { $0 + $1["entries"]! } <= list["entries"]!)
        #expect(stretches.allSatisfy { $0["bytes"]! > 0 })
    }

    @Test func onAMachineWithTwoCoresAWorkerTakesPart() throws {
        try #require(ProcessInfo.processInfo.activeProcessorCount >= 2)
        let trace = Self.parallel
        #expect(trace.threads.count >= 2)
        #expect(Self.spans(trace, "stretch").contains { $0.thread != trace.timeline.callerThread })
        #expect(trace.reading.threads.count == trace.threads.count)
    }

    @Test func theWrittenTraceReadsBackAsTraceEvents() throws {
        let trace = Self.parallel
        let data = try trace.json(title: "page.json")
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(json["traceEvents"] as? [[String: Any]])
        let complete = events.filter { $0["ph"] as? String == "X" }
        #expect(complete.count == trace.timeline.spans.count)
        for event in complete {
            #expect(event["pid"] as? Int == 1)
            #expect((event["ts"] as? Double ?? -1) >= 0 && (event["dur"] as? Double ?? -1) >= 0, "\(event)")
            #expect((1...trace.threads.count).contains(event["tid"] as? Int ?? 0))
            #expect(event["args"] is [String: Any])
        }
        let names = Set(complete.compactMap { $0["name"] as? String })
        #expect(names == ["decode", "scan", "scan part", "join", "page", "section list", "stretch", "claims", "index release"])
        // Sorted by start: a viewer nests by order.
        let starts = complete.compactMap { $0["ts"] as? Double }
        #expect(starts == starts.sorted())
        let threadNames = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
            .sorted { ($0["tid"] as? Int ?? 0) < ($1["tid"] as? Int ?? 0) }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(threadNames == (0..<trace.threads.count).map { $0 == 0 ? "caller" : "worker \($0 + 1)" })
        let stretch = try #require(complete.first { $0["name"] as? String == "stretch" }?["args"] as? [String: Any])
        #expect(Set(stretch.keys).isSuperset(of: ["bytes", "entries", "sections", "widgets", "stretch", "first section"]))
        let page = try #require(complete.first { $0["name"] as? String == "page" })
        #expect(page["tid"] as? Int == 1, "the page is the caller's")
        let other = try #require(json["otherData"] as? [String: Any])
        #expect(other["threads"] as? Int == trace.threads.count)
        #expect(other["cores"] as? Int == ProcessInfo.processInfo.activeProcessorCount)
        #expect(other["minor page faults"] as? Int == trace.pageFaults)
        #expect(other["duration ms"] as? Double ?? 0 > 0)
        #expect(other["longest stretch over mean"] as? Double ?? 0 >= 1)
        #expect(other["decodes recorded"] as? Int == 3)
    }

    /// A small page: one scan, one page, no list in parallel, nothing released.
    @Test func aSmallPageRecordsTheScanAndThePageOnly() throws {
        let input = PageGenerator(PageGenerator.Options(widgets: 40, seed: 3, sections: 6)).generate()
        let trace = try DecodeTrace.record(input, registry: FlowWidgets.registry, options: PageDecodingOptions(threads: 4), runs: 1)
        var spans = trace.timeline.spans.sorted { ($0.start, $1.duration) < ($1.start, $0.duration) }
        #expect(spans.map(\.name) == ["decode", "scan", "page"], "the call, then its two stages")
        #expect(spans.allSatisfy { Self.contains(spans[0], $0) })
        spans.removeFirst()
        #expect(spans.allSatisfy { $0.thread == trace.timeline.callerThread })
        #expect(spans[0].end <= spans[1].start && !spans[0].waits)
        #expect(spans[0]["parts"] == 1 && spans[0]["bytes"] == input.count)
        let page = try PageDecoder(registry: FlowWidgets.registry).decode(input).page
        #expect(spans[1]["widgets"] == page.widgetCount && spans[1]["sections"] == 6)
        #expect(trace.start <= spans[0].start && spans[1].end <= trace.end)
        #expect(trace.threads.count == 1)
    }

    // MARK: The reading, on a made-up timeline

    /// The caller decodes from 0 to 1,000 ns: the page's own work until 100, its stretch
    /// (400 entries in 400 ns) and claims, then waits in the list from 600 to 900, then the
    /// page's last 100. The worker decodes a stretch of 300 entries in 600 ns and claims it.
    static let madeUp: TimelineReading = {
        let spans = [
            Span(name: "page", thread: 1, start: 0, end: 1000),
            Span(name: "section list", thread: 1, start: 100, end: 900, waits: true),
            Span(name: "stretch", thread: 1, start: 100, end: 500, args: [.init("entries", 400)]),
            Span(name: "claims", thread: 1, start: 500, end: 600),
            Span(name: "stretch", thread: 7, start: 150, end: 750, args: [.init("entries", 300)]),
            Span(name: "claims", thread: 7, start: 750, end: 800),
        ]
        return TimelineReading(spans: spans, threads: [1, 7], start: 0, end: 1000, cores: 2)
    }()

    @Test func busyAndIdleCountOnlyWork() {
        let reading = Self.madeUp
        #expect(reading.threads[0].busy == 700, "the wait in the section list is not work")
        #expect(reading.threads[0].busyShare == 0.7)
        #expect(reading.threads[1].busy == 650)
        #expect(reading.threads[1].busyShare == 0.65)
        #expect(abs(reading.otherCoresIdle! - 0.35) < 1e-9)
        // On four cores, the two idle ones count too.
        let four = TimelineReading(spans: Self.madeUpSpans, threads: [1, 7], start: 0, end: 1000, cores: 4)
        #expect(abs(four.otherCoresIdle! - (1 - 650.0 / 3000)) < 1e-9)
    }

    static var madeUpSpans: [Span] {
        [Span(name: "page", thread: 1, start: 0, end: 1000),
         Span(name: "stretch", thread: 7, start: 150, end: 750, args: [.init("entries", 300)]),
         Span(name: "claims", thread: 7, start: 750, end: 800)]
    }

    @Test func speedAndBalanceAreAgainstTheCallerAndTheMean() {
        let reading = Self.madeUp
        #expect(reading.speedAgainstCaller(0) == 1)
        #expect(reading.speedAgainstCaller(1) == 0.5, "300 entries in 600 ns against 400 in 400")
        #expect(reading.longestOverMean("stretch") == 1.2, "600 over a mean of 500")
        #expect(reading.longestOverMean("page") == nil, "one span has no spread")
        #expect(reading.stages.map(\.name) == ["page", "section list", "stretch", "claims"])
        // A caller that decoded no stretch has no speed to compare with.
        let none = TimelineReading(spans: Self.madeUpSpans, threads: [1, 7], start: 0, end: 1000, cores: 2)
        #expect(none.speedAgainstCaller(1) == nil)
    }

    @Test func theTextReadsTheFigures() {
        let trace = DecodeTrace(timeline: PipelineTimeline(callerThread: 1, spans: [
            Span(name: "page", thread: 1, start: 0, end: 1_000_000),
            Span(name: "stretch", thread: 1, start: 0, end: 500_000, args: [.init("entries", 500)]),
            Span(name: "stretch", thread: 2, start: 0, end: 1_000_000, args: [.init("entries", 500)]),
        ]), start: 0, end: 1_000_000, pageFaults: 42, threadsAllowed: 2, cores: 2)
        let text = trace.text(file: "t.json")
        #expect(text.contains("t.json"))
        #expect(text.contains("worker 2"))
        #expect(text.contains("Minor page faults during the decode: 42."))
        #expect(text.contains("The second core idle for 0% of the decode."))
        #expect(text.split(separator: "\n").contains { $0.contains("worker 2") && $0.hasSuffix("0.50") }, "\(text)")
        #expect(text.split(separator: "\n").contains { $0.contains("stretch") && $0.hasSuffix("1.33") }, "\(text)")
    }

    // MARK: Usage

    static func page() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).json").path
        try Data(PageGenerator(PageGenerator.Options(widgets: 60, seed: 5)).generate()).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [
        (["--trace"], "--trace expects a value (FILE.json)"),
        (["--trace", "--threads", "2"], "--trace expects a value (FILE.json), got the option '--threads'"),
        (["--trace="], "--trace expects the file to write (FILE.json), got an empty name"),
        (["--trace", "t.json", "--threads", "0"], "--threads expects an integer in 1...64, got '0'"),
        (["--trace", "t.json", "--threads", "two"], "--threads expects an integer in 1...64, got 'two'"),
        (["--threads", "2"], "it needs --trace FILE.json"),
    ])
    func traceUsageErrorsSayWhatWasExpected(options: [String], message: String) throws {
        let page = try Self.page()
        defer { try? FileManager.default.removeItem(atPath: page) }
        #expect(FlowTool.run(arguments: ["profile", page] + options, registry: FlowWidgets.registry) == 64)
        let run = try FlowProcess.run(["profile", page] + options)
        #expect(run.status == 64)
        #expect(run.err.contains(message), "\(run.err)")
    }

    @Test func helpNamesBothOptions() {
        let help = ProfileCommand.spec.help(tool: "flow")
        #expect(help.contains("--trace FILE.json") && help.contains("--threads N"))
        #expect(help.contains("Chrome Trace Event JSON"))
    }
}

/// Holds the first thread to start a stretch until one starts on another thread (a minute
/// at most: a machine that never runs a second one then fails the checks instead of hanging).
final class SecondThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var first: UInt?
    private var second = false

    func started(on thread: UInt) {
        condition.lock()
        defer { condition.unlock() }
        guard let first else {
            first = thread
            let deadline = Date(timeIntervalSinceNow: 60)
            while !second, condition.wait(until: deadline) {}
            return
        }
        if thread != first, !second {
            second = true
            condition.broadcast()
        }
    }
}
