import FlowBenchmarks
import FlowCore
import Foundation

/// `flow bench`: the benchmark suite and the CI regression gate.
enum BenchCommand {
    static let spec = CommandSpec(
        name: "bench",
        summary: "Run the benchmark suite: wall time, throughput, allocations, instructions, peak memory, ratios.",
        positionals: [],
        rest: ("PATH", "With --pages: a page document, or a folder of them (*.json, *.golden.json skipped)."),
        options: [
            .init(name: "filter", valueName: "REGEX", help: "Run only benchmarks whose name matches."),
            .init(name: "format", valueName: "text|json|markdown|google-benchmark|github-action-benchmark|bmf",
                  help: "Report format on stdout (default text); the last three are other tools' formats (see below)."),
            .init(name: "export", valueName: "FORMAT=FILE,...",
                  help: "Also write this run in other formats (any --format name), each to its FILE."),
            .init(name: "bigger-is-better", valueName: "FILE",
                  help: "With github-action-benchmark (--format or --export): write the throughput list (customBiggerIsBetter) to FILE."),
            .init(name: "save-baseline", valueName: "FILE", help: "Write this run's deterministic figures as a baseline."),
            .init(name: "baseline", valueName: "FILE", help: "Compare with a baseline; exit 2 on a regression."),
            .init(name: "threshold", valueName: "PCT", help: "Regression threshold in percent, every metric (default: allocations and instructions 1.5, wall 25)."),
            .init(name: "wall-threshold", valueName: "PCT", help: "Wall time's own threshold (default 25 with --baseline, 5 with --against, or --threshold)."),
            .init(name: "history", valueName: "FILE", help: "Append this run to a JSON-lines history (created when missing)."),
            .init(name: "label", valueName: "L", help: "With --history: the run's label (default: the short commit, else the date)."),
            .init(name: "chart", valueName: "FILE.svg", help: "Write an SVG chart of the run."),
            .init(name: "against", valueName: "BASE_TOOL",
                  help: "Compare wall time with another build's flow, in interleaved rounds (see below); text, json or markdown."),
            .init(name: "rounds", valueName: "N", help: "With --against: the most rounds a benchmark gets (default 20, at least 8)."),
            .init(name: "plant-slowdown", valueName: "NAME=PCT",
                  help: "With --against: this build's NAME spins PCT% longer per call (the check that a slowdown is caught)."),
            .init(name: "profile", valueName: "NAME", help: "Loop one benchmark's operation in this process (for perf or callgrind)."),
            .init(name: "seconds", valueName: "N", help: "With --profile: how long to loop (default 10)."),
            .init(name: "worker", valueName: "NAME", help: "(internal) measure one benchmark and print JSON."),
            .init(name: "min-time", valueName: "S", help: "(internal) worker: minimum measuring time."),
            .init(name: "instruction-calls", valueName: "N", help: "(internal) worker: calls to make for callgrind."),
            .init(name: "planted-slowdown", valueName: "PCT", help: "(internal) worker: spin PCT% longer per timed call."),
        ],
        flags: [
            .init(name: "quick", help: "The CI-sized subset (well under 3 minutes)."),
            .init(name: "gate-wall", help: "Let wall time gate too: with --against, a significant slowdown; with --baseline, the median (noisy)."),
            .init(name: "no-instructions", help: "Skip the callgrind instruction counts."),
            .init(name: "repeat-counts", help: "Measure every gated count again in fresh processes started elsewhere; exit 1 if any differs."),
            .init(name: "list", help: "List the benchmarks and exit."),
            .init(name: "pages", help: "Benchmark your own page documents (PATH...) instead of the built-in suite."),
            .init(name: "bare-root", help: "With --pages: the pages hold the page object itself at the root."),
            .init(name: "placeholders", help: "With --pages: keep unknown and malformed widgets as placeholders."),
            .init(name: "serve", help: "(internal) worker: warm up, then time the slices asked for on stdin (--against)."),
        ],
        discussion: """
            Each benchmark runs in a child process of its own (so its peak memory is its own),
            after a warm-up, repeated until a second has passed; where valgrind is installed it
            runs once more under callgrind for a deterministic instruction count. Progress goes
            to stderr, the report to stdout.

            With --pages, each page document becomes pages.decode/<stem> (fast path, one
            thread: gated), pages.decode.parallel/<stem>, pages.decode.reference/<stem> and
            pages.normalize/<stem>, decoded through this tool's widget types; the built-in suite
            does not run. A file that is not a page is reported and skipped; a folder with no
            page, or no readable page at all, is an error.

            Other tools' formats, from the same run: --format google-benchmark is Google
            Benchmark's JSON (ten repetitions per benchmark, each the mean of a run of calls,
            then mean, median and stddev; counts as counters), which its compare.py, Bencher's
            cpp_google adapter and github-action-benchmark's googlecpp tool read.
            --format github-action-benchmark prints the customSmallerIsBetter list (wall
            median in ns, allocations, instructions, peak and retained bytes) and, with
            --bigger-is-better FILE, writes the customBiggerIsBetter list (MB/s, widgets/s).
            --format bmf is the Bencher Metric Format (latency, throughput, allocations,
            instructions, peak-rss, retained-bytes). --export FORMAT=FILE,... writes more of
            them from the same run, for example
            --format markdown --export google-benchmark=run.json,bmf=bmf.json.

            Wall time against another build: --against BASE_TOOL (the base's flow, built
            from another checkout) measures both builds on this machine in rounds: each round
            starts a worker of each build for every gated benchmark, both on one core, and
            once they are warm has them time slices of 10 ms in turn, alternating which goes
            first; the round's ratio is the median of its slice pairs'. (A base too old to
            serve slices is measured in whole runs, one process each.) Each benchmark's ratio,
            head over base, is the Hodges-Lehmann estimate of the rounds' ratios, with its 99%
            interval and p-value from Wilcoxon's signed-rank test. The verdict: slower (or
            faster) when the interval lies above (below) 1 and the ratio is past the threshold
            (--wall-threshold, default 5% here); same when the interval lies within the
            threshold either way; otherwise the benchmark gets another round, up to --rounds,
            and is then unknown (run more). With --gate-wall a slower verdict exits 2.
            Competitors and parallel runs are not compared.

            Tracking over time: --history FILE appends each run; flow bench trend FILE shows
            the series, the step changes and the drift (see flow bench trend --help).

            Repeatability: the gate's counts (allocations, retained bytes, instructions) are
            the same in every run of a build. --repeat-counts proves it for this run: each
            gated benchmark is measured a second time, on the other core, in fresh processes
            started from a longer working directory through a link to this executable with
            4 KB more environment, and any count that differs is named.

            Exit status: 0 fine; 2 a metric regressed past the threshold against --baseline, or
            a hostile.* shape's instruction count grew faster than linearly; 1 an error
            (including a debug build: flow bench measures release builds only), or with
            --repeat-counts a count that came out differently the second time.

            Profiling one workload:
              swift run -c release flow-measure bench --profile page.decode.fast/10k --seconds 20 &
              perf record -g -p $! -- sleep 10
              valgrind --tool=callgrind --toggle-collect=flow_bench_measured \\
                .build/release/flow-measure bench --profile page.decode.fast/1k --seconds 5
            """
    )

    /// The `--pages` suite, or nil for the built-in one.
    private static func pagesSuite(_ arguments: ParsedArguments, _ tool: ToolContext, worker: Bool) throws -> (PageSet, [Benchmark])? {
        guard arguments.flag("pages") else {
            guard arguments.positionals.isEmpty else {
                throw UsageError(message: "bench takes PATH arguments only with --pages, got \(arguments.positionals.joined(separator: " "))")
            }
            if arguments.flag("bare-root") || arguments.flag("placeholders") {
                throw UsageError(message: "--bare-root and --placeholders apply to --pages only")
            }
            return nil
        }
        guard !arguments.positionals.isEmpty else {
            throw UsageError(message: "--pages expects one or more page files or folders (PATH...), got none")
        }
        let options = PageDecodingOptions(placeholders: arguments.flag("placeholders"), bareRoot: arguments.flag("bare-root"))
        // A worker is given the pages its parent checked: no need to decode each again.
        let set = try PageSet.resolve(arguments.positionals, registry: tool.registry, options: options, check: !worker)
        if !worker {
            for skipped in set.skipped { Terminal.err("\(tool.name) bench: skipping \(skipped)") }
            for warning in set.unknownTypeWarnings { Terminal.err("\(tool.name) bench: warning: \(warning)") }
        }
        return (set, PagesSuite.benchmarks(set, registry: tool.registry))
    }

    static func run(_ arguments: ParsedArguments, _ tool: ToolContext) throws -> Int32 {
        let pages = try pagesSuite(arguments, tool, worker: arguments.value("worker") != nil)
        let suite = pages?.1 ?? Suites.all
        if let worker = arguments.value("worker") {
            var settings = Worker.Settings()
            if let t = arguments.value("min-time") {
                guard let v = Double(t), v >= 0 else { throw UsageError(message: "--min-time expects seconds, got '\(t)'") }
                settings.minTime = v
            }
            if arguments.value("instruction-calls") != nil {
                settings.instructionCalls = try arguments.integer("instruction-calls", default: 1, range: 1...1000)
            }
            if arguments.value("planted-slowdown") != nil {
                settings.plantedSlowdown = try arguments.double("planted-slowdown", default: 0, range: 0...1000) / 100
            }
            if arguments.flag("serve") {
                try Worker.serve(name: worker, settings: settings, suite: suite)
            } else {
                Terminal.out(try Worker.run(name: worker, settings: settings, suite: suite))
            }
            return ExitCode.success
        }

        var options = Runner.Options()
        options.quick = arguments.flag("quick")
        options.filter = arguments.value("filter")
        options.instructions = !arguments.flag("no-instructions")
        options.repeatCounts = arguments.flag("repeat-counts")
        if let (set, benchmarks) = pages {
            options.suite = benchmarks
            options.workerArguments = set.workerArguments
        }
        let format = try arguments.choice("format", of: formats, default: "text")
        let exports = try exportList(arguments)
        if arguments.value("bigger-is-better") != nil && format != "github-action-benchmark"
            && !exports.contains(where: { $0.format == "github-action-benchmark" }) {
            throw UsageError(message: "--bigger-is-better writes github-action-benchmark's throughput list: expected --format github-action-benchmark or --export github-action-benchmark=FILE with it, found neither")
        }
        let thresholds = try GateThresholds(arguments)
        if arguments.value("label") != nil && arguments.value("history") == nil {
            throw UsageError(message: "--label names the run in a history: expected --history FILE with it, found none")
        }

        let against = try againstOptions(arguments, pages: pages, format: format)

        if arguments.flag("list") {
            let runner = Runner(options: options)
            let (run, missing) = try runner.selected()
            for b in run { Terminal.out(b.name.padding(to: 40) + b.summary + (b.quick ? "  [quick]" : "")) }
            for b in missing { Terminal.out(b.name.padding(to: 40) + "(input not on this machine)") }
            return ExitCode.success
        }

        #if DEBUG
        _ = against  // checked all the same: a usage error is one in every build
        Terminal.err("\(tool.name) bench: this is a debug build, and its figures would mean nothing. Run: swift build -c release && .build/release/\(tool.name) bench")
        return ExitCode.failure
        #else
        if let name = arguments.value("profile") {
            let seconds = try arguments.double("seconds", default: 10, range: 0.1...86_400)
            let (iterations, elapsed) = try Profiler.loop(name: name, seconds: seconds, suite: suite) { Terminal.err($0) }
            Terminal.err(String(format: "%@: %d calls in %.1f s (%.3f ms each)", name, iterations, elapsed, elapsed / Double(iterations) * 1000))
            return ExitCode.success
        }

        if let against {
            let report = try InterleavedRunner(options: against).run()
            switch format {
            case "json": Terminal.outBytes(report.json() + [0x0A])
            case "markdown": Terminal.out(report.markdown())
            default: Terminal.out(report.text())
            }
            return arguments.flag("gate-wall") && !report.slower.isEmpty ? ExitCode.regression : ExitCode.success
        }

        let baseline: Baseline?
        if let path = arguments.value("baseline") { baseline = try Baseline(bytes: try readInput(path)) } else { baseline = nil }

        var report = try Runner(options: options).run()
        report.pages = pages?.0.pages
        if let baseline {
            report.comparison = baseline.compare(report, thresholds: thresholds, gateWall: arguments.flag("gate-wall"))
        }
        Terminal.outBytes(rendered(report, as: format))
        for export in exports {
            try Data(rendered(report, as: export.format)).write(to: URL(fileURLWithPath: export.path))
            Terminal.err("\(tool.name) bench: \(export.format) written to \(export.path)")
        }
        if let path = arguments.value("bigger-is-better") {
            try Data(report.githubActionBenchmarkBiggerIsBetter() + [0x0A]).write(to: URL(fileURLWithPath: path))
            Terminal.err("\(tool.name) bench: throughput list (customBiggerIsBetter) written to \(path)")
        }
        if let path = arguments.value("save-baseline") {
            try Data(Baseline(report).json()).write(to: URL(fileURLWithPath: path))
            Terminal.err("\(tool.name) bench: baseline written to \(path)")
        }
        if let path = arguments.value("chart") {
            try Data(Chart.svg(report).utf8).write(to: URL(fileURLWithPath: path))
            Terminal.err("\(tool.name) bench: chart written to \(path)")
        }
        if let path = arguments.value("history") {
            try appendHistory(report, to: path, label: arguments.value("label"), tool)
        }
        // A hostile shape whose counted cost grows faster than linearly fails the run like a
        // regression: the promise of the page contract, "Limits and hostile input" is part of the gate.
        let superlinear = report.scaling.filter(\.breaksLinearTime)
        for s in superlinear {
            Terminal.err(String(format: "\(tool.name) bench: %@ grows faster than linearly: exponent %.2f by instructions (limit %.2f)", s.group, s.exponent, Scaling.limit))
        }
        if let check = report.repeatCheck, check.failed {
            for d in check.differences {
                Terminal.err("\(tool.name) bench: \(d.benchmark) is not repeatable: \(d.metric) \(d.first) first, \(d.second) the second time")
            }
            return ExitCode.failure
        }
        return report.comparison?.failed == true || !superlinear.isEmpty ? ExitCode.regression : ExitCode.success
        #endif
    }

    static let formats = ["text", "json", "markdown", "google-benchmark", "github-action-benchmark", "bmf"]

    /// The report in `format`, ending in a newline.
    static func rendered(_ report: Report, as format: String) -> [UInt8] {
        switch format {
        case "json": report.json() + [0x0A]
        case "google-benchmark": report.googleBenchmark() + [0x0A]
        case "github-action-benchmark": report.githubActionBenchmarkSmallerIsBetter() + [0x0A]
        case "bmf": report.bencherMetricFormat() + [0x0A]
        case "markdown": Array((report.markdown() + "\n").utf8)
        default: Array((report.text(width: Terminal.width) + "\n").utf8)
        }
    }

    /// `--export FORMAT=FILE,...`: each a format `--format` knows and a file to write.
    static func exportList(_ arguments: ParsedArguments) throws(UsageError) -> [(format: String, path: String)] {
        guard let list = arguments.value("export") else { return [] }
        return try list.split(separator: ",").map { item throws(UsageError) in
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, formats.contains(parts[0]), !parts[1].isEmpty else {
                throw UsageError(message: "--export expects FORMAT=FILE items separated by commas, FORMAT one of \(formats.joined(separator: ", ")); found '\(item)'")
            }
            return (parts[0], parts[1])
        }
    }

    /// The options of `--against BASE_TOOL` (wall time of this build and the base's, in
    /// interleaved rounds), checked before anything runs; nil without it.
    private static func againstOptions(_ arguments: ParsedArguments, pages: (PageSet, [Benchmark])?,
                                       format: String) throws(UsageError) -> InterleavedRunner.Options? {
        guard let base = arguments.value("against") else {
            for option in ["rounds", "plant-slowdown"] where arguments.value(option) != nil {
                throw UsageError(message: "--\(option) applies to --against only: expected --against BASE_TOOL with it, found none")
            }
            return nil
        }
        for option in ["baseline", "save-baseline", "history", "chart", "bigger-is-better", "export"] where arguments.value(option) != nil {
            throw UsageError(message: "--against compares two builds' wall time and records nothing: expected no --\(option) with it")
        }
        if arguments.flag("repeat-counts") {
            throw UsageError(message: "--against measures wall time, not counts: expected no --repeat-counts with it")
        }
        guard ["text", "json", "markdown"].contains(format) else {
            throw UsageError(message: "--against reports as text, json or markdown: expected one of those, found --format \(format)")
        }
        var options = InterleavedRunner.Options(base: base)
        options.quick = arguments.flag("quick")
        options.filter = arguments.value("filter")
        // Eight rounds are the fewest a 99% interval needs.
        options.maxRounds = try arguments.integer("rounds", default: 20, range: 8...200)
        // Interleaved rounds cancel the machine's drift, so the threshold can be far tighter
        // than a comparison with a baseline measured at another time.
        if arguments.value("wall-threshold") != nil || arguments.value("threshold") != nil {
            options.threshold = try GateThresholds(arguments).wall
        }
        if let (set, benchmarks) = pages {
            options.suite = benchmarks
            options.workerArguments = set.workerArguments
        }
        if let planted = arguments.value("plant-slowdown") {
            let parts = planted.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let percent = Double(parts[1]), percent > 0, percent <= 1000 else {
                throw UsageError(message: "--plant-slowdown expects NAME=PCT (a benchmark and a percent, say page.decode.fast/1k=10), got '\(planted)'")
            }
            options.planted = .init(benchmark: String(parts[0]), percent: percent)
        }
        return options
    }
}
