import FlowBenchmarks
import Foundation

/// `flow bench trend`: what a history of runs says, and whether the latest run regressed.
enum TrendCommand {
    static let spec = CommandSpec(
        name: "bench trend",
        summary: "Show a benchmark history over time: series, step changes, drift, wall spread; exit 2 if the latest run regressed.",
        positionals: [("FILE", "A history written by flow bench --history (JSON lines, flow-bench-history/1).")],
        options: [
            .init(name: "format", valueName: "text|markdown|json", help: "Report format on stdout (default text)."),
            .init(name: "chart", valueName: "FILE.svg", help: "Write an SVG chart: one small line chart per gated benchmark."),
            .init(name: "threshold", valueName: "PCT", help: "Step threshold in percent, every metric (default: allocations and instructions 1.5, wall 25)."),
            .init(name: "wall-threshold", valueName: "PCT", help: "Wall time's own threshold, with --gate-wall (default 25, or --threshold)."),
            .init(name: "last", valueName: "N", help: "Only the last N runs (default all)."),
        ],
        flags: [
            .init(name: "gate-wall", help: "Let wall-time steps count and gate too (noisy on shared machines)."),
        ],
        discussion: """
            For each benchmark: its figures in the latest run, the change against the run
            before, and the drift from the first run of the window to the last; wall time with
            its spread over the runs. Then every step change past the threshold between
            consecutive runs, naming the run where it happened. A step that coincides with a
            new toolchain or machine is marked as such.

            Only the latest run decides the exit status: it regressed when instructions or
            allocations per call of a gated benchmark rose past the threshold against its
            previous measurement. Lines of the file that cannot be read are reported on
            stderr and skipped.

            Exit status: 0 no regression (or a single run); 2 the latest run regressed;
            1 an error (the file cannot be read, or holds no readable run).

            In CI, after each run:
              flow bench --quick --history bench-history.jsonl
              flow bench trend bench-history.jsonl --last 30 --format markdown >> "$GITHUB_STEP_SUMMARY"
            """
    )

    static func run(_ arguments: ParsedArguments, _ tool: ToolContext) throws -> Int32 {
        let path = arguments.positionals[0]
        let format = try arguments.choice("format", of: ["text", "json", "markdown"], default: "text")
        let thresholds = try GateThresholds(arguments)
        let last: Int? = arguments.value("last") == nil ? nil : try arguments.integer("last", default: 0, range: 1...Int.max)

        let contents = try HistoryFile.read(path)
        for p in contents.problems { Terminal.err("\(tool.name) bench trend: \(path) \(p); skipped") }
        guard !contents.runs.isEmpty || !contents.problems.isEmpty else {
            throw BenchError("\(path) holds no run yet (flow bench --history \(path) appends one)")
        }
        guard !contents.runs.isEmpty else {
            throw BenchError("\(path) holds no readable run (expected one JSON line per run, schema \(HistoryRun.schema))")
        }
        let trend = Trend(runs: contents.runs, thresholds: thresholds, gateWall: arguments.flag("gate-wall"), last: last)
        switch format {
        case "json": Terminal.outBytes(trend.json() + [0x0A])
        case "markdown": Terminal.out(trend.markdown())
        default: Terminal.out(trend.text())
        }
        if let chart = arguments.value("chart") {
            do {
                try Data(TrendChart.svg(trend).utf8).write(to: URL(fileURLWithPath: chart))
            } catch {
                throw BenchError("cannot write the chart to \(chart): \(error.localizedDescription)")
            }
            Terminal.err("\(tool.name) bench trend: chart written to \(chart)")
        }
        return trend.exitStatus
    }
}
