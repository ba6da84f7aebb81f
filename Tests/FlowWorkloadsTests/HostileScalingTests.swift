import Foundation
import Testing
import FlowWorkloads

/// the page contract, "Limits and hostile input": no input, whatever its shape, costs more than linear time. Each shape of
/// ``HostileShape`` is run at two sizes, four times apart, and the exponent fitted to the
/// instruction counts must stay near 1 (a square reads 2).
///
/// Counts, not clocks: callgrind counts the instructions of one call of the operation,
/// made by the measuring `flow-measure` tool this build put beside the test bundle (`flow-measure bench --worker
/// hostile.<shape>/<n> --instruction-calls 1`, which runs the operation between the
/// markers callgrind toggles on). The test bundle itself cannot run under valgrind here
/// (valgrind 3.19 stops with an internal error in it), hence the separate process.
@Suite struct HostileScalingTests {
    static let valgrind: String? = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first { FileManager.default.isExecutableFile(atPath: $0) }
    /// In CI a missing valgrind fails the test instead of skipping it.
    static let runs = valgrind != nil || ProcessInfo.processInfo.environment["CI"] != nil

    static let sizes = (small: 500, large: 2_000)
    /// Above this the cost grows faster than n log n would (which fits about 1.1 here).
    static let limit = 1.25

    static var flow: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("flow-measure")
    }

    static func instructions(_ shape: HostileShape, size n: Int) throws -> Int {
        let valgrind = try #require(valgrind, "valgrind is not installed (apt-get install valgrind)")
        #expect(FileManager.default.isExecutableFile(atPath: flow.path), "no flow-measure tool at \(flow.path): build it (swift build)")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(shape.rawValue)-\(n)-\(UUID().uuidString).callgrind")
        defer { try? FileManager.default.removeItem(at: out) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: valgrind)
        process.arguments = ["--tool=callgrind", "--toggle-collect=flow_bench_measured", "--callgrind-out-file=\(out.path)",
                             flow.path, "bench", "--worker", "hostile.\(shape.rawValue)/\(n)", "--instruction-calls", "1"]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "callgrind run of hostile.\(shape.rawValue)/\(n) exited \(process.terminationStatus)")
        let text = try String(contentsOf: out, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("summary:") || $0.hasPrefix("totals:") })
        return try #require(Int(line.split(separator: " ")[1]), "unreadable callgrind summary: \(line)")
    }

    @Test(.enabled(if: runs, "valgrind is not installed: the scaling check needs its instruction counts"), arguments: HostileShape.allCases)
    func costGrowsLinearly(_ shape: HostileShape) throws {
        let small = try Self.instructions(shape, size: Self.sizes.small)
        let large = try Self.instructions(shape, size: Self.sizes.large)
        #expect(small > 0 && large > small, "\(shape.rawValue): \(small) then \(large) instructions")
        let exponent = log(Double(large) / Double(small)) / log(Double(Self.sizes.large) / Double(Self.sizes.small))
        #expect(exponent <= Self.limit,
                "\(shape.rawValue): \(small) instructions at n = \(Self.sizes.small), \(large) at n = \(Self.sizes.large): exponent \(String(format: "%.2f", exponent))")
    }
}
