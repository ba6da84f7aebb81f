import FlowBenchmarks
import FlowCore
import Foundation

/// `flow profile FILE`: where one page's decode goes.
enum ProfileCommand {
    static let spec = CommandSpec(
        name: "profile",
        summary: "Where one page's decode goes: stages, widget types, heaviest widgets (flow-profile/1).",
        positionals: [("FILE", "The page document.")],
        options: [
            .init(name: "format", valueName: "text|json", help: "Output format (default text)."),
            .init(name: "chart", valueName: "FILE.svg", help: "Also write the profile as an SVG chart."),
            .init(name: "flamegraph", valueName: "FILE.svg", help: "Also write a flame graph of one decode (needs valgrind)."),
            .init(name: "folded", valueName: "FILE", help: "Also write its call stacks, folded (needs valgrind)."),
            .init(name: "speedscope", valueName: "FILE.json", help: "Also write its call stacks in speedscope's format (needs valgrind)."),
            .init(name: "against", valueName: "FILE", help: "With --flamegraph: differential, against an earlier --folded FILE."),
            .init(name: "trace", valueName: "FILE.json", help: "Also record one decode on a per-thread timeline (Chrome Trace Event JSON)."),
            .init(name: "threads", valueName: "N", help: "With --trace: the threads the traced decode may use (default \(PageDecodingOptions.defaultThreads) here)."),
            .init(name: "instructions-of", valueName: "PART", help: "(internal) run one measured part once, for callgrind."),
        ],
        flags: [
            .init(name: "bare-root", help: "The page object itself is at the root."),
            .init(name: "no-instructions", help: "Skip the callgrind instruction counts."),
        ],
        discussion: """
            The decode on one thread, split into stages: scan (bytes to the JSON index), envelope
            (page, sections and widget shells: ids, layout, actions, raw data), content models
            (each widget's registered type decoded from its data) and identity (every id
            claimed, duplicates renamed); encode (writing the page back) is shown apart. Each
            stage is its own median over repeated runs, so their sum and the measured total
            differ by noise: the difference is printed. Per widget type: how many the page keeps,
            the time and allocations its content decoding adds, and the input bytes of its
            widgets. The heaviest widgets are timed one by one.
            Allocations need the allocation counter (flow hands profile over to flow-measure);
            instructions need valgrind, and are skipped with --no-instructions.

            --flamegraph FILE.svg draws where the instructions of one decode go, call stack by
            call stack (callgrind, with the page decoded once through this tool's registry): a
            frame is as wide as its instructions with its callees'. Open it in a browser: hover
            a frame for its count and share, click to zoom, Ctrl-F to highlight the frames a
            regular expression matches and see their share. --folded FILE writes the same stacks
            as text (`frame;frame;frame COUNT` per line), which flamegraph.pl, inferno and
            speedscope read. --speedscope FILE.json writes them in speedscope's own format (one
            sampled profile, each stack weighted by its instructions): open it at
            https://www.speedscope.app or in a local speedscope. --against EARLIER.folded makes
            the flame graph differential: widths are this run's, and a frame is red where its own
            instructions grew since the earlier run, blue where they shrank (hover for before,
            after and the change). --flamegraph, --folded and --speedscope need valgrind
            (apt-get install valgrind).

            --trace FILE.json records one decode as it runs, stage by stage and thread by
            thread, and writes it as Chrome Trace Event JSON (open it in https://ui.perfetto.dev,
            chrome://tracing or speedscope). Spans: scan, with its scan parts on the threads
            that scanned them and the join; page; section list; each stretch of the list on the
            thread that decoded it; each stretch's claims (its ids claimed in the page's
            ledger, in order, by whichever thread merged it); index release. Each span carries
            its counts (bytes, entries, sections, widgets). Seven decodes are recorded and the
            one of median duration kept (the first ones fault in memory the later ones
            reuse); its figures go in the file's otherData and are printed after the profile:
            per stage, the longest piece against the mean; per thread, busy and idle shares
            and decoding speed against the caller's; the other cores' idle share; minor page
            faults during the decode. --threads N sets the threads of the traced decode only
            (1 to 64; 1 keeps it on the caller's thread). With --format json the figures go to
            stderr, so that stdout stays one JSON object.

            Exit status: 0 profiled; 1 the document failed as a whole, a debug build (profile
            measures release builds only), or --flamegraph, --folded or --speedscope without valgrind;
            64 usage; 66 FILE unreadable.
            """
    )

    static func run(_ arguments: ParsedArguments, _ tool: ToolContext) throws -> Int32 {
        let format = try arguments.choice("format", of: ["text", "json"], default: "text")
        let path = arguments.positionals[0]
        let bytes = try readInput(path)
        let options = PageDecodingOptions(bareRoot: arguments.flag("bare-root"))
        let profiler: PageProfiler
        do {
            profiler = try PageProfiler(bytes: bytes, registry: tool.registry, options: options)
        } catch {
            Terminal.err("\(path): the document failed as a whole: \(error)")
            return ExitCode.failure
        }
        if let part = arguments.value("instructions-of") {
            guard let part = PageProfiler.Part(rawValue: part) else {
                throw UsageError(message: "--instructions-of expects one of \(PageProfiler.Part.allCases.map(\.rawValue).joined(separator: ", ")), got '\(part)'")
            }
            profiler.runOnceMeasured(part)
            return ExitCode.success
        }
        // Before anything is measured: a missing valgrind or unreadable --against fails now.
        let stacks = try ProfileStacks(arguments, tool: tool.name)
        let trace = try traceRequest(arguments)
        #if DEBUG
        Terminal.err("\(tool.name) profile: this is a debug build, and its figures would mean nothing. Run: swift build -c release && .build/release/\(tool.name) profile FILE")
        return ExitCode.failure
        #else
        var settings = PageProfiler.Settings()
        func measured(_ part: PageProfiler.Part) -> [String] {
            [MeasuringHandOver.selfPath, "profile", path, "--instructions-of", part.rawValue] + (options.bareRoot ? ["--bare-root"] : [])
        }
        // The whole decode's call graph also gives its instruction count: one callgrind run for both.
        var graph: CallgrindProfile?
        if !arguments.flag("no-instructions") {
            settings.instructions = { part in
                if let stacks, part == .total {
                    graph = try stacks.callgrind.callGraph(of: measured(part))
                    return graph?.total
                }
                return try Callgrind.find().map { try $0.instructions(of: measured(part)) }
            }
        }
        let profile = try profiler.profile(settings) { Terminal.err($0) }
        if format == "json" { Terminal.outBytes(profile.json + [0x0A]) } else { Terminal.out(profile.text(title: path)) }
        if let chart = arguments.value("chart") {
            try Data(profile.svg(title: path).utf8).write(to: URL(fileURLWithPath: chart))
            Terminal.err("\(tool.name) profile: chart written to \(chart)")
        }
        if let stacks {
            let graph = try graph ?? stacks.callgrind.callGraph(of: measured(.total))
            try stacks.write(graph, page: path, bytes: bytes.count, widgets: profile.widgets, tool: tool.name)
        }
        if let trace {
            var traced = options
            traced.threads = trace.threads
            let recorded: DecodeTrace
            do {
                recorded = try DecodeTrace.record(bytes, registry: tool.registry, options: traced)
            } catch {
                Terminal.err("\(path): the document failed as a whole: \(error)")
                return ExitCode.failure
            }
            let title = "\(tool.name) profile \((path as NSString).lastPathComponent): \(ProfileStacks.bytes(bytes.count)), \(profile.widgets) widgets"
            try recorded.json(title: title).write(to: URL(fileURLWithPath: trace.file))
            let text = recorded.text(file: trace.file)
            if format == "json" { Terminal.err(text) } else { Terminal.out(text) }
        }
        return ExitCode.success
        #endif
    }

    /// `--trace FILE.json [--threads N]`, checked before anything is measured; nil without
    /// `--trace`.
    static func traceRequest(_ arguments: ParsedArguments) throws(UsageError) -> (file: String, threads: Int)? {
        guard let file = arguments.value("trace") else {
            if let threads = arguments.value("threads") {
                throw UsageError(message: "--threads sets the threads of the traced decode: it needs --trace FILE.json (got --threads \(threads) alone)")
            }
            return nil
        }
        if file.isEmpty {
            throw UsageError(message: "--trace expects the file to write (FILE.json), got an empty name")
        }
        return (file, try arguments.integer("threads", default: PageDecodingOptions.defaultThreads, range: 1...64))
    }
}
