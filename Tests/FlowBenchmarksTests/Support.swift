import Foundation
@testable import FlowBenchmarks

/// A scratch folder of its own per call, removed by the caller's `defer`.
func scratchDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-benchmarks-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

let testMachine = HistoryRun.Machine(cpu: "Test CPU @ 2.0GHz", cores: 2, os: "Test OS, Linux 6.0")

/// Figures of a small quick suite: two gated benchmarks and a competitor.
let baseFigures: [(name: String, gates: Bool, allocations: Double, instructions: Double?, wall: Double)] = [
    ("page.decode.fast/1k", true, 6181, 13_110_867, 1_650_000),
    ("page.mutate.replace/1k", true, 15.344, 24_910, 3_585),
    ("json.foundation/twitter", false, 2_000, nil, 4_000_000),
]

/// Run `index` of a history: the base figures with `adjust` applied (name, metric, value).
func run(_ index: Int, label: String? = nil, toolchain: String = "Swift version 6.3.1",
         adjust: (String, Trend.Metric, Double) -> Double = { $2 }) -> HistoryRun {
    HistoryRun(label: label ?? "c\(index)", date: String(format: "2026-11-%02dT12:00:00Z", index + 1), machine: testMachine,
               toolchain: toolchain, quick: true,
               benchmarks: baseFigures.map { f in
                   HistoryRun.Entry(name: f.name, gates: f.gates, allocations: adjust(f.name, .allocations, f.allocations),
                                    instructions: f.instructions.map { adjust(f.name, .instructions, $0) },
                                    wallMedian: adjust(f.name, .wall, f.wall))
               })
}

/// Clean reruns: counts within a few hundredths of a percent, wall time within ±30%, as
/// measured on a shared two-core machine.
func cleanHistory(_ count: Int) -> [HistoryRun] {
    (0..<count).map { i in
        run(i) { _, metric, value in
            switch metric {
            case .instructions: value * (1 + (i % 2 == 0 ? 0.0001 : -0.0001))
            case .allocations: value * (1 + (i % 3 == 0 ? 0.0006 : 0))
            case .wall: value * (1 + [0.0, 0.3, -0.2, 0.25, -0.3][i % 5])
            }
        }
    }
}

func historyText(_ runs: [HistoryRun]) -> String {
    runs.map { String(decoding: $0.jsonLine(), as: UTF8.self) + "\n" }.joined()
}

/// The `flow` executable of this build, beside the test bundle.
func flowExecutable() throws -> URL {
    let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let flow = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("flow")
    guard FileManager.default.isExecutableFile(atPath: flow.path) else {
        throw BenchError("expected the flow executable beside the test bundle (\(exe)), found none")
    }
    return flow
}

/// Runs `flow` with arguments; its exit status, stdout and stderr.
func runFlow(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = try flowExecutable()
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}
