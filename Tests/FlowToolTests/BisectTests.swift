import Foundation
import Testing
@testable import FlowTool

/// `flow bench bisect`: the search on scripted counts, and the command on a throwaway git
/// history whose commits change a count in known ways.
@Suite struct BisectTests {
    static let name = "page.decode.fast/1k"

    /// Runs the search over counts by index (nil: the commit cannot be measured).
    static func search(_ counts: [Double?], threshold: Double = 1.5) throws -> (Bisection.Verdict, Bisection) {
        var bisection = Bisection(threshold: threshold)
        let verdict = try bisection.run(count: counts.count) { i in
            counts[i].map { .measured([name: $0]) } ?? .skipped("does not build")
        }
        return (verdict, bisection)
    }

    @Test func findsTheOneStepInFewProbes() throws {
        for step in 1...16 {
            let counts: [Double?] = (0...16).map { $0 < step ? 13_110_000 : 13_920_000 }
            let (verdict, bisection) = try Self.search(counts)
            guard case .found(let index, let lastGood, let rises) = verdict else { Issue.record("step \(step): \(verdict)"); continue }
            #expect(index == step && lastGood == step - 1)
            #expect(rises == [.init(benchmark: Self.name, before: 13_110_000, after: 13_920_000)])
            #expect(bisection.probes.count <= 2 + 4, "17 commits: two ends and log2(15) probes")
            #expect(Set(bisection.probes.map(\.index)).count == bisection.probes.count, "each commit measured once")
        }
    }

    @Test func withinTheThresholdIsNoRegression() throws {
        let (verdict, bisection) = try Self.search([100, 101, 101.4])
        #expect(verdict == .noRegression)
        #expect(bisection.probes.count == 2, "only the ends are measured")
    }

    @Test func skippedCommitsAreSteppedAroundOrNamed() throws {
        // The middle commit (4) does not build: the search probes its neighbour and goes on.
        let around: [Double?] = [100, 100, 100, 100, nil, 100, 110, 110, 110]
        let (verdict, bisection) = try Self.search(around)
        #expect(verdict == .found(index: 6, lastGood: 5, rises: [.init(benchmark: Self.name, before: 100, after: 110)]))
        #expect(bisection.probes.contains { $0.index == 4 && $0.outcome == .skipped("does not build") })
        // Only unbuildable commits between the last good and the first bad: one of them, or the bad one.
        let hidden: [Double?] = [100, 100, 100, 100, 100, nil, nil, 110, 110]
        #expect(try Self.search(hidden).0 == .among(lastGood: 4, firstBad: 7))
    }

    @Test func twoStepsAreBothReportedWhenTheProbesSeeThem() throws {
        let counts: [Double?] = (0...16).map { $0 < 4 ? 100 : $0 < 12 ? 103 : 106 }
        let (verdict, bisection) = try Self.search(counts)
        guard case .found(let index, _, _) = verdict else { Issue.record("\(verdict)"); return }
        #expect(index == 4, "the first rise past the threshold")
        #expect(Set(bisection.steps.map(\.to)).count >= 2, "the probes saw the count move more than once: \(bisection.steps)")
    }

    @Test func anUnmeasurableEndIsAnError() {
        #expect(throws: Bisection.Failure.endpointNotMeasured(which: "GOOD", why: "does not build")) { try Self.search([nil, 100, 110]) }
        #expect(throws: Bisection.Failure.endpointNotMeasured(which: "BAD", why: "does not build")) { try Self.search([100, 100, nil]) }
    }

    // MARK: The command on a real git history

    /// A repository of `counts.count` commits; commit k holds `counts.json` (a flow-bench/1
    /// report with counts[k]) or, where the count is nil, a file `broken`.
    static func repository(_ counts: [Double?]) throws -> (dir: String, commits: [String]) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flow-bisect-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        func git(_ args: String...) throws -> String {
            let r = BisectWorkspace.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"] + args, in: dir)
            guard r.status == 0 else { throw ToolError(description: "git \(args): \(r.output)") }
            return r.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = try git("init", "-q")
        var commits: [String] = []
        for (k, count) in counts.enumerated() {
            let broken = (dir as NSString).appendingPathComponent("broken")
            try? FileManager.default.removeItem(atPath: broken)
            if let count {
                let report = #"{"schema":"flow-bench/1","benchmarks":[{"name":"\#(name)","instructions_per_op":\#(count),"allocations_per_op":6181}]}"#
                try Data(report.utf8).write(to: URL(fileURLWithPath: (dir as NSString).appendingPathComponent("counts.json")))
            } else {
                try Data("x".utf8).write(to: URL(fileURLWithPath: broken))
            }
            _ = try git("add", "-A")
            _ = try git("commit", "-q", "--allow-empty", "-m", "commit \(k)")
            commits.append(try git("rev-parse", "HEAD"))
        }
        return (dir, commits)
    }

    static func flow(_ arguments: [String], in dir: String) throws -> (status: Int32, out: String, err: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["FLOW_BISECT_MEASURE"] = "test ! -f broken && cat counts.json"
        let run = try FlowProcess.run(arguments, in: dir, environment: environment)
        return (run.status, String(decoding: run.out, as: UTF8.self), run.err)
    }

    @Test func findsTheCommitInARealHistoryAndLeavesTheWorkTreeAlone() throws {
        // Commit 5 raises the count 6%; commit 3 does not build.
        let (dir, commits) = try Self.repository([13_110_000, 13_110_000, 13_110_000, nil, 13_110_000, 13_900_000, 13_900_000, 13_900_000])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A dirty work tree: never touched.
        try Data("local edit".utf8).write(to: URL(fileURLWithPath: (dir as NSString).appendingPathComponent("counts.json")))

        let run = try Self.flow(["bench", "bisect", commits[0], "HEAD", "--format", "json"], in: dir)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains(#""result":"found","commit":"\#(commits[5])""#), "\(run.out)")
        #expect(run.out.contains(#""change_pct":6.026"#), "\(run.out)")
        #expect(try String(contentsOfFile: (dir as NSString).appendingPathComponent("counts.json"), encoding: .utf8) == "local edit")
        #expect(BisectWorkspace.run(["git", "rev-parse", "HEAD"], in: dir).output.hasPrefix(commits[7]))

        let text = try Self.flow(["bench", "bisect", commits[0], commits[7]], in: dir)
        #expect(text.status == 0)
        #expect(text.out.hasPrefix("First regressing commit: \(commits[5].prefix(7)) commit 5"), "\(text.out)")
        #expect(text.out.contains("instructions: 13.11M → 13.90M (+6.03%)"), "\(text.out)")
        // A second bisect reuses the worktrees.
        #expect(FileManager.default.fileExists(atPath: (dir as NSString).appendingPathComponent(".build/bisect/\(commits[5].prefix(12))")))
    }

    @Test func aSkippedCommitIsSaidAndNoRegressionExitsThree() throws {
        let (dir, commits) = try Self.repository([100, 100, nil, 100.5, 101])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try Self.flow(["bench", "bisect", commits[0], commits[4]], in: dir)
        #expect(run.status == 3, "\(run.out)\(run.err)")
        #expect(run.out.contains("No regression"))

        let (dir2, commits2) = try Self.repository([100, 100, nil, 110, 110])
        defer { try? FileManager.default.removeItem(atPath: dir2) }
        let skipping = try Self.flow(["bench", "bisect", commits2[0], commits2[4]], in: dir2)
        #expect(skipping.status == 0)
        #expect(skipping.err.contains("skipped: does not build"), "\(skipping.err)")
        // Commit 2 does not build and 3 regressed: either may be the one, and both are named.
        #expect(skipping.out.hasPrefix("The regression is in one of these"), "\(skipping.out)")
        #expect(skipping.out.contains("\(commits2[2].prefix(7)) commit 2") && skipping.out.contains("\(commits2[3].prefix(7)) commit 3"))
        #expect(!skipping.out.contains("\(commits2[1].prefix(7)) commit 1\n"))
    }

    @Test func usageErrorsSayWhatWasExpected() throws {
        let (dir, commits) = try Self.repository([100, 100, 110])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let backwards = try Self.flow(["bench", "bisect", commits[2], commits[0]], in: dir)
        #expect(backwards.status == 64)
        #expect(backwards.err.contains("expected GOOD (\(commits[2].prefix(10))) to be an ancestor of BAD"), "\(backwards.err)")
        let unknown = try Self.flow(["bench", "bisect", "no-such-ref", commits[2]], in: dir)
        #expect(unknown.status == 64)
        #expect(unknown.err.contains("expected a commit for 'no-such-ref'"))
        let nothing = try Self.flow(["bench", "bisect", commits[0], commits[2], "--filter", "^nothing-matches$"], in: dir)
        #expect(nothing.status == 64)
        #expect(nothing.err.contains("matches no benchmark of the quick suite"))
        let outside = try Self.flow(["bench", "bisect", "a", "b"], in: FileManager.default.temporaryDirectory.path)
        #expect(outside.status == 64)
    }
}
