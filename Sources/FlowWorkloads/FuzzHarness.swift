#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What every fuzz entry point does: run the target's oracle on libFuzzer's input and trap
/// (`abort`, which libFuzzer reports as a crash and saves the input of) when an invariant
/// fails. Expected errors are the oracle's business; only its failures reach here.
///
/// Public in FlowWorkloads so that a host's own fuzz target (``FuzzTarget/host(name:registry:pages:)``)
/// is the two entry points below and nothing else (README, "Your own pages and widget types").
public enum FuzzHarness {
    /// `LLVMFuzzerTestOneInput`.
    public static func testOneInput(_ target: FuzzTarget, _ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes: [UInt8] = if let data, size > 0 { Array(UnsafeBufferPointer(start: data, count: size)) } else { [] }
        var failures = target.check(bytes)
        if selfTest, bytes.starts(with: selfTestMarker) {
            failures.append("self-test: FLOW_FUZZ_SELF_TEST is set and the input starts with the self-test marker")
        }
        guard failures.isEmpty else {
            var report = "==flow-fuzz== \(target.name) oracle: \(failures.count) invariant(s) failed on a \(size)-byte input\n"
            for failure in failures.prefix(20) {
                report += "  - " + (failure.count > 2000 ? String(failure.prefix(2000)) + "…" : failure) + "\n"
            }
            FileHandle.standardError.write(Data(report.utf8))
            abort()
        }
        return 0
    }

    /// Fills libdispatch's per-thread caches of work items before the first input runs.
    ///
    /// libFuzzer counts the mallocs and frees of each execution; one with more mallocs runs
    /// again, and then LeakSanitizer scans the whole heap (tens of milliseconds under
    /// AddressSanitizer, ten times an execution). The oracles' decode on several threads
    /// (`DispatchQueue.concurrentPerform`) allocates a work item on the calling thread that a
    /// worker frees into its own cache, until that cache is full: an execution in two was
    /// one malloc up, and the fuzz loop spent most of its time in leak checks that found
    /// nothing. Cheap parallel calls here fill the workers' caches, so that what an
    /// execution allocates it frees, and a leak check runs where something stays allocated.
    static func warmDispatchCaches(calls: Int = 20_000) {
        let threads = max(2, ProcessInfo.processInfo.activeProcessorCount)
        for _ in 0..<calls { DispatchQueue.concurrentPerform(iterations: threads) { _ in } }
    }

    /// With `FLOW_FUZZ_SELF_TEST` set, an input starting with `FLOW_FUZZ_SELF_TEST` fails: proves
    /// the crash path of the scripts (artifact, copy to Corpus/regressions, non-zero exit).
    static let selfTest = ProcessInfo.processInfo.environment["FLOW_FUZZ_SELF_TEST"] != nil
    static let selfTestMarker = Array("FLOW_FUZZ_SELF_TEST".utf8)

    /// `LLVMFuzzerInitialize`. With `FLOW_FUZZ_WRITE_SEEDS=DIR` in the environment, writes the
    /// target's seed corpus into DIR and exits (the scripts build their working corpus this
    /// way); `FLOW_FUZZ_ROOT` names the repository root when the binary was built elsewhere.
    /// A target with a ``FuzzTarget/setupError`` (no pages to fuzz) reports it and exits 1,
    /// whether fuzzing, replaying or writing seeds: it would check nothing.
    public static func initialize(_ target: FuzzTarget) -> CInt {
        if let problem = target.setupError {
            FileHandle.standardError.write(Data("\(target.name): cannot fuzz: \(problem)\n".utf8))
            _exit(1)
        }
        let environment = ProcessInfo.processInfo.environment
        guard let folder = environment["FLOW_FUZZ_WRITE_SEEDS"] else {
            warmDispatchCaches()
            return 0
        }
        let root = environment["FLOW_FUZZ_ROOT"].map { URL(fileURLWithPath: $0) } ?? FuzzTargets.defaultRepositoryRoot
        let directory = URL(fileURLWithPath: folder)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let seeds = try target.seeds(repositoryRoot: root)
            for seed in seeds {
                try Data(seed.bytes).write(to: directory.appendingPathComponent(seed.name))
            }
            print("\(target.name): wrote \(seeds.count) seeds to \(folder)")
            fflush(nil)
            // `_exit`: the leak checker's exit hook would report Foundation's file-reading
            // caches, which are not ours and not a finding.
            _exit(0)
        } catch {
            FileHandle.standardError.write(Data("\(target.name): cannot write seeds to \(folder): \(error)\n".utf8))
            _exit(1)
        }
    }
}
