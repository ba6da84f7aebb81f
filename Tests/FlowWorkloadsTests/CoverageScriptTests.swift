import Foundation
import Testing
import FlowWorkloads

/// `Fuzz/coverage.sh` (and `fuzz.sh --coverage`, which hands on to it) says what is wrong
/// before it builds anything: a usage error exits 64 (the usage shown), missing LLVM tools exit 1 and name the
/// place they were expected. (The build and the replay themselves run in `.ci/run`.)
@Suite struct CoverageScriptTests {
    static let fuzz = FuzzTargets.defaultRepositoryRoot.appendingPathComponent("Fuzz")

    /// Runs a script of Fuzz/ with `arguments` (`path` replaces PATH when given): its exit
    /// status and what it wrote, standard output and error together.
    static func run(_ script: String, _ arguments: [String], path: String? = nil,
                    environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = fuzz.appendingPathComponent(script)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(path.map { ["PATH": $0] } ?? [:]) { $1 }.merging(environment) { $1 }
        let output = Pipe()
        (process.standardOutput, process.standardError) = (output, output)
        try process.run()
        let written = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: written, as: UTF8.self))
    }

    @Test func helpExitsZeroAndSaysHowToCallIt() throws {
        let help = try Self.run("coverage.sh", ["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("Fuzz/coverage.sh TARGET [CORPUS...]") && help.output.contains("Exit status"))
        #expect(help.output.contains("Fuzz/coverage.sh TARGET|all --committed    its seeds and Corpus/regressions/TARGET"))
        #expect(help.output.contains("Fuzz/coverage.sh TARGET|all --seeds-only   its seeds alone"))
    }

    @Test(arguments: [
        ([String](), "Fuzz/coverage.sh TARGET [CORPUS...]"),
        (["--frobnicate"], "unknown option --frobnicate"),
        (["no-such-target"], "unknown target 'no-such-target'"),
        (["all", "Corpus"], "all replays each target's own inputs"),
        (["json", "/no/such/corpus"], "no such file or folder: /no/such/corpus"),
        (["json", "--seeds-only", "Corpus"], "--seeds-only replays the seeds: name no CORPUS with it"),
        (["json", "--committed", "Corpus"], "--committed replays the seeds and the committed regressions: name no CORPUS with it"),
        (["all", "--committed", "--seeds-only"], "--committed and --seeds-only choose the inputs two ways: pass one"),
    ])
    func usageErrorsExit64(_ arguments: [String], _ message: String) throws {
        let result = try Self.run("coverage.sh", arguments)
        #expect(result.status == 64, "\(arguments): \(result.output)")
        #expect(result.output.contains(message), "\(arguments): \(result.output)")
        let viaFuzz = try Self.run("fuzz.sh", arguments + ["--coverage"])
        #expect(viaFuzz.status == 64 && viaFuzz.output == result.output, "fuzz.sh \(arguments) --coverage: \(viaFuzz.output)")
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
        #expect(result.output.contains("llvm-profdata missing: expected beside swift, at \(toolchain.path)/llvm-profdata"), "\(result.output)")
    }
}
