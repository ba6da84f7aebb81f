import Foundation

/// The debug `flow` beside the test bundle, run as a process: what a script sees of it.
enum FlowProcess {
    static var executable: String { executable("flow") }

    /// An executable of the package built beside the test bundle (`flow`, `flow-measure`).
    static func executable(_ name: String) -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Runs `flow arguments` in `directory` (this one by default) with `environment` (this
    /// process's by default): its exit status, stdout's bytes and stderr's text. Stderr goes
    /// to a file, so a large stdout never waits on a full stderr pipe, nor the reverse.
    static func run(_ arguments: [String], in directory: String? = nil,
                    environment: [String: String]? = nil) throws -> (status: Int32, out: [UInt8], err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if let environment { process.environment = environment }
        let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("flow-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errFile) }
        let err = try FileHandle(forWritingTo: errFile)
        let out = Pipe()
        (process.standardOutput, process.standardError) = (out, err)
        try process.run()
        let bytes = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try err.close()
        return (process.terminationStatus, [UInt8](bytes), try String(contentsOf: errFile, encoding: .utf8))
    }
}
