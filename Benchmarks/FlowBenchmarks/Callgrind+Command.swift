import Foundation

extension Callgrind {
    /// The instructions `command` runs inside `flow_bench_measured`, under callgrind.
    public func instructions(of command: [String]) throws -> Double {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("flow-profile-\(getpid())-\(UUID().uuidString).callgrind")
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try Subprocess.run([valgrind, "--tool=callgrind", "--toggle-collect=flow_bench_measured", "--callgrind-out-file=\(out.path)", "-q"] + command)
        guard let text = try? String(contentsOf: out, encoding: .utf8) else { throw BenchError("callgrind wrote no profile for \(command.joined(separator: " "))") }
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let n = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) { return n }
        }
        throw BenchError("callgrind profile of \(command.joined(separator: " ")) has no totals line")
    }
}
