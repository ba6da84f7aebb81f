import CBenchSupport
import Foundation

/// A worker of `flow bench --against` that stays up for a round and times slices when asked
/// (``Worker/serve(name:settings:suite:reply:nextLine:)`` is its other side), kept on one CPU.
final class ServedWorker {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var pending = Data()
    private let what: String

    /// Starts the worker for benchmark `name` from `launch`, on `cpu` when one is given.
    init(_ name: String, arguments: [String], launch: WorkerLaunch, cpu: Int?) throws {
        let command = WorkerLaunch.command([launch.executable, "bench", "--worker", name, "--serve"] + arguments, counted: false)
        what = "\(launch.executable) bench --worker \(name) --serve"
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        if let directory = launch.directory { process.currentDirectoryURL = directory }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // `env` execs the worker in the same process, which keeps the affinity set here.
        if let cpu { _ = flow_pin_to_cpu(process.processIdentifier, Int32(cpu)) }
    }

    /// Waits for the end of the worker's warm-up.
    func ready() throws {
        let line = try nextLine()
        guard line == "ready" else { throw BenchError("\(what) said '\(line)' where 'ready' was expected") }
    }

    /// The median call time, in nanoseconds, of a slice `seconds` long; nil once the
    /// operation has had all the calls it allows.
    func slice(seconds: Double) throws -> Double? {
        try input.fileHandleForWriting.write(contentsOf: Data("slice \(seconds)\n".utf8))
        let line = try nextLine()
        if line == "exhausted" { return nil }
        let words = line.split(separator: " ")
        guard words.count == 2, let median = Double(words[0]), median >= 0, Int(words[1]) != nil else {
            throw BenchError("\(what) said '\(line)' where 'MEDIAN_NS CALLS' was expected")
        }
        return median
    }

    /// Ends the worker's input and waits for it to exit.
    func finish() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private func nextLine() throws -> String {
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                pending = Data(pending[(end + 1)...])
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw ended() }
            pending.append(chunk)
        }
    }

    /// The error for a worker that ended before answering, with what it wrote on stderr.
    private func ended() -> BenchError {
        try? input.fileHandleForWriting.close()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return BenchError("\(what) exited with \(process.terminationStatus): \(String(decoding: said, as: UTF8.self))")
    }
}
