import Foundation

/// The parent side of `flow bench`: runs each selected benchmark in a worker process (and,
/// where valgrind is present, once more under callgrind for its instruction count), then
/// puts the figures together.
public struct Runner {
    public struct Options: Sendable {
        public var filter: String?
        public var quick = false
        public var instructions = true
        public var progress = true
        /// The benchmarks to choose from instead of the built-in suite (`--pages`).
        public var suite: [Benchmark]?
        /// Words every worker gets, so that it rebuilds the same suite (`--pages ...`).
        public var workerArguments: [String] = []
        /// Measure each gated benchmark's counts a second time, in fresh processes started
        /// elsewhere (``Repeat``), and report any difference.
        public var repeatCounts = false
        public init() {}
    }

    public let options: Options

    public init(options: Options) { self.options = options }

    /// The benchmarks the options select whose inputs exist here.
    public func selected() throws -> (run: [Benchmark], missing: [Benchmark]) {
        var list = options.suite ?? Suites.all
        if options.quick { list = list.filter(\.quick) }
        if let filter = options.filter {
            let regex: Regex<AnyRegexOutput>
            do { regex = try Regex(filter) } catch { throw BenchError("--filter: not a valid regular expression: \(filter)") }
            list = list.filter { $0.name.contains(regex) }
        }
        return (list.filter(\.workload.isAvailable), list.filter { !$0.workload.isAvailable })
    }

    public func run() throws -> Report {
        let (benchmarks, missing) = try selected()
        guard !benchmarks.isEmpty else { throw BenchError("no benchmark matches (see flow bench --list)") }
        let callgrind = options.instructions ? Callgrind.find() : nil
        var results: [BenchmarkResult] = []
        let started = Date()
        var repeated = options.repeatCounts ? RepeatCheck() : nil
        let launch = WorkerLaunch()
        defer { launch.remove() }
        for (n, b) in benchmarks.enumerated() {
            progress("[\(n + 1)/\(benchmarks.count)] \(b.name) …")
            let worker = try Self.spawnWorker(b.name, arguments: ["--min-time", options.quick ? "0.4" : "1.0"] + options.workerArguments, launch: launch)
            var result = BenchmarkResult(benchmark: b, worker: worker)
            let counts = options.instructions && callgrind != nil && b.countsInstructions && b.gates
            if !options.instructions {
                result.instructions = .skipped("not asked for")
            } else if callgrind == nil {
                result.instructions = .unavailable
            } else if !b.countsInstructions || !b.gates {
                result.instructions = .skipped(b.gates ? "input too large for callgrind" : "competitor")
            }
            if repeated != nil && b.gates {
                // The second measurement runs beside the first count, on the other core.
                progress("[\(n + 1)/\(benchmarks.count)] \(b.name) under callgrind, and its counts again …")
                let (count, again) = try Repeat.inParallel(
                    { counts ? try callgrind!.instructions(for: b.name, arguments: self.options.workerArguments, launch: launch) : nil },
                    { try Repeat.measure(b.name, arguments: self.options.workerArguments, callgrind: counts ? callgrind : nil, launch: launch) })
                if let count { result.instructions = .measured(count) }
                repeated?.check(result, against: again)
            } else if counts {
                progress("[\(n + 1)/\(benchmarks.count)] \(b.name) under callgrind …")
                result.instructions = .measured(try callgrind!.instructions(for: b.name, arguments: options.workerArguments, launch: launch))
            }
            progress("[\(n + 1)/\(benchmarks.count)] \(b.name): median \(Format.duration(result.median)) over \(result.iterations) runs\(result.instructions.value.map { ", \(Format.count($0)) instructions" } ?? "")", done: true)
            results.append(result)
        }
        Self.compare(&results, benchmarks)
        var report = Report(results: results, scaling: Self.scaling(results), quick: options.quick,
                            missing: missing.map(\.name), seconds: Date().timeIntervalSince(started),
                            instructionsAvailable: callgrind != nil || !options.instructions, instructionsAsked: options.instructions)
        report.repeatCheck = repeated
        return report
    }

    private func progress(_ line: String, done: Bool = false) {
        if options.progress { Terminal.progress(line, done: done) }
    }

    /// Ratios between peers measured in this run.
    static func compare(_ results: inout [BenchmarkResult], _ benchmarks: [Benchmark]) {
        let byName = Dictionary(uniqueKeysWithValues: results.map { ($0.name, $0.median) })
        for i in results.indices {
            guard let b = benchmarks.first(where: { $0.name == results[i].name }) else { continue }
            for peer in b.peers {
                guard let other = byName[peer.name], other > 0, results[i].median > 0 else { continue }
                let value = peer.isShare ? results[i].median / other : other / results[i].median
                results[i].comparisons.append(.init(peer: peer.name, label: peer.label, isShare: peer.isShare, value: value))
            }
        }
    }

    /// Groups measured at two or more of the swept sizes (``Suites/sizes`` for pages,
    /// ``Suites/hostileSizes`` for hostile shapes).
    static func scaling(_ results: [BenchmarkResult]) -> [Scaling] {
        var groups: [String: [BenchmarkResult]] = [:]
        var order: [String] = []
        for r in results {
            guard let size = Int(r.size.replacingOccurrences(of: "k", with: "000")) else { continue }
            let swept = r.group.hasPrefix("hostile.") ? Suites.hostileSizes : Suites.sizes
            guard swept.contains(size) else { continue }
            if groups[r.group] == nil { order.append(r.group) }
            groups[r.group, default: []].append(r)
        }
        func size(_ r: BenchmarkResult) -> Int { Int(r.size.replacingOccurrences(of: "k", with: "000"))! }
        return order.compactMap { g in
            let members = groups[g]!.sorted { size($0) < size($1) }
            guard members.count >= 2 else { return nil }
            var s = Scaling(group: g, points: members.map { (widgets: size($0), median: $0.median) })
            let counted = members.compactMap { $0.instructions.value }
            if g.hasPrefix("hostile."), counted.count == members.count { s.instructions = counted.map { Int($0) } }
            return s
        }
    }

    /// This executable, re-entered as a worker the way `launch` starts one, under `prefix`
    /// (callgrind's) when given.
    static func spawnWorker(_ name: String, arguments: [String], launch: WorkerLaunch, prefix: [String] = []) throws -> WorkerResult {
        let output = try Subprocess.run(WorkerLaunch.command(prefix + [launch.executable, "bench", "--worker", name] + arguments, counted: !prefix.isEmpty),
                                        directory: launch.directory)
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let result = try? JSONDecoder().decode(WorkerResult.self, from: Data(line.utf8))
        else { throw BenchError("worker for \(name) printed no result:\n\(output)") }
        return result
    }
}

/// valgrind's callgrind, counting the instructions of `flow_bench_measured` only.
public struct Callgrind {
    let valgrind: String

    public static func find() -> Callgrind? { Executable.find("valgrind").map { Callgrind(valgrind: $0) } }

    /// The instructions of one call of benchmark `name`'s operation, in a worker started by
    /// `launch`. (The allocations of that call are the timed worker's to report: counted
    /// there over four warm calls, not one.)
    func instructions(for name: String, arguments: [String] = [], launch: WorkerLaunch) throws -> Double {
        try counting(what: name) { prefix in
            _ = try Runner.spawnWorker(name, arguments: ["--instruction-calls", "1"] + arguments, launch: launch, prefix: prefix)
        }
    }

}

enum Executable {
    /// The first executable file called `name` in a folder of PATH.
    static func find(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}

enum Subprocess {
    static let selfPath: String = {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }()

    /// Runs a command with deterministic hashing, returns its stdout; stderr passes through
    /// only when it fails. `environment` is added to this process's; `directory` is the
    /// working directory (default: this one).
    static func run(_ command: [String], input: URL? = nil, directory: URL? = nil, environment: [String: String] = [:]) throws -> String {
        let process = Process()
        if let input { process.standardInput = try FileHandle(forReadingFrom: input) }
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_DETERMINISTIC_HASHING"] = "1"
        env.merge(environment) { $1 }
        process.environment = env
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Read before waiting: a full pipe would block the child.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(command.prefix(3).joined(separator: " ")) … exited with \(process.terminationStatus): \(String(decoding: err, as: UTF8.self))")
        }
        return String(decoding: out, as: UTF8.self)
    }
}

enum Terminal {
    static var stderrIsTTY: Bool { isatty(2) != 0 }

    /// A progress line on stderr: rewritten in place on a terminal; elsewhere (a CI log) only
    /// the lines that are `done` are written.
    static func progress(_ line: String, done: Bool) {
        if stderrIsTTY {
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line + (done ? "\n" : "")).utf8))
        } else if done {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }
}
