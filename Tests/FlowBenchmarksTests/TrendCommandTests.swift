import Foundation
import Testing
@testable import FlowBenchmarks

/// `flow bench trend` as CI calls it: the exit status is the contract (0, 2, 1).
@Suite struct TrendCommandTests {
    func write(_ text: String) throws -> (dir: URL, path: String) {
        let dir = try scratchDirectory()
        let path = dir.appendingPathComponent("history.jsonl").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (dir, path)
    }

    @Test func aDoctoredThreePercentStepExitsTwo() throws {
        let runs = cleanHistory(10) + [run(10, label: "doctored") { name, m, v in
            name == "page.mutate.replace/1k" && m == .allocations ? v * 1.03 : v
        }]
        let (dir, path) = try write(historyText(runs))
        defer { try? FileManager.default.removeItem(at: dir) }
        let chart = dir.appendingPathComponent("trend.svg").path
        let result = try runFlow(["bench", "trend", path, "--chart", chart])
        #expect(result.status == 2, "\(result.err)")
        #expect(result.out.contains("REGRESSION  page.mutate.replace/1k  allocations/op +2.94% at doctored (from c9): 15.353 -> 15.804"))
        #expect(result.out.contains("Latest run doctored against c9: REGRESSED (1 metric past the threshold)."))
        #expect(try String(contentsOfFile: chart, encoding: .utf8).hasPrefix("<svg"))

        // A looser threshold lets it pass; markdown and JSON say the same.
        #expect(try runFlow(["bench", "trend", path, "--threshold", "5"]).status == 0)
        let markdown = try runFlow(["bench", "trend", path, "--format", "markdown"])
        #expect(markdown.status == 2)
        #expect(markdown.out.hasPrefix("### flow bench trend"))
        let json = try runFlow(["bench", "trend", path, "--format", "json"])
        #expect(json.status == 2)
        #expect(json.out.contains(#""regressed":true"#))
    }

    @Test func aCleanHistoryExitsZero() throws {
        let (dir, path) = try write(historyText(cleanHistory(10)))
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try runFlow(["bench", "trend", path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("No step change past the threshold in the window."))
        #expect(result.err.isEmpty)
    }

    @Test func anUnreadableLineIsReportedOnStderrAndSkipped() throws {
        let lines = historyText(cleanHistory(3)).split(separator: "\n").map(String.init)
        let (dir, path) = try write([lines[0], "not json", lines[1], lines[2]].joined(separator: "\n") + "\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try runFlow(["bench", "trend", path])
        #expect(result.status == 0)
        #expect(result.err.contains("\(path) line 2: not valid JSON"))
        #expect(result.out.contains("3 runs"))
    }

    @Test func aMissingFileOrOneWithoutRunsIsAnErrorExitingOne() throws {
        let missing = try runFlow(["bench", "trend", "/nonexistent/history.jsonl"])
        #expect(missing.status == 1)
        #expect(missing.err.contains("cannot read history /nonexistent/history.jsonl: no such file"))

        let (dir, path) = try write("garbage\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = try runFlow(["bench", "trend", path])
        #expect(empty.status == 1)
        #expect(empty.err.contains("holds no readable run"))

        // An empty file is readable: it holds no run yet (not "permission denied").
        let (emptyDir, emptyPath) = try write("")
        defer { try? FileManager.default.removeItem(at: emptyDir) }
        let nothing = try runFlow(["bench", "trend", emptyPath])
        #expect(nothing.status == 1)
        #expect(nothing.err.contains("\(emptyPath) holds no run yet (flow bench --history \(emptyPath) appends one)"))
        #expect(!nothing.err.contains("permission"))
    }

    @Test func badArgumentsAreUsageErrors() throws {
        let (dir, path) = try write(historyText(cleanHistory(2)))
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try runFlow(["bench", "trend"]).status == 64)
        #expect(try runFlow(["bench", "trend", path, "--last", "0"]).status == 64)
        #expect(try runFlow(["bench", "trend", path, "--format", "csv"]).status == 64)
        let help = try runFlow(["bench", "trend", "--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("Usage: flow bench trend FILE"))
        #expect(try runFlow(["help", "bench", "trend"]).out == help.out)
        #expect(try runFlow(["bench", "--help"]).out.contains("--history FILE"))
    }

    @Test func labelWithoutHistoryIsAUsageError() throws {
        let result = try runFlow(["bench", "--label", "x"])
        #expect(result.status == 64)
        #expect(result.err.contains("--label names the run in a history: expected --history FILE with it, found none"))
    }
}
