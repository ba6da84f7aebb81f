import Foundation
import Testing
import FlowWorkloads

/// `Fuzz/coverage.sh` (and `fuzz.sh --coverage`, which hands on to it) says what is wrong
/// before it builds anything: a usage error exits 64 (the usage shown), missing LLVM tools exit 1 and name the
/// place they were expected. (The build and the replay themselves run in `.ci/run`.)
@Suite struct CoverageScriptTests {
    static let fuzz = FuzzTargets.defaultRepositoryRoot.appendingPathComponent("Fuzz")

    /// Runs a script of Fuzz/ with `arguments`; `path` replaces PATH when given.
    static func run(_ script: String, _ arguments: [String], path: String? = nil) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = fuzz.appendingPathComponent(script)
        process.arguments = arguments
        if let path {
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = path
            process.environment = environment
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test func helpExitsZeroAndSaysHowToCallIt() throws {
        let help = try Self.run("coverage.sh", ["--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("Fuzz/coverage.sh TARGET [CORPUS...]") && help.out.contains("Exit status"))
    }

    @Test(arguments: [
        ([String](), "Fuzz/coverage.sh TARGET [CORPUS...]"),
        (["--frobnicate"], "unknown option --frobnicate"),
        (["no-such-target"], "unknown target 'no-such-target'"),
        (["all", "Corpus"], "all replays each target's own inputs"),
        (["json", "/no/such/corpus"], "no such file or folder: /no/such/corpus"),
    ])
    func usageErrorsExit64(_ arguments: [String], _ message: String) throws {
        let result = try Self.run("coverage.sh", arguments)
        #expect(result.status == 64, "\(arguments): \(result.err)")
        #expect((result.err + result.out).contains(message), "\(arguments): \(result.err)")
        let viaFuzz = try Self.run("fuzz.sh", arguments + ["--coverage"])
        #expect(viaFuzz.status == 64 && viaFuzz.err == result.err && viaFuzz.out == result.out,
                "fuzz.sh \(arguments) --coverage: \(viaFuzz.err)")
    }

    /// A `swift` with no LLVM tools beside it: exit 1, naming where they were looked for.
    @Test func missingLLVMToolsAreNamed() throws {
        let toolchain = FileManager.default.temporaryDirectory.appendingPathComponent("flow-toolchain-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: toolchain, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: toolchain) }
        let swift = toolchain.appendingPathComponent("swift")
        try Data("#!/bin/sh\nexit 0\n".utf8).write(to: swift)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        let result = try Self.run("coverage.sh", ["json"], path: "\(toolchain.path):/usr/bin:/bin")
        #expect(result.status == 1)
        #expect(result.err.contains("llvm-profdata missing: expected beside swift, at \(toolchain.path)/llvm-profdata"), "\(result.err)")
    }
}
