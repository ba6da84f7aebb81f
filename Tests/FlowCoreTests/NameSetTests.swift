import Testing
@testable import FlowCore
import FlowWorkloads

/// The ledger's set of names answers exactly as `Set<String>` does, through growth,
/// removals that pull later members back into their runs, and names that are equal as
/// strings without being equal as bytes.
@Suite struct NameSetTests {
    /// Random inserts, removals and lookups over a small alphabet of names (so runs form
    /// and removals hit the middle of them), checked against `Set<String>` at every step.
    @Test func answersAsSetDoesThroughRandomOperations() {
        for seed in 1...8 as ClosedRange<UInt64> {
            var rng = SeededRandom(seed: seed)
            var names = NameSet()
            var reference = Set<String>()
            let pool = (0..<300).map { "w\($0)@page.sections.\($0 % 7)" }
            for step in 0..<6_000 {
                let name = pool[Int(rng.next() % UInt64(pool.count))]
                switch rng.next() % 4 {
                case 0, 1:
                    let inserted = names.insert(name)
                    #expect(inserted == reference.insert(name).inserted, "seed \(seed) step \(step): insert \(name)")
                case 2:
                    let removed = names.remove(name)
                    #expect(removed == (reference.remove(name) != nil), "seed \(seed) step \(step): remove \(name)")
                default:
                    #expect(names.contains(name) == reference.contains(name), "seed \(seed) step \(step): contains \(name)")
                }
                #expect(names.count == reference.count)
            }
            // Every name is where a lookup finds it, and nothing else is.
            for name in pool { #expect(names.contains(name) == reference.contains(name), "seed \(seed): \(name) at the end") }
        }
    }

    @Test func emptyingAndRefillingAGrownTableFindsEveryName() {
        var names = NameSet()
        names.reserveCapacity(10)
        let all = (0..<5_000).map { "id-\($0)" }
        for n in all { let inserted = names.insert(n); #expect(inserted) }
        for n in all { let inserted = names.insert(n); #expect(!inserted, "\(n) is already there") }
        for n in all.reversed() where n.hasSuffix("7") || n.hasSuffix("2") { let removed = names.remove(n); #expect(removed) }
        for n in all { #expect(names.contains(n) == !(n.hasSuffix("7") || n.hasSuffix("2")), "\(n)") }
        for n in all { _ = names.remove(n) }
        #expect(names.count == 0)
        for n in all { #expect(!names.contains(n)) }
        for n in all.prefix(100) { let inserted = names.insert(n); #expect(inserted) }
        #expect(names.count == 100)
    }

    /// Canonically equivalent spellings are one name, as they are in `Set<String>`.
    @Test func canonicallyEquivalentNamesAreOneName() {
        var names = NameSet()
        let answers = [names.insert("caf\u{E9}"), names.insert("cafe\u{301}"), names.insert("K"), names.insert("\u{212A}")]
        #expect(answers == [true, false, true, false], "the Kelvin sign is K; é is é however it is spelled")
        #expect(names.contains("\u{212A}") && names.contains("cafe\u{301}"))
        let removed = names.remove("\u{212A}")
        #expect(removed)
        #expect(!names.contains("K"))
        #expect(names.count == 1)
    }
}
