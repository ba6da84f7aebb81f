import Foundation

extension Callgrind {
    /// The instructions `command` runs inside `flow_bench_measured`, under callgrind.
    public func instructions(of command: [String]) throws -> Double {
        try counting(what: command.joined(separator: " ")) { prefix in _ = try Subprocess.run(prefix + command) }
    }

    /// Runs `body` with the command prefix that puts a process under callgrind, collecting
    /// inside `flow_bench_measured` only, and returns the instructions it counted.
    func counting(what: String, _ body: (_ prefix: [String]) throws -> Void) throws -> Double {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("flow-bench-\(getpid())-\(UUID().uuidString).callgrind")
        defer { try? FileManager.default.removeItem(at: out) }
        try body([valgrind, "--tool=callgrind", "--toggle-collect=flow_bench_measured", "--callgrind-out-file=\(out.path)", "-q"])
        guard let text = try? String(contentsOf: out, encoding: .utf8) else { throw BenchError("callgrind wrote no profile for \(what)") }
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let n = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) { return n }
        }
        throw BenchError("callgrind profile for \(what) has no totals line")
    }
}
