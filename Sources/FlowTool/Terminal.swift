import FlowJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Exit codes the command-line contract promises (README, "Exit codes").
enum ExitCode {
    static let success: Int32 = 0
    /// The input is invalid, or the document failed as a whole.
    static let failure: Int32 = 1
    /// `flow bench`: a metric regressed past the threshold.
    static let regression: Int32 = 2
    /// `flow bench bisect`: no commit between GOOD and BAD regresses.
    static let noRegression: Int32 = 3
    /// Bad arguments (sysexits EX_USAGE).
    static let usage: Int32 = 64
    /// An input file could not be read (sysexits EX_NOINPUT).
    static let noInput: Int32 = 66
}

/// Line-oriented output to stdout and stderr.
enum Terminal {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func outBytes(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    static func err(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// The columns a text report may use: `COLUMNS` when set, else the width of the terminal
    /// stdout is, else 100.
    static var width: Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 100
    }

    /// Whether stderr is a terminal (progress lines are redrawn in place only then).
    static var stderrIsTerminal: Bool { isatty(2) != 0 }
}

/// A command's failure, in one line that says what went wrong (exit 1).
struct ToolError: Error, CustomStringConvertible {
    var description: String
}

/// An input file that could not be read: reported with the path and the system's reason.
struct InputError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "cannot read \(path): \(reason)" }
}

/// Reads a whole file, or stdin for "-", as an array (inputs other than a page: a
/// baseline, folded stacks, a page to sample from).
func readInput(_ path: String) throws(InputError) -> [UInt8] {
    let file = try readDocument(path)
    return file.withBytes { Array($0) }
}

/// Reads a page document, or stdin for "-", into storage its ``JSONDocument`` will adopt:
/// the file is held once, not once as an array and again as the document's copy.
func readDocument(_ path: String) throws(InputError) -> JSONFileBytes {
    do { return try JSONFileBytes(contentsOfFile: path) } catch { throw InputError(path: path, reason: error.reason) }
}
