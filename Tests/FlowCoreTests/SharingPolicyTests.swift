import Testing
@testable import FlowCore

/// The rest rule every sharing cache of the decode takes (`SharingPolicy`, counted by
/// `LookupWindow`): a window of lookups with too few hits rests the cache for a number of
/// values, then it looks again.
@Suite struct SharingPolicyTests {
    /// Runs `hits` through a window of 4 lookups needing 2 hits, resting 3 values; answers
    /// whether each value was looked up.
    static func looked(_ hits: [Bool]) -> [Bool] {
        var window = LookupWindow()
        return hits.map { hit in
            guard window.looks() else { return false }
            window.count(hit: hit, under: SharingPolicy(window: 4, minimumHits: 2, rest: 3))
            return true
        }
    }

    @Test func aWindowOfMissesRestsThenLooksAgain() {
        let misses = Array(repeating: false, count: 12)
        // Four lookups, three values rested, four lookups, three rested.
        #expect(Self.looked(misses) == [true, true, true, true, false, false, false, true, true, true, true, false])
    }

    @Test func aWindowWithEnoughHitsKeepsLooking() {
        let twoInFour = Array([[true, false, true, false], [false, false, true, true], [true, true, false, false]].joined())
        #expect(Self.looked(twoInFour) == Array(repeating: true, count: 12))
    }

    /// The lookup that closes a window counts in that window: one hit short at the last
    /// lookup rests, the hit that makes the minimum at the last lookup does not.
    @Test func theClosingLookupCountsInItsWindow() {
        #expect(Self.looked([true, false, false, false, true]) == [true, true, true, true, false])
        #expect(Self.looked([true, false, false, true, true]) == [true, true, true, true, true])
    }

    /// The string cache rests after a window of all-different strings: a string repeated
    /// during the rest gets a storage of its own, and after the rest the cache shares again.
    @Test func theStringCacheRestsAfterAWindowOfMisses() {
        var cache = StringCache()
        func cached(_ text: String) -> String { Array(text.utf8).withUnsafeBufferPointer { cache.string($0) } }
        func storage(_ s: String) -> UnsafeRawPointer? { s.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil }
        for i in 0..<SharingPolicy.strings.window { _ = cached("a label seen once, number \(i)") }
        let restingA = cached("Added to your list")
        let restingB = cached("Added to your list")
        #expect(restingA == restingB && storage(restingA) != storage(restingB))
        for i in 0..<(SharingPolicy.strings.rest - 2) { _ = cached("a label during the rest, number \(i)") }
        let a = cached("Added to your list")
        let b = cached("Added to your list")
        #expect(a == b && storage(a) == storage(b))
    }
}
