import Foundation
import Testing
@testable import FlowBenchmarks

/// The history file: one run per JSON line, appended without rewriting, damaged lines
/// reported and kept.
@Suite struct HistoryTests {
    @Test func aRunSurvivesItsJSONLine() throws {
        let original = run(3, label: "a83cc2c")
        let line = original.jsonLine()
        #expect(!line.contains(0x0A))
        #expect(try HistoryRun(jsonLine: line) == original)
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.hasPrefix(#"{"schema":"flow-bench-history/1","label":"a83cc2c","date":"2026-11-04T12:00:00Z""#))
        #expect(text.contains(#""json.foundation/twitter":{"gates":false,"allocations_per_op":2000.0,"instructions_per_op":null"#))
    }

    @Test func aRunFromAReportKeepsEveryBenchmarkInOrder() throws {
        let worker = WorkerResult(name: "x", times: [300, 100, 200], allocationsPerOp: 7, bytesPerOp: nil, widgetsPerOp: nil)
        var gated = BenchmarkResult(benchmark: Suites.all.first { $0.gates }!, worker: worker)
        gated.instructions = .measured(1234)
        let competitor = BenchmarkResult(benchmark: Suites.all.first { !$0.gates }!, worker: worker)
        let report = Report(results: [gated, competitor], scaling: [], quick: true, missing: [], seconds: 1, instructionsAvailable: true)
        let run = HistoryRun(report, label: "L", date: "D", machine: testMachine, toolchain: "T")
        #expect(run.quick)
        #expect(run.benchmarks == [
            HistoryRun.Entry(name: gated.name, gates: true, allocations: 7, instructions: 1234, wallMedian: 200),
            HistoryRun.Entry(name: competitor.name, gates: false, allocations: 7, instructions: nil, wallMedian: 200),
        ])
    }

    @Test func aLineOfAnotherSchemaSaysWhatWasExpectedAndFound() {
        #expect(throws: BenchError.self) { try HistoryRun(jsonLine: Array(#"{"schema":"flow-bench/1"}"#.utf8)) }
        do {
            _ = try HistoryRun(jsonLine: Array(#"{"schema":"flow-bench-history/2","label":"x"}"#.utf8))
            Issue.record("a line of schema flow-bench-history/2 was read")
        } catch {
            #expect(error.description == #"expected "schema": "flow-bench-history/1", found "flow-bench-history/2""#)
        }
        do {
            _ = try HistoryRun(jsonLine: Array(#"{"schema":"flow-bench-history/1","label":"x","date":"d","benchmarks":{"a":{"instructions_per_op":"many"}}}"#.utf8))
            Issue.record("a string instruction count was read")
        } catch {
            #expect(error.description == #"benchmark a: expected "instructions_per_op" to be a number or null, found the string "many""#)
        }
    }

    @Test func aMissingFileIsCreatedFolderAndAll() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("nested/folder/history.jsonl").path
        let problems = try HistoryFile.append(run(0), to: path)
        #expect(problems.isEmpty)
        let contents = try HistoryFile.read(path)
        #expect(contents.runs == [run(0)])
        #expect(contents.problems.isEmpty)
        try HistoryFile.append(run(1), to: path)
        #expect(try HistoryFile.read(path).runs == [run(0), run(1)])
    }

    @Test func anUnreadableLineIsReportedSkippedAndKeptOnTheNextAppend() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("history.jsonl").path
        let damaged = #"{"schema":"flow-bench-history/1","label":"cut short","da"#
        // The damaged line is the last and lacks its newline, as after an interrupted write.
        try (historyText([run(0)]) + "\n" + damaged).write(toFile: path, atomically: true, encoding: .utf8)

        let before = try HistoryFile.read(path)
        #expect(before.runs == [run(0)])
        #expect(before.problems.map(\.line) == [3])
        #expect(before.problems.first?.reason.hasPrefix("not valid JSON") == true)

        let reported = try HistoryFile.append(run(1), to: path)
        #expect(reported == before.problems)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == historyText([run(0)]) + "\n" + damaged + "\n" + historyText([run(1)]))
        let after = try HistoryFile.read(path)
        #expect(after.runs == [run(0), run(1)])
        #expect(after.problems.map(\.line) == [3])
    }

    @Test func aFolderIsNotAHistory() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            try HistoryFile.append(run(0), to: dir.path)
            Issue.record("a run was appended to a folder")
        } catch {
            #expect(error.description == "cannot read history \(dir.path): it is a directory")
        }
    }

    @Test func readingAMissingFileNamesIt() {
        do {
            _ = try HistoryFile.read("/nonexistent/history.jsonl")
            Issue.record("a missing file was read")
        } catch {
            #expect(error.description == "cannot read history /nonexistent/history.jsonl: no such file")
        }
    }

    @Test func theLabelDefaultsToTheDateOutsideAGitWorkTree() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(HistoryRun.defaultLabel(in: dir.path, date: "2026-12-04T22:50:00Z") == "2026-12-04T22:50:00Z")
    }

    @Test func theLabelDefaultsToTheShortCommitInAGitWorkTree() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func git(_ arguments: String...) throws -> String {
            try Subprocess.run(["/usr/bin/env", "git", "-C", dir.path, "-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments)
        }
        _ = try git("init", "-q")
        _ = try git("commit", "-q", "--allow-empty", "-m", "first")
        let commit = try git("rev-parse", "--short", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(commit.count >= 7)
        #expect(HistoryRun.defaultLabel(in: dir.path, date: "2026-12-04T22:50:00Z") == commit)
    }

    @Test func theTimestampIsUTCToTheSecond() {
        #expect(HistoryRun.timestamp(Date(timeIntervalSince1970: 1_796_424_600)) == "2026-12-04T22:50:00Z")
    }

    @Test func thisMachineIsDescribed() {
        let machine = HistoryRun.currentMachine()
        #expect(machine.cores >= 1)
        #expect(!machine.os.isEmpty)
        #expect(HistoryRun.currentToolchain().contains("Swift"))
    }
}
