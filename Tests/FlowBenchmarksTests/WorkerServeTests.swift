import Foundation
import Testing
@testable import FlowBenchmarks

/// `flow bench --worker NAME --serve`, the worker side of `--against`'s slices: it warms up,
/// says ready, answers each slice with its median and count, and says when an operation that
/// allows only so many calls has had them.
@Suite struct WorkerServeTests {
    /// Serves `lines` to a worker of one benchmark whose operation spins `spin` seconds per
    /// call and allows `maxCalls`; returns its replies.
    static func serve(_ lines: [String], spin: Double = 0, maxCalls: Int? = nil, planted: Double? = nil) throws -> [String] {
        let benchmark = Benchmark("serve.test/1", "spins", workload: .page(widgets: 1)) { _ in
            Operation(maxCalls: maxCalls) {
                let until = Worker.now() + UInt64(spin * 1e9)
                while Worker.now() < until {}
                return nil
            }
        }
        var settings = Worker.Settings()
        settings.plantedSlowdown = planted
        var input = lines[...]
        var replies: [String] = []
        try Worker.serve(name: benchmark.name, settings: settings, suite: [benchmark],
                         reply: { replies.append($0) }, nextLine: { input.popFirst() })
        return replies
    }

    @Test func answersEachSliceWithItsMedianAndCount() throws {
        let replies = try Self.serve(["slice 0", "slice 0.002", "slice 0"], spin: 0.0002)
        #expect(replies.first == "ready")
        #expect(replies.count == 4)
        let slices = replies.dropFirst().map { $0.split(separator: " ").compactMap { UInt64($0) } }
        #expect(slices.allSatisfy { $0.count == 2 })
        // A slice of no time still makes one call; every call spins its 0.2 ms at least.
        #expect(slices[0][1] == 1 && slices[2][1] == 1)
        #expect(slices[1][1] >= 1)
        #expect(slices.allSatisfy { $0[0] >= 200_000 })
    }

    @Test func aPlantedSlowdownSpinsItsShareOfEachCall() throws {
        let replies = try Self.serve(["slice 0"], spin: 0.0002, planted: 1.0)
        let median = try #require(replies.last.flatMap { $0.split(separator: " ").first }.flatMap { UInt64($0) })
        #expect(median >= 400_000, "a 100% slowdown of a 0.2 ms call takes 0.4 ms at least")
    }

    /// Eight calls allowed: one goes to the warm-up (a tenth, at least one), seven to the
    /// slices, and then it says so.
    @Test func anExhaustibleOperationSaysWhenItHasHadItsCalls() throws {
        let replies = try Self.serve(["slice 0", "slice 10", "slice 0"], maxCalls: 8)
        #expect(replies.count == 4)
        #expect(replies[1].hasSuffix(" 1"))
        #expect(replies[2].hasSuffix(" 6"))
        #expect(replies[3] == "exhausted")
    }

    @Test func aLineItDoesNotKnowIsAnError() {
        #expect(throws: BenchError.self) { try Self.serve(["measure 1"]) }
        #expect(throws: BenchError.self) { try Self.serve(["slice -1"]) }
    }
}
