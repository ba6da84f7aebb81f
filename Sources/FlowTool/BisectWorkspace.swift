import FlowJSON
import Foundation

/// Where `flow bench bisect` builds and measures commits: a git worktree per commit under
/// `.build/bisect/` of the repository (never the work tree the user is in, dirty or not), each
/// built in its own folder and kept, so a second bisect over the same commits only measures.
struct BisectWorkspace {
    /// The repository's top folder.
    let root: String
    /// What to measure: `bench` arguments after `--quick --format json`.
    let benchArguments: [String]
    /// When set (tests, or a team's own measuring script), run in the commit's worktree
    /// instead of building: it prints a `flow-bench/1` report on stdout, and failing means
    /// the commit cannot be measured.
    let measureCommand: String?
    /// `instructions_per_op` or `allocations_per_op`.
    let metricKey: String
    let log: (String) -> Void

    /// The repository holding the current folder.
    static func repositoryRoot() throws -> String {
        let result = run(["git", "rev-parse", "--show-toplevel"], in: FileManager.default.currentDirectoryPath)
        guard result.status == 0 else { throw UsageError(message: "bench bisect runs in a git repository; the current folder is not in one") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The full hash of `ref`, or a usage error naming it.
    func commit(_ ref: String) throws -> String {
        let result = Self.run(["git", "rev-parse", "--verify", "--quiet", ref + "^{commit}"], in: root)
        guard result.status == 0 else { throw UsageError(message: "expected a commit for '\(ref)', found none in \(root) (a branch, tag or hash)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// GOOD, the commits after it on BAD's first-parent line, and BAD: oldest first.
    func commits(good: String, bad: String) throws -> [String] {
        guard good != bad else { throw UsageError(message: "GOOD and BAD are the same commit; expected GOOD to be an ancestor of BAD") }
        guard Self.run(["git", "merge-base", "--is-ancestor", good, bad], in: root).status == 0 else {
            throw UsageError(message: "expected GOOD (\(good.prefix(10))) to be an ancestor of BAD (\(bad.prefix(10))); is it after BAD, or on another branch?")
        }
        let list = Self.run(["git", "rev-list", "--first-parent", "--reverse", "\(good)..\(bad)"], in: root)
        guard list.status == 0 else { throw ToolError(description: "git rev-list failed: \(list.output)") }
        let after = list.output.split(separator: "\n").map(String.init)
        // First parents from BAD may pass GOOD by (GOOD on a merged branch): keep the line that reaches it.
        return [good] + after
    }

    func subject(_ commit: String) -> String {
        Self.run(["git", "log", "-1", "--format=%h %s", commit], in: root).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Measures one commit: its worktree, its build, one `bench` run.
    func measure(_ commit: String) -> Bisection.Outcome {
        let short = String(commit.prefix(12))
        let tree = (root as NSString).appendingPathComponent(".build/bisect/\(short)")
        if !FileManager.default.fileExists(atPath: (tree as NSString).appendingPathComponent(".git")) {
            try? FileManager.default.removeItem(atPath: tree)
            let added = Self.run(["git", "worktree", "add", "--detach", "--force", tree, commit], in: root)
            guard added.status == 0 else { return .skipped("cannot check it out: \(Self.lastLine(added.output))") }
        }
        let report: (status: Int32, output: String)
        if let measureCommand {
            report = Self.run(["/bin/sh", "-c", measureCommand], in: tree)
            guard report.status == 0 else { return .skipped("does not build (the measuring command exited \(report.status): \(Self.lastLine(report.output)))") }
        } else {
            let manifest = (try? String(contentsOfFile: (tree as NSString).appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
            // The measuring tool; before it existed, flow counted allocations itself.
            let product = manifest.contains("\"flow-measure\"") ? "flow-measure" : "flow"
            let started = Date()
            log("  building \(product) at \(short) …")
            let built = Self.run(["swift", "build", "-c", "release", "--product", product], in: tree)
            guard built.status == 0 else { return .skipped("does not build: \(Self.lastLine(built.output))") }
            log(String(format: "  built in %.0f s; measuring …", Date().timeIntervalSince(started)))
            let bin = (tree as NSString).appendingPathComponent(".build/release/\(product)")
            report = Self.run([bin, "bench", "--quick", "--format", "json"] + benchArguments, in: tree)
            guard report.status == 0 || report.status == 2 else { return .skipped("flow bench failed (exit \(report.status)): \(Self.lastLine(report.output))") }
        }
        guard let counts = Self.counts(report.output, key: metricKey) else { return .skipped("no flow-bench/1 report in the output") }
        return counts.isEmpty ? .skipped("lacks the benchmark (the filter matches none at this commit)") : .measured(counts)
    }

    /// Each benchmark's count from a `flow-bench/1` JSON report (the last line that is one).
    static func counts(_ output: String, key: String) -> [String: Double]? {
        for line in output.split(separator: "\n").reversed() where line.hasPrefix("{") {
            guard let value = try? JSONValue(parsing: Array(line.utf8)), value["schema"]?.stringValue == "flow-bench/1",
                  let benchmarks = value["benchmarks"]?.arrayValue else { continue }
            var counts: [String: Double] = [:]
            for b in benchmarks {
                if let name = b["name"]?.stringValue, let n = b[key]?.numberValue, let v = Double(n.text) { counts[name] = v }
            }
            return counts
        }
        return nil
    }

    static func lastLine(_ text: String) -> String {
        String(text.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) ?? "no output")
    }

    /// Runs a program to the end; its status and its stdout and stderr together.
    static func run(_ argv: [String], in folder: String) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0].hasPrefix("/") ? argv[0] : "/usr/bin/env")
        process.arguments = argv[0].hasPrefix("/") ? Array(argv.dropFirst()) : argv
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (127, "cannot run \(argv[0]): \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
