import Testing
@testable import FlowCore
@testable import FlowJSON
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

    /// Names whose NFC bytes are equal hash alike, however they are spelled and whether
    /// hashed from a string or from raw bytes: the hash runs on the normalised form
    /// whenever a name is not all ASCII.
    @Test func canonicallyEquivalentSpellingsHashAlike() {
        let pairs = [("K", "\u{212A}"), ("caf\u{E9}", "cafe\u{301}"), ("\u{C5}ngstr\u{F6}m", "\u{212B}ngstro\u{308}m"),
                     ("\u{D55C}\u{AE00}", "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}"), ("a;b", "a\u{37E}b")]
        for (a, b) in pairs {
            #expect(a == b, "the pair is meant to be equal as strings")
            #expect(IDHash.of(a) == IDHash.of(b), "\(a.unicodeScalars.map(\.value)) vs \(b.unicodeScalars.map(\.value))")
            let fromBytes = Array(b.utf8).withUnsafeBufferPointer { IDHash.of($0) }
            #expect(fromBytes == IDHash.of(a))
        }
    }

    /// Ids of every length hash differently from their neighbours (a reading that skipped
    /// a byte at some length would make these collide).
    @Test func everyByteOfEveryLengthReachesTheHash() {
        for length in 0...70 {
            let base = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            var hashes = Set([IDHash.of(String(decoding: base, as: UTF8.self))])
            for position in 0..<length {
                var changed = base
                changed[position] = UInt8(ascii: "b")
                hashes.insert(IDHash.of(String(decoding: changed, as: UTF8.self)))
            }
            #expect(hashes.count == length + 1, "length \(length)")
        }
    }

    /// Ordinary ids, even many of them, keep the quick hash.
    @Test func ordinaryIdsKeepTheQuickHash() {
        var names = NameSet()
        for i in 0..<200_000 { _ = names.insert("w\(i)@page.sections.\(i % 977)") }
        for i in stride(from: 0, to: 200_000, by: 3) { names.remove("w\(i)@page.sections.\(i % 977)") }
        #expect(!(names.isHardened as Bool))
        #expect(names.count == 200_000 - 66_667)
    }

    /// Forty-eight-byte ASCII names in classes whose ids hash alike, built against this
    /// process's seed, as someone who knew it could. The first lane of ``ByteHash`` takes
    /// bytes 0-15 and then 32-47, each block as `fold(first word ^ state, second word ^
    /// factor)`: a fifth word chosen as the state after the first block xor a class
    /// constant gives every member of the class the same state, and the other words are
    /// the same in every name, so the whole hash is.
    static func collidingClasses(_ classes: Int, of size: Int) -> [[String]] {
        let start = ByteHash.processSeed ^ ByteHash.starts.0, factor = ByteHash.factors.0
        func word(_ text: StaticString) -> [UInt8] { Array(UnsafeBufferPointer(start: text.utf8Start, count: 8)) }
        func value(_ bytes: [UInt8]) -> UInt64 { bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        let second = word("collides"), middle = word("in every") + word("name of "), last = word("a class.")
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var rng = SeededRandom(seed: 99)
        // A class per pattern of the state's high bits (the first `classes` seen): its
        // constant carries the same high bits, so the fifth word comes out ASCII.
        var classOfPattern: [UInt64: Int] = [:]
        var constants: [UInt64] = []
        var result = [[String]](repeating: [], count: classes)
        var candidate: UInt64 = 0
        while result.contains(where: { $0.count < size }) {
            // A distinct first word of eight letters per candidate.
            var first: [UInt8] = [], n = candidate
            for _ in 0..<8 { first.append(UInt8(ascii: "a") + UInt8(n % 26)); n /= 26 }
            candidate += 1
            let state = ByteHash.fold(value(first) ^ start, value(second) ^ factor)
            let pattern = state & highBits
            if classOfPattern[pattern] == nil, constants.count < classes {
                classOfPattern[pattern] = constants.count
                constants.append(rng.next() & ~highBits | pattern)
            }
            guard let k = classOfPattern[pattern], result[k].count < size else { continue }
            let fifth = state ^ constants[k]
            let bytes = first + second + middle + (0..<8).map { UInt8(truncatingIfNeeded: fifth >> (8 * $0)) } + last
            result[k].append(String(decoding: bytes, as: UTF8.self))
        }
        return result
    }

    /// One large class of colliding names, arriving after enough ordinary ones that the
    /// running account alone would let it in: the walk limit makes the set give up the
    /// quick hash, and it still answers as `Set<String>` does.
    @Test func aFloodOfCollidingNamesHardensTheSet() {
        let flood = Self.collidingClasses(1, of: NameSet.longestWalk + 100)[0]
        #expect(Set(flood.map { IDHash.of($0) }).count == 1, "the crafted names collide")
        #expect(flood.allSatisfy { $0.utf8.count == 48 && $0.utf8.allSatisfy { $0 < 0x80 } })
        #expect(Set(flood).count == flood.count)
        var names = NameSet()
        let ordinary = 20_000
        for i in 0..<ordinary { _ = names.insert("w\(i)") }
        #expect(!(names.isHardened as Bool))
        #expect(ordinary * NameSet.stepsPerOperation > flood.count * flood.count / 2, "credit enough for the flood's walks")
        for name in flood { let inserted = names.insert(name); #expect(inserted) }
        #expect(names.isHardened as Bool)
        #expect(names.count == ordinary + flood.count)
        for name in flood { #expect(names.contains(name)) }
        for i in 0..<ordinary { #expect(names.contains("w\(i)")) }
        for name in flood.prefix(50) { let removed = names.remove(name); #expect(removed) }
        for (i, name) in flood.enumerated() { #expect(names.contains(name) == (i >= 50)) }
    }

    /// Many small classes, none long enough to trip the one-walk limit, still cost more
    /// steps than an honest table takes: the set hardens on its running account.
    @Test func manySmallCollidingClassesHardenTheSet() {
        let classes = Self.collidingClasses(16, of: 300)
        var names = NameSet()
        // Room enough that the classes land apart and no run grows past one class.
        names.reserveCapacity(1 << 16)
        var longest = 0
        for members in classes {
            for name in members { _ = names.insert(name) }
            longest = max(longest, members.count)
        }
        #expect(longest < NameSet.longestWalk)
        #expect(names.isHardened as Bool)
        #expect(names.count == 16 * 300)
        for members in classes { for name in members { #expect(names.contains(name)) } }
    }
}
