import Foundation

extension Callgrind {
    /// The instructions `command` runs inside `flow_bench_measured`, under callgrind.
    public func instructions(of command: [String]) throws -> Double {
        try counting(what: command.joined(separator: " ")) { prefix in _ = try Subprocess.run(WorkerLaunch.command(prefix + command, counted: true)) }
    }

    /// The call graph of what `command` runs inside `flow_bench_measured`, with each function
    /// told apart by its last `separateCallers` callers: enough to fold into stacks
    /// (``FoldedStacks``). Also gives the instruction count (``CallgrindProfile/total``).
    public func callGraph(of command: [String], separateCallers: Int = 12) throws -> CallgrindProfile {
        let text = try profiling(what: command.joined(separator: " "), options: ["--separate-callers=\(separateCallers)", "--dump-instr=no"]) { prefix in
            _ = try Subprocess.run(WorkerLaunch.command(prefix + command, counted: true))
        }
        return try CallgrindProfile(parsing: text)
    }

    /// Runs `body` with the command prefix that puts a process under callgrind, collecting
    /// inside `flow_bench_measured` only, and returns the instructions it counted.
    func counting(what: String, _ body: (_ prefix: [String]) throws -> Void) throws -> Double {
        let text = try profiling(what: what, options: [], body)
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let n = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) { return n }
        }
        throw BenchError("callgrind profile for \(what) has no totals line")
    }

    /// The callgrind profile (the file's text) of `body`'s run under the prefix it is given.
    private func profiling(what: String, options: [String], _ body: (_ prefix: [String]) throws -> Void) throws -> String {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("flow-bench-\(getpid())-\(UUID().uuidString).callgrind")
        defer { try? FileManager.default.removeItem(at: out) }
        try body([valgrind, "--tool=callgrind", "--toggle-collect=flow_bench_measured", "--callgrind-out-file=\(out.path)", "-q"] + options)
        guard let text = try? String(contentsOf: out, encoding: .utf8) else { throw BenchError("callgrind wrote no profile for \(what)") }
        return text
    }
}
