/// The set of names behind ``NameClaims``: what `Set<String>` does for the ledger, minus
/// what the ledger never asks for.
///
/// Open addressing with linear probing, in a power-of-two table at most three quarters
/// full. Names compare as strings compare (canonical equivalence, so `"K"` and the Kelvin
/// sign are one name) and hash over the bytes of their NFC form, so equal names hash alike.
/// An insert hashes the name once and answers a `Bool`: no index, no member handed back.
///
/// Beside each slot, a byte holds seven bits of its name's hash (0: empty), and a probe
/// reads those first: it compares strings only when they agree, so walking a run does not
/// fetch the other names' text (scattered over the heap, a cache miss each).
///
/// Two hashes. A set starts with ``IDHash`` (the hash each widget keeps beside its id, so
/// a widget's claim hashes nothing), a few times cheaper than SipHash on a short id. It is
/// not built to resist collisions crafted by someone who knows the process's seed, so the
/// set watches its probes: when one insert walks more than ``longestWalk`` slots, or the
/// walks of all inserts and removals outrun ``stepsPerOperation`` each, it rebuilds itself
/// once under SipHash (`Hasher`, as `Set<String>` hashes) and stays there. Until then
/// every insert walks at most ``longestWalk`` slots and a lookup at most as far as any
/// insert did, so a set costs time linear in the operations on it whatever names it is
/// given.
struct NameSet: Sendable {
    private var slots: [String?]
    private var tags: [UInt8]
    private(set) var count = 0
    /// Whether the set has given up the quick hash for SipHash.
    private(set) var isHardened = false
    /// The farthest any member sits from its home slot (an upper bound after removals):
    /// a lookup that has walked that far without finding its name can stop.
    private var farthest = 0
    /// Probe steps still allowed before the quick hash is deemed under attack.
    private var credit = NameSet.initialCredit

    /// One insert walking farther than this means the quick hash is being collided.
    /// Random names at three quarters full rarely pass 200 even in a table of 2^18 slots.
    static let longestWalk = 512
    /// Steps each insert or removal adds to the credit; an honest table averages under 8.
    static let stepsPerOperation = 32
    static let initialCredit = 4_096

    /// Empty, with no table: most namespaces (one per accordion) stay small or empty, and
    /// the table is allocated by the first insert.
    init() {
        slots = []
        tags = []
    }

    /// The table size that holds `n` names at most three quarters full.
    private static func tableSize(for n: Int) -> Int {
        var size = 8
        while size / 4 * 3 < n { size *= 2 }
        return size
    }

    /// The hash the set files `name` under: its ``IDHash`` (`known`, when the caller has
    /// it), or SipHash once hardened.
    @inline(__always)
    private func hashOf(_ name: String, known: UInt64? = nil) -> Int {
        isHardened ? Self.sipHash(name) : Int(truncatingIfNeeded: known ?? IDHash.of(name))
    }

    private static func sipHash(_ name: String) -> Int {
        var hasher = Hasher()
        name.hash(into: &hasher)
        return hasher.finalize()
    }

    /// The high bits of `hash`, never 0 (the mark of an empty slot); the low bits pick the slot.
    @inline(__always)
    private static func tag(_ hash: Int) -> UInt8 { UInt8(truncatingIfNeeded: UInt(bitPattern: hash) >> 57) | 0x80 }

    /// The slot holding `name`, or else the empty slot that ends its run (`slot` is -1 when
    /// the walk gave up after `limit` steps: the name is not there). `steps` counts the
    /// slots walked past.
    @inline(__always)
    private func find(_ name: String, hash: Int, limit: Int = .max) -> (slot: Int, found: Bool, steps: Int) {
        if tags.isEmpty { return (0, false, 0) }
        let tag = Self.tag(hash)
        return tags.withUnsafeBufferPointer { tags in
            let mask = tags.count - 1
            var i = hash & mask
            var steps = 0
            while tags[i] != 0 {
                if tags[i] == tag && slots[i]! == name { return (i, true, steps) }
                if steps == limit { return (-1, false, steps) }
                i = (i + 1) & mask
                steps += 1
            }
            return (i, false, steps)
        }
    }

    /// Whether `name` is a member. A member sits at most `farthest` slots past its home,
    /// so the walk stops there.
    func contains(_ name: String) -> Bool { find(name, hash: hashOf(name), limit: farthest).found }

    /// Adds `name`; false when it was already there.
    mutating func insert(_ name: String) -> Bool { insert(name, known: nil) }

    /// Adds `name`, whose ``IDHash`` is `idHash`; false when it was already there.
    mutating func insert(_ name: String, idHash: UInt64) -> Bool {
        assert(idHash == IDHash.of(name), "the hash handed in is not the name's")
        return insert(name, known: idHash)
    }

    @inline(__always)
    private mutating func insert(_ name: String, known: UInt64?) -> Bool {
        var hash = hashOf(name, known: known)
        var (i, found, steps) = find(name, hash: hash)
        if found { return false }
        let mustHarden = !isHardened && spend(steps)
        if mustHarden || count >= slots.count / 4 * 3 {
            if mustHarden { harden() }
            if count >= slots.count / 4 * 3 { rehash(to: max(8, slots.count * 2)) }
            // Either may have changed the hash (growing can harden too).
            hash = hashOf(name, known: known)
            (i, _, steps) = find(name, hash: hash)
        }
        slots[i] = name
        tags[i] = Self.tag(hash)
        farthest = max(farthest, steps)
        count += 1
        return true
    }

    /// Removes `name`; false when it was not there.
    @discardableResult
    mutating func remove(_ name: String) -> Bool {
        var (i, found, _) = find(name, hash: hashOf(name), limit: farthest)
        guard found else { return false }
        // Backward-shift deletion (no tombstones): a later member of the run whose home
        // slot is not between the gap and itself moves into the gap, so every member
        // stays reachable from its home and none moves farther from it (so `farthest`
        // still bounds every member's distance).
        let mask = slots.count - 1
        var j = i
        var steps = 0
        while true {
            j = (j + 1) & mask
            guard let held = slots[j] else { break }
            steps += 1
            let home = hashOf(held) & mask
            let staysPut = i <= j ? (i < home && home <= j) : (i < home || home <= j)
            if !staysPut {
                slots[i] = held
                tags[i] = tags[j]
                i = j
            }
        }
        slots[i] = nil
        tags[i] = 0
        count -= 1
        if !isHardened && spend(steps) { harden() }
        return true
    }

    /// Charges a walk of `steps` slots to the credit; true when the quick hash should go.
    @inline(__always)
    private mutating func spend(_ steps: Int) -> Bool {
        credit += Self.stepsPerOperation - steps
        return steps > Self.longestWalk || credit < 0
    }

    /// Rebuilds the table under SipHash, for good.
    private mutating func harden() {
        isHardened = true
        rehash(to: slots.count)
    }

    /// Makes room for `n` names without growing.
    mutating func reserveCapacity(_ n: Int) {
        let size = Self.tableSize(for: n)
        if size > slots.count { rehash(to: size) }
    }

    /// `size` empty slots. Written out rather than `Array(repeating: nil, count:)`, which
    /// copies its argument into each slot with a retain call apiece (of nothing).
    private static func emptySlots(_ size: Int) -> [String?] {
        [String?](unsafeUninitializedCapacity: size) { slots, initialized in
            for i in 0..<size { (slots.baseAddress! + i).initialize(to: nil) }
            initialized = size
        }
    }

    private mutating func rehash(to size: Int) {
        let old = slots
        slots = Self.emptySlots(size)
        tags = Array(repeating: 0, count: size)
        farthest = 0
        let mask = size - 1
        for case let name? in old {
            let hash = hashOf(name)
            var i = hash & mask
            var steps = 0
            while tags[i] != 0 { i = (i + 1) & mask; steps += 1 }
            slots[i] = name
            tags[i] = Self.tag(hash)
            farthest = max(farthest, steps)
        }
        // Collisions the quick hash let in do not go away in a bigger table.
        if !isHardened && farthest > Self.longestWalk { harden() }
    }
}
