import Foundation
import Testing
import FlowWorkloads

/// `Fuzz/fuzz.sh --binary` never reports a pass for a run that checked nothing: a binary that
/// is not a fuzz build is refused before it runs (with the command that builds one), and a
/// run that executed no input or loaded no coverage counters fails after it. The runs here
/// use stand-ins (a shell script for the target, and for `nm` where the symbol check must
/// pass), so they need no fuzz build; `.ci/run` fuzzes the real targets.
@Suite struct FuzzScriptTests {
    /// A scratch folder holding the stand-ins, removed by the caller.
    struct Scratch {
        let folder: URL
        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-fuzz-script-\(UInt64.random(in: 0...UInt64.max))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        func executable(_ name: String, _ script: String) throws -> String {
            let path = path(name)
            try Data(script.utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            return path
        }

        /// An `nm` that lists libFuzzer's driver and the coverage counters' section, so the
        /// symbol check passes and the run's own checks are what is tested.
        func instrumentedLookingNM() throws -> String {
            let tools = folder.appendingPathComponent("tools")
            try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
            _ = try executable("tools/nm", "#!/bin/sh\necho '0000000000001000 T LLVMFuzzerRunDriver'\necho '0000000000002000 D __start___sancov_cntrs'\n")
            return "\(tools.path):/usr/bin:/bin"
        }

        /// A target that writes no seeds, copies the dictionary it is given to `dict.seen`,
        /// and prints `log` as its run's output.
        func target(printing log: String) throws -> String {
            try executable("fuzz-standin", """
                #!/bin/sh
                if [ -n "$FLOW_FUZZ_WRITE_SEEDS" ]; then mkdir -p "$FLOW_FUZZ_WRITE_SEEDS"; exit 0; fi
                for a in "$@"; do case "$a" in -dict=*) cp "${a#-dict=}" "\(path("dict.seen"))";; esac; done
                cat <<'EOF'
                \(log)
                EOF

                """)
        }

        func fuzz(_ binary: String, _ extra: [String] = [], path: String? = nil) throws -> (status: Int32, output: String) {
            try CoverageScriptTests.run("fuzz.sh", ["standin", "1", "--binary", binary, "--work", self.path("work"), "--regressions", self.path("regressions")] + extra, path: path)
        }
    }

    @Test func aBinaryWithoutLibFuzzerIsRefusedWithTheCommandThatBuildsOne() throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.folder) }
        // A real executable of the system's, built without libFuzzer or coverage counters (not
        // this test binary: a sanitized build of it links part of libFuzzer's runtime, and is
        // large enough to make nm slow).
        let result = try scratch.fuzz("/bin/true")
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("/bin/true is not a fuzz build: it lacks libFuzzer (-sanitize=fuzzer) and coverage counters"), "\(result.output)")
        #expect(result.output.contains("swift build \"${FUZZ_BUILD_FLAGS[@]}\" --product"), "\(result.output)")
        #expect(!result.output.contains("summary"), "the binary must not have run: \(result.output)")
    }

    @Test func aRunThatExecutedNothingFails() throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.folder) }
        let result = try scratch.fuzz(try scratch.target(printing: "INFO: Seed: 1"), path: try scratch.instrumentedLookingNM())
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("executions:  0"), "\(result.output)")
        #expect(result.output.contains("standin: FAILED: not a real fuzzing run:"), "\(result.output)")
        #expect(result.output.contains("no input was executed (executions: 0)"), "\(result.output)")
        #expect(result.output.contains("libFuzzer loaded no coverage counters"), "\(result.output)")
    }

    @Test func aRunWithoutCoverageFailsThoughItExecuted() throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.folder) }
        let log = """
            INFO: Loaded 1 modules   (0 inline 8-bit counters): 0 [0x1, 0x1),
            INFO: A corpus is not provided, starting from an empty corpus
            #2\tINITED exec/s: 0 rss: 30Mb
            WARNING: no interesting inputs were found so far. Is the code instrumented for coverage? This may also happen if the target rejected all inputs we tried so far
            #4096\tDONE   exec/s: 4096 rss: 30Mb
            stat::number_of_executed_units: 4096
            """
        let result = try scratch.fuzz(try scratch.target(printing: log), path: try scratch.instrumentedLookingNM())
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("executions:  4096"), "\(result.output)")
        #expect(result.output.contains("libFuzzer loaded no coverage counters"), "\(result.output)")
        #expect(result.output.contains("libFuzzer found no interesting input"), "\(result.output)")
    }

    /// A run's log as libFuzzer writes it when it executed inputs with coverage.
    static let coveredRun = """
        INFO: Loaded 1 modules   (5120 inline 8-bit counters): 5120 [0x1, 0x2),
        #2\tINITED cov: 812 ft: 900 corp: 1/2b exec/s: 0 rss: 40Mb
        #9000\tDONE   cov: 1204 ft: 2311 corp: 88/4096b lim: 4096 exec/s: 9000 rss: 60Mb
        stat::number_of_executed_units: 9000
        stat::average_exec_per_sec:     9000
        """

    /// The same checks let a real run through, and `--dict` adds the host's entries to the
    /// contract's dictionary rather than replacing it.
    @Test func aRunThatExecutedWithCoveragePassesAndTakesTheHostsDictionary() throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.folder) }
        let log = Self.coveredRun
        let hostDict = scratch.path("host.dict")
        try Data("\"price_tag\"\n\"amount_minor\"\n".utf8).write(to: URL(fileURLWithPath: hostDict))
        let result = try scratch.fuzz(try scratch.target(printing: log), ["--dict", hostDict], path: try scratch.instrumentedLookingNM())
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("executions:  9000") && result.output.contains("cov: 1204 ft: 2311"), "\(result.output)")
        #expect(result.output.contains("crashes:     0"), "\(result.output)")

        let seen = try String(contentsOfFile: scratch.path("dict.seen"), encoding: .utf8)
        let contract = try String(contentsOf: CoverageScriptTests.fuzz.appendingPathComponent("flow.dict"), encoding: .utf8)
        #expect(seen.hasPrefix(contract), "the contract's dictionary comes first, whole")
        #expect(seen.hasSuffix("\"price_tag\"\n\"amount_minor\"\n"), "the host's entries follow it")
    }

    /// `--canary`: the run passes only when the planted crash is found, which a target shows by
    /// the control's own line; a run that found nothing fails, saying what that means, and the
    /// control's work stays in WORK/canary, never in the regressions folder.
    @Test func theCanaryControlPassesOnlyWhenThePlantedCrashIsFound() throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.folder) }
        let path = try scratch.instrumentedLookingNM()
        let found = Self.coveredRun + "\n==flow-canary== canary 1 (number-out-of-range) found: a number out of its range (level outside 0...100)\n==1== ERROR: libFuzzer: deadly signal"
        let passed = try scratch.fuzz(try scratch.target(printing: found), ["--canary"])
        #expect(passed.status == 1, "without an instrumented-looking nm the binary is refused first: \(passed.output)")
        let control = try scratch.fuzz(try scratch.target(printing: found), ["--canary"], path: path)
        #expect(control.status == 0, "\(control.output)")
        #expect(control.output.contains("standin positive control: found the planted crash in") && control.output.contains("(9000 executions)"),
                "\(control.output)")
        #expect(FileManager.default.fileExists(atPath: scratch.path("work/canary/run.log")))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("regressions/standin")), "the control's crash is no regression")

        let missed = try scratch.fuzz(try scratch.target(printing: Self.coveredRun), ["--canary"], path: path)
        #expect(missed.status == 1, "\(missed.output)")
        #expect(missed.output.contains("standin: FAILED: the positive control found nothing in 1s (9000 executions"), "\(missed.output)")
    }

    /// CI's step fuzzes binaries built elsewhere (the OSS-Fuzz build's $OUT), several targets at
    /// once, each output printed whole; a target missing from the folder fails the step by name.
    @Test func ciFuzzesPrebuiltBinariesTwoAtATimeAndNamesAMissingOne() throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.folder) }
        let log = Self.coveredRun
        let out = scratch.folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let standin = try scratch.target(printing: log)
        for name in ["fuzz-json", "fuzz-decodable"] {
            try FileManager.default.copyItem(atPath: standin, toPath: out.appendingPathComponent(name).path)
        }
        let path = try scratch.instrumentedLookingNM()
        let passed = try CoverageScriptTests.run("ci.sh", ["--binaries", out.path, "--parallel", "2", "json", "decodable"], path: path,
                                                 environment: ["FUZZ_SECONDS": "1"])
        #expect(passed.status == 0, "\(passed.output)")
        #expect(passed.output.contains("== json summary") && passed.output.contains("== decodable summary"), "\(passed.output)")
        #expect(passed.output.contains("fuzz: 2 target(s), 1s each, built in \(out.path), 2 at a time, no crash."), "\(passed.output)")

        let missing = try CoverageScriptTests.run("ci.sh", ["--binaries", out.path, "--parallel", "2", "json", "page"], path: path,
                                                  environment: ["FUZZ_SECONDS": "1"])
        #expect(missing.status == 1, "\(missing.output)")
        #expect(missing.output.contains("fuzz: FAILED: page (no binary)"), "\(missing.output)")
    }
}
