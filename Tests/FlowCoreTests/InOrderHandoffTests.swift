import Dispatch
import Foundation
import Testing
@testable import FlowCore

@Suite struct InOrderHandoffTests {
    /// Items finish on many threads in a scrambled order; every step runs once, in index
    /// order, and no two steps overlap.
    @Test func stepsRunOnceInOrderWithoutOverlap() {
        for round in 0..<20 {
            let count = 1 + round * 7
            let handoff = InOrderHandoff(count: count)
            final class Log: @unchecked Sendable {
                var steps: [Int] = []
                var running = 0
                var overlapped = false
            }
            let log = Log()
            // A fixed scramble of the finishing order, different each round.
            let order = (0..<count).sorted { ($0 * 7919 + round) % 101 < ($1 * 7919 + round) % 101 }
            DispatchQueue.concurrentPerform(iterations: count) { n in
                let k = order[n]
                if k % 3 == 0 { usleep(UInt32(50 * (k % 5))) }
                handoff.finished(k) { item in
                    log.running += 1
                    if log.running > 1 { log.overlapped = true }
                    log.steps.append(item)
                    log.running -= 1
                }
            }
            #expect(log.steps == Array(0..<count), "round \(round)")
            #expect(!log.overlapped)
            #expect(handoff.isComplete)
        }
    }

    @Test func nothingRunsUntilTheFirstItemIsReady() {
        let handoff = InOrderHandoff(count: 3)
        var steps: [Int] = []
        handoff.finished(2) { steps.append($0) }
        handoff.finished(1) { steps.append($0) }
        #expect(steps.isEmpty)
        #expect(!handoff.isComplete)
        handoff.finished(0) { steps.append($0) }
        #expect(steps == [0, 1, 2])
        #expect(handoff.isComplete)
    }
}
