import CBenchSupport
import Foundation

/// `flow bench --profile NAME`: one benchmark's operation in a loop, in this process, so a
/// profiler can be attached (perf record -p, or callgrind with --toggle-collect on
/// `flow_bench_measured`).
public enum Profiler {
    public static func loop(name: String, seconds: Double, suite: [Benchmark] = Suites.all,
                            log: (String) -> Void) throws -> (iterations: Int, elapsed: Double) {
        guard let benchmark = suite.first(where: { $0.name == name }) ?? Suites.named(name) else {
            throw BenchError("no benchmark named \(name) (see flow bench --list)")
        }
        log("\(name): preparing \(benchmark.workload) in process \(getpid()) …")
        let operation = try benchmark.prepare(try LoadedWorkload(benchmark.workload))
        log("\(name): looping for \(seconds) s")
        let box = Unmanaged.passRetained(OperationBox { _ = operation.run() })
        defer { box.release() }
        let start = Date()
        var n = 0
        repeat {
            flow_run_measured({ context in Unmanaged<OperationBox>.fromOpaque(context!).takeUnretainedValue().body() }, box.toOpaque())
            n += 1
        } while Date().timeIntervalSince(start) < seconds
        return (n, Date().timeIntervalSince(start))
    }
}
