import FlowBenchmarks
import Foundation

/// `flow bench`: the benchmark suite and the CI regression gate.
enum BenchCommand {
    static let spec = CommandSpec(
        name: "bench",
        summary: "Run the benchmark suite: wall time, throughput, allocations, instructions, peak memory, ratios.",
        positionals: [],
        options: [
            .init(name: "filter", valueName: "REGEX", help: "Run only benchmarks whose name matches."),
            .init(name: "format", valueName: "text|json|markdown", help: "Report format on stdout (default text)."),
            .init(name: "save-baseline", valueName: "FILE", help: "Write this run's deterministic figures as a baseline."),
            .init(name: "baseline", valueName: "FILE", help: "Compare with a baseline; exit 2 on a regression."),
            .init(name: "threshold", valueName: "PCT", help: "Regression threshold in percent (default 5)."),
            .init(name: "chart", valueName: "FILE.svg", help: "Write an SVG chart of the run."),
            .init(name: "profile", valueName: "NAME", help: "Loop one benchmark's operation in this process (for perf or callgrind)."),
            .init(name: "seconds", valueName: "N", help: "With --profile: how long to loop (default 10)."),
            .init(name: "worker", valueName: "NAME", help: "(internal) measure one benchmark and print JSON."),
            .init(name: "min-time", valueName: "S", help: "(internal) worker: minimum measuring time."),
            .init(name: "instruction-calls", valueName: "N", help: "(internal) worker: calls to make for callgrind."),
        ],
        flags: [
            .init(name: "quick", help: "The CI-sized subset (well under 3 minutes)."),
            .init(name: "gate-wall", help: "Let wall time gate too (noisy on shared machines)."),
            .init(name: "no-instructions", help: "Skip the callgrind instruction counts."),
            .init(name: "list", help: "List the benchmarks and exit."),
        ],
        discussion: """
            Each benchmark runs in a child process of its own (so its peak memory is its own),
            after a warm-up, repeated until a second has passed; where valgrind is installed it
            runs once more under callgrind for a deterministic instruction count. Progress goes
            to stderr, the report to stdout.

            Exit status: 0 fine; 2 a metric regressed past the threshold against --baseline;
            1 an error (including a debug build: flow bench measures release builds only).

            Profiling one workload:
              swift run -c release flow bench --profile page.decode.fast/10k --seconds 20 &
              perf record -g -p $! -- sleep 10
              valgrind --tool=callgrind --toggle-collect=flow_bench_measured \\
                .build/release/flow bench --profile page.decode.fast/1k --seconds 5
            """
    )

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        if let worker = arguments.value("worker") {
            var settings = Worker.Settings()
            if let t = arguments.value("min-time") {
                guard let v = Double(t), v >= 0 else { throw UsageError(message: "--min-time expects seconds, got '\(t)'") }
                settings.minTime = v
            }
            if arguments.value("instruction-calls") != nil {
                settings.instructionCalls = try arguments.integer("instruction-calls", default: 1, range: 1...1000)
            }
            Terminal.out(try Worker.run(name: worker, settings: settings))
            return ExitCode.success
        }

        var options = Runner.Options()
        options.quick = arguments.flag("quick")
        options.filter = arguments.value("filter")
        options.instructions = !arguments.flag("no-instructions")
        let format = try arguments.choice("format", of: ["text", "json", "markdown"], default: "text")
        let threshold = try arguments.double("threshold", default: 5, range: 0...1000)

        if arguments.flag("list") {
            let runner = Runner(options: options)
            let (run, missing) = try runner.selected()
            for b in run { Terminal.out(b.name.padding(to: 40) + b.summary + (b.quick ? "  [quick]" : "")) }
            for b in missing { Terminal.out(b.name.padding(to: 40) + "(input not on this machine)") }
            return ExitCode.success
        }

        #if DEBUG
        Terminal.err("flow bench: this is a debug build, and its figures would mean nothing. Run: swift run -c release flow bench")
        return ExitCode.failure
        #else
        if let name = arguments.value("profile") {
            let seconds = try arguments.double("seconds", default: 10, range: 0.1...86_400)
            let (iterations, elapsed) = try Profiler.loop(name: name, seconds: seconds) { Terminal.err($0) }
            Terminal.err(String(format: "%@: %d calls in %.1f s (%.3f ms each)", name, iterations, elapsed, elapsed / Double(iterations) * 1000))
            return ExitCode.success
        }

        let baseline: Baseline?
        if let path = arguments.value("baseline") { baseline = try Baseline(bytes: try readInput(path)) } else { baseline = nil }

        var report = try Runner(options: options).run()
        if let baseline {
            report.comparison = baseline.compare(report, thresholdPercent: threshold, gateWall: arguments.flag("gate-wall"))
        }
        switch format {
        case "json": Terminal.outBytes(report.json() + [0x0A])
        case "markdown": Terminal.out(report.markdown())
        default: Terminal.out(report.text())
        }
        if let path = arguments.value("save-baseline") {
            try Data(Baseline(report).json()).write(to: URL(fileURLWithPath: path))
            Terminal.err("flow bench: baseline written to \(path)")
        }
        if let path = arguments.value("chart") {
            try Data(Chart.svg(report).utf8).write(to: URL(fileURLWithPath: path))
            Terminal.err("flow bench: chart written to \(path)")
        }
        return report.comparison?.failed == true ? ExitCode.regression : ExitCode.success
        #endif
    }
}
