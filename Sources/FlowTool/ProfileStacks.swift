import FlowBenchmarks
import Foundation

/// `flow profile --flamegraph/--folded/--speedscope/--against`: the call stacks of one decode
/// of the page under callgrind, folded, in speedscope's format, and drawn as a flame graph
/// (differential against an earlier run's folded stacks).
struct ProfileStacks {
    var flamegraph: String?
    var folded: String?
    var speedscope: String?
    var againstPath: String?
    var before: FoldedStacks?
    let callgrind: Callgrind

    /// What the options ask for (nil: no stacks), checked before anything is measured: the
    /// earlier run's stacks are read and valgrind must be there.
    init?(_ arguments: ParsedArguments, tool: String) throws {
        flamegraph = arguments.value("flamegraph")
        folded = arguments.value("folded")
        speedscope = arguments.value("speedscope")
        againstPath = arguments.value("against")
        if againstPath != nil && flamegraph == nil {
            throw UsageError(message: "--against draws a differential flame graph: it needs --flamegraph FILE.svg")
        }
        guard flamegraph != nil || folded != nil || speedscope != nil else { return nil }
        guard let callgrind = Callgrind.find() else {
            throw ToolError(description: """
                --flamegraph, --folded and --speedscope record call stacks with valgrind's callgrind, and there is no \
                valgrind on PATH: install it (apt-get install valgrind) and run \(tool) profile again
                """)
        }
        self.callgrind = callgrind
        if let againstPath {
            let text = try readInput(againstPath)
            do {
                before = try FoldedStacks(parsing: String(decoding: text, as: UTF8.self))
            } catch {
                throw ToolError(description: "--against \(againstPath): \(error)")
            }
        }
    }

    /// Folds `graph` (one decode under callgrind) and writes what was asked for.
    func write(_ graph: CallgrindProfile, page path: String, bytes: Int, widgets: Int, tool: String) throws {
        let symbols = graph.functions.map { (symbol: $0.symbol, object: $0.object) }
        let stacks = FoldedStacks(graph, names: FrameNames.readable(symbols))
        if let folded {
            try Data(stacks.text.utf8).write(to: URL(fileURLWithPath: folded))
            Terminal.err("\(tool) profile: folded stacks written to \(folded) (\(stacks.counts.count) stacks, \(FlameGraphSVG.grouped(stacks.total)) instructions; callgrind counted \(FlameGraphSVG.grouped(Int(graph.total))))")
        }
        var title = "\(tool) profile \((path as NSString).lastPathComponent): \(Self.bytes(bytes)), \(widgets) widgets"
        if let commit = Self.commit() { title += ", commit \(commit)" }
        if let speedscope {
            try Data(stacks.speedscope(name: title + ", instructions of one decode", exporter: "\(tool) profile")).write(to: URL(fileURLWithPath: speedscope))
            Terminal.err("\(tool) profile: speedscope profile written to \(speedscope) (open it at https://www.speedscope.app)")
        }
        guard let flamegraph else { return }
        var subtitle = "One decode under callgrind: \(FlameGraphSVG.grouped(stacks.total)) instructions; width: a frame's instructions with its callees'"
        if let before, let againstPath {
            let change = before.total > 0 ? String(format: " (%+.1f%%)", Double(stacks.total - before.total) / Double(before.total) * 100) : ""
            subtitle = "Against \((againstPath as NSString).lastPathComponent): \(FlameGraphSVG.grouped(before.total)) → \(FlameGraphSVG.grouped(stacks.total)) instructions\(change)"
        }
        let svg = FlameGraphSVG(title: title, subtitle: subtitle).svg(stacks, before: before)
        try Data(svg.utf8).write(to: URL(fileURLWithPath: flamegraph))
        Terminal.err("\(tool) profile: flame graph written to \(flamegraph)")
    }

    /// The short hash of the commit checked out in the current folder; nil outside a repository.
    static func commit() -> String? {
        let result = BisectWorkspace.run(["git", "rev-parse", "--short", "HEAD"], in: FileManager.default.currentDirectoryPath)
        let hash = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return result.status == 0 && !hash.isEmpty && !hash.contains(" ") ? hash : nil
    }

    static func bytes(_ n: Int) -> String {
        n < 1_000_000 ? String(format: "%.1f kB", Double(n) / 1_000) : String(format: "%.1f MB", Double(n) / 1_000_000)
    }
}
