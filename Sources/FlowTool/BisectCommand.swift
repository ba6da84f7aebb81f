import FlowBenchmarks
import FlowJSON
import Foundation

/// `flow bench bisect`: the commit at which a benchmark's deterministic count rose.
enum BisectCommand {
    static let spec = CommandSpec(
        name: "bench bisect",
        summary: "Find the first commit between GOOD and BAD at which a benchmark's instruction or allocation count rose.",
        positionals: [("GOOD", "A commit where the count is as it should be."), ("BAD", "A later commit where it has risen.")],
        rest: ("PATH", "With --pages: page documents or folders, measured at every commit."),
        options: [
            .init(name: "filter", valueName: "REGEX", help: "The benchmarks to watch (default '^page\\.decode\\.fast/1k$')."),
            .init(name: "metric", valueName: "instructions|allocations", help: "The count to watch (default instructions)."),
            .init(name: "threshold", valueName: "PCT", help: "A rise past this many percent over GOOD's regresses (default 1.5)."),
            .init(name: "format", valueName: "text|json", help: "Report format on stdout (default text)."),
        ],
        flags: [
            .init(name: "pages", help: "Measure your page documents (the PATH... after --) instead of the built-in suite."),
        ],
        discussion: """
            Each commit probed is checked out in a worktree of its own under .build/bisect/ of
            the repository (the work tree you are in is never touched, dirty or not), built
            (release, the measuring tool only) and kept there, so a second bisect over the same
            commits only measures. Each is measured once on the quick suite's matching
            benchmarks: instruction and allocation counts do not vary between runs. The search
            follows BAD's first parents back to GOOD.

            A commit that does not build, or lacks the benchmark, is skipped and said, as git
            bisect skip does. When the count moved more than once between GOOD and BAD, the
            steps the probes saw are listed. Instruction counts need valgrind.

            Exit status: 0 the commit was found; 3 no commit between GOOD and BAD regresses;
            1 an error; 64 a usage error (unknown ref, GOOD not before BAD, a filter that
            matches nothing).

              flow bench bisect v1.2 main --filter 'page\\.decode\\.fast/1k'
              flow bench bisect HEAD~20 HEAD --metric allocations --format json
            """
    )

    static func run(_ arguments: ParsedArguments, _ tool: ToolContext) throws -> Int32 {
        let (goodRef, badRef) = (arguments.positionals[0], arguments.positionals[1])
        let pages = Array(arguments.positionals.dropFirst(2))
        if arguments.flag("pages") != !pages.isEmpty {
            throw UsageError(message: pages.isEmpty ? "--pages expects page documents or folders after GOOD BAD" : "PATH arguments after GOOD BAD need --pages")
        }
        let metric = try arguments.choice("metric", of: ["instructions", "allocations"], default: "instructions")
        let threshold = try arguments.double("threshold", default: 1.5, range: 0...1000)
        let format = try arguments.choice("format", of: ["text", "json"], default: "text")
        let filter = arguments.value("filter") ?? #"^page\.decode\.fast/1k$"#
        guard let regex = try? NSRegularExpression(pattern: filter) else { throw UsageError(message: "--filter expects a regular expression, got '\(filter)'") }
        if pages.isEmpty {
            let matched = Suites.all.filter { $0.quick && regex.firstMatch(in: $0.name, range: NSRange($0.name.startIndex..., in: $0.name)) != nil }
            guard !matched.isEmpty else { throw UsageError(message: "--filter '\(filter)' matches no benchmark of the quick suite (flow bench --list shows them)") }
        }

        var bench = ["--filter", filter]
        if metric == "allocations" { bench.append("--no-instructions") }
        if !pages.isEmpty {
            let absolute = pages.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            bench += ["--pages", "--"] + absolute
        }
        let workspace = BisectWorkspace(root: try BisectWorkspace.repositoryRoot(), benchArguments: bench,
                                        measureCommand: ProcessInfo.processInfo.environment["FLOW_BISECT_MEASURE"],
                                        metricKey: metric == "instructions" ? "instructions_per_op" : "allocations_per_op",
                                        log: { Terminal.err($0) })
        let good = try workspace.commit(goodRef), bad = try workspace.commit(badRef)
        let commits = try workspace.commits(good: good, bad: bad)
        let started = Date()
        var bisection = Bisection(threshold: threshold)
        let expected = Int((log2(Double(max(commits.count - 2, 1)))).rounded(.up)) + 2
        Terminal.err("\(tool.name) bench bisect: \(commits.count - 2) commits between GOOD and BAD; about \(expected) probes")
        var probed = 0
        let verdict = try bisection.run(count: commits.count) { i in
            probed += 1
            Terminal.err("\(tool.name) bench bisect: probe \(probed): \(workspace.subject(commits[i]))")
            let outcome = workspace.measure(commits[i])
            if case .skipped(let why) = outcome { Terminal.err("  skipped: \(why)") }
            return outcome
        }
        let seconds = Date().timeIntervalSince(started)
        let report = BisectReport(commits: commits, subjects: commits.map(workspace.subject), metric: metric, threshold: threshold,
                                  verdict: verdict, probes: bisection.probes, steps: bisection.steps, seconds: seconds)
        switch format {
        case "json": Terminal.outBytes(report.json() + [0x0A])
        default: Terminal.out(report.text())
        }
        if case .noRegression = verdict { return ExitCode.noRegression }
        return ExitCode.success
    }
}

/// What a bisect found, for people and for scripts (`flow-bench-bisect/1`).
struct BisectReport {
    let commits: [String]
    let subjects: [String]
    let metric: String
    let threshold: Double
    let verdict: Bisection.Verdict
    let probes: [Bisection.Probe]
    let steps: [Bisection.Step]
    let seconds: Double

    func text() -> String {
        var lines: [String] = []
        switch verdict {
        case .found(let index, _, let rises):
            lines.append("First regressing commit: \(subjects[index])")
            for r in rises {
                lines.append(String(format: "  %@ %@: %@ → %@ (%+.2f%%)", r.benchmark, metric, Self.count(r.before), Self.count(r.after), r.change * 100))
            }
        case .among(let lastGood, let firstBad):
            lines.append("The regression is in one of these (the commits between were skipped, so the probes cannot tell which):")
            for i in (lastGood + 1)...firstBad { lines.append("  \(subjects[i])") }
        case .noRegression:
            lines.append(String(format: "No regression: BAD's %@ are within %.1f%% of GOOD's.", metric, threshold))
        }
        lines.append("")
        lines.append(String(format: "Probes (%d of %d commits, %@):", probes.count, commits.count, Self.duration(seconds)))
        for p in probes.sorted(by: { $0.index < $1.index }) {
            let role = p.index == 0 ? "GOOD" : p.index == commits.count - 1 ? "BAD" : ""
            switch p.outcome {
            case .measured(let counts):
                let figures = counts.keys.sorted().map { "\($0) \(Self.count(counts[$0]!))" }.joined(separator: ", ")
                lines.append("  \(String(subjects[p.index].prefix(50)).padding(to: 52))\(p.regressed == true ? "regressed" : "good     ") \(figures) \(role)")
            case .skipped(let why):
                lines.append("  \(String(subjects[p.index].prefix(50)).padding(to: 52))skipped   \(why)")
            }
        }
        let moves = Set(steps.map { "\($0.from)-\($0.to)" })
        if moves.count > 1 {
            lines.append("")
            lines.append("The count moved more than once between GOOD and BAD; the steps the probes saw:")
            for s in steps {
                lines.append(String(format: "  %@ → %@: %@ %@ → %@ (%+.2f%%)", String(commits[s.from].prefix(7)), String(commits[s.to].prefix(7)),
                                    s.benchmark, Self.count(s.before), Self.count(s.after), (s.after / s.before - 1) * 100))
            }
        }
        return lines.joined(separator: "\n")
    }

    func json() -> [UInt8] {
        var o = JSONObject()
        o.append("schema", "flow-bench-bisect/1")
        o.append("metric", .string(metric))
        o.append("threshold_pct", Self.number(threshold))
        switch verdict {
        case .found(let index, let lastGood, let rises):
            o.append("result", "found")
            o.append("commit", .string(commits[index]))
            o.append("subject", .string(subjects[index]))
            o.append("last_good", .string(commits[lastGood]))
            o.append("rises", .array(rises.map { r in
                .object(["benchmark": .string(r.benchmark), "before": Self.number(r.before), "after": Self.number(r.after), "change_pct": Self.number(r.change * 100)])
            }))
        case .among(let lastGood, let firstBad):
            o.append("result", "among")
            o.append("candidates", .array(((lastGood + 1)...firstBad).map { .string(commits[$0]) }))
        case .noRegression:
            o.append("result", "none")
        }
        o.append("probes", .array(probes.map { p in
            var e = JSONObject()
            e.append("commit", .string(commits[p.index]))
            switch p.outcome {
            case .measured(let counts):
                var c = JSONObject()
                for name in counts.keys.sorted() { c.append(name, Self.number(counts[name]!)) }
                e.append("counts", .object(c))
                e.append("regressed", .bool(p.regressed == true))
            case .skipped(let why):
                e.append("skipped", .string(why))
            }
            return .object(e)
        }))
        o.append("steps", .array(steps.map { s in
            .object(["from": .string(commits[s.from]), "to": .string(commits[s.to]), "benchmark": .string(s.benchmark),
                     "before": Self.number(s.before), "after": Self.number(s.after)])
        }))
        o.append("commits_between", Self.number(Double(commits.count - 2)))
        o.append("seconds", Self.number(seconds))
        return JSONWriter.encode(.object(o))
    }

    static func number(_ v: Double) -> JSONValue {
        JSONNumber((v * 1000).rounded() / 1000).map(JSONValue.number) ?? .null
    }

    static func count(_ v: Double) -> String {
        v >= 1_000_000 ? String(format: "%.2fM", v / 1_000_000) : v >= 10_000 ? String(format: "%.1fk", v / 1000) : String(format: "%.1f", v)
    }

    static func duration(_ s: Double) -> String {
        s >= 60 ? String(format: "%dm %02ds", Int(s) / 60, Int(s) % 60) : String(format: "%.1f s", s)
    }
}
