import Foundation

/// A history file: JSON lines, one ``HistoryRun`` each, oldest first.
///
/// Appending never rewrites the file: a line this version cannot read (damaged by hand, cut
/// short by a full disk, written by a later schema) is reported and skipped when reading, and
/// stays in the file byte for byte, so nothing is lost on the next append.
public enum HistoryFile {
    /// A line that could not be read: its number (from 1) and why.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public struct Contents: Sendable {
        public var runs: [HistoryRun] = []
        public var problems: [Problem] = []
    }

    /// The runs of a history file's bytes, and the lines skipped. Blank lines are not runs and
    /// not problems.
    public static func parse(_ bytes: [UInt8]) -> Contents {
        var contents = Contents()
        for (i, raw) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            var line = Array(raw)
            if line.last == 0x0D { line.removeLast() }
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            do {
                contents.runs.append(try HistoryRun(jsonLine: line))
            } catch {
                contents.problems.append(Problem(line: i + 1, reason: error.description))
            }
        }
        return contents
    }

    /// Reads a history file; an error names the path and what was wrong.
    public static func read(_ path: String) throws(BenchError) -> Contents {
        parse(try bytes(path))
    }

    static func bytes(_ path: String) throws(BenchError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw BenchError("cannot read history \(path): no such file")
        }
        guard !isDirectory.boolValue else { throw BenchError("cannot read history \(path): it is a directory") }
        // Not `FileManager.contents(atPath:)`, which answers nil for an empty file too: an
        // empty history is readable and holds no run.
        guard FileManager.default.isReadableFile(atPath: path) else { throw BenchError("cannot read history \(path): permission denied") }
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw BenchError("cannot read history \(path): \(error.localizedDescription)")
        }
    }

    /// Appends one run, creating the file (and its folder) when missing. Returns the
    /// problems of the lines already there, which stay as they are.
    @discardableResult
    public static func append(_ run: HistoryRun, to path: String) throws(BenchError) -> [Problem] {
        let url = URL(fileURLWithPath: path)
        var existing: [UInt8] = []
        if FileManager.default.fileExists(atPath: path) {
            existing = try bytes(path)
        } else {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                guard FileManager.default.createFile(atPath: path, contents: nil) else {
                    throw BenchError("cannot create history \(path)")
                }
            } catch let error as BenchError {
                throw error
            } catch {
                throw BenchError("cannot create history \(path): \(error.localizedDescription)")
            }
        }
        // A last line without its newline (a write cut short) must not run into this one.
        var line = existing.isEmpty || existing.last == 0x0A ? [] : [UInt8(0x0A)]
        line += run.jsonLine() + [0x0A]
        do {
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(line))
        } catch {
            throw BenchError("cannot append to history \(path): \(error.localizedDescription)")
        }
        return parse(existing).problems
    }
}
