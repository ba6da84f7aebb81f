import Foundation
import FlowJSON
import Testing
@testable import FlowBenchmarks

/// `flow bench --repeat-counts`: a count that comes out differently the second time is named,
/// metric by metric; identical counts pass; and how workers are started leaves nothing of the
/// parent's environment or location to move a count.
@Suite struct RepeatCheckTests {
    func result(_ name: String, allocations: Double, retained: Int?, instructions: Double?) -> BenchmarkResult {
        let benchmark = Suites.all.first { $0.name == name }!
        var worker = WorkerResult(name: name, times: [1_000], allocationsPerOp: allocations, bytesPerOp: nil, widgetsPerOp: nil)
        worker.retainedBytes = retained
        var result = BenchmarkResult(benchmark: benchmark, worker: worker)
        if let instructions { result.instructions = .measured(instructions) }
        return result
    }

    @Test func identicalCountsPass() {
        var check = RepeatCheck()
        check.check(result("page.decode.fast/1k", allocations: 2053, retained: 290_000, instructions: 13_110_867),
                    against: .init(allocations: 2053, retained: 290_000, instructions: 13_110_867))
        #expect(check.compared == 1)
        #expect(!check.failed)
        #expect(check.textLines() == ["Counts measured again in fresh processes: 1 benchmark, every count identical."])
    }

    @Test func eachCountThatDiffersIsNamedWithBothValues() throws {
        var check = RepeatCheck()
        check.check(result("page.decode.fast/1k", allocations: 2053, retained: 290_000, instructions: 13_110_867),
                    against: .init(allocations: 2053.25, retained: 290_016, instructions: 13_110_866))
        #expect(check.failed)
        #expect(check.differences.map(\.metric) == ["allocations/op", "retained bytes", "instructions/op"])
        let lines = check.textLines()
        #expect(lines.contains("  NOT REPEATABLE  page.decode.fast/1k  instructions/op: 13110867 first, 13110866 the second time"),
                "every digit, since two counts that differ by one round alike: \(lines)")
        #expect(lines.contains("  NOT REPEATABLE  page.decode.fast/1k  allocations/op: 2053 first, 2053.250 the second time"))
        let json = try #require(check.json.objectValue)
        #expect(json["differences"]?.arrayValue?.count == 3)
    }

    /// Retained bytes gate for page decodes only, so only there must they repeat; a count
    /// not measured (no valgrind) is not compared.
    @Test func onlyGatedMetricsAreCompared() {
        var check = RepeatCheck()
        check.check(result("page.mutate.replace/1k", allocations: 16.25, retained: 2_704, instructions: nil),
                    against: .init(allocations: 16.25, retained: 3_024, instructions: 28_015))
        #expect(!check.failed)
    }

    /// A worker's environment is the same list, in the same order, whatever the parent's
    /// holds: nothing but hashing, the counted tunables and what the loaders need.
    @Test func aWorkersEnvironmentIgnoresTheParents() {
        let small = ["PATH": "/usr/bin", "HOME": "/root"]
        var large = small
        for k in 0..<200 { large["VARIABLE_\(k)"] = String(repeating: "x", count: 20 * k) }
        #expect(WorkerLaunch.environment(counted: true, from: small) == WorkerLaunch.environment(counted: true, from: large))
        #expect(WorkerLaunch.environment(counted: false, from: small) == ["SWIFT_DETERMINISTIC_HASHING=1"])
        let counted = WorkerLaunch.environment(counted: true, from: ["LD_LIBRARY_PATH": "/opt/lib"])
        #expect(counted.first == "SWIFT_DETERMINISTIC_HASHING=1")
        #expect(counted.contains { $0.hasPrefix("GLIBC_TUNABLES=") && $0.contains("glibc.cpu.x86_rep_movsb_threshold=1152921504606846975") })
        #expect(counted.last == "LD_LIBRARY_PATH=/opt/lib")
        #expect(WorkerLaunch.command(["valgrind", "x"], counted: true).prefix(2) == ["/usr/bin/env", "-i"])
    }

    /// The launch folder has the same shape in every run: /tmp/flow-bench- and ten digits,
    /// holding `worker`, a link to this executable.
    @Test func theLaunchFolderHasOneShape() throws {
        let launch = WorkerLaunch()
        defer { launch.remove() }
        let directory = try #require(launch.directory, "/tmp is writable here")
        #expect(directory.path.count == "/tmp/flow-bench-".count + 10)
        #expect(directory.path == "/tmp/flow-bench-" + String(format: "%010d", Int(getpid())))
        #expect(launch.executable == directory.path + "/worker")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: launch.executable) == Subprocess.selfPath)
        launch.remove()
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }
}
