/// The set of names behind ``NameClaims``: what `Set<String>` does for the ledger, minus
/// what the ledger never asks for.
///
/// Open addressing with linear probing, in a power-of-two table at most three quarters
/// full. Names hash as `Set<String>` hashes them (`Hasher`: SipHash under the process's
/// random seed, so ids crafted to collide cannot aim at one slot) and compare as strings
/// compare (canonical equivalence, so `"K"` and the Kelvin sign are one name, as before).
/// An insert hashes the name once and answers a `Bool`: no index, no member handed back.
///
/// Beside each slot, a byte holds seven bits of its name's hash (0: empty), and a probe
/// reads those first: it compares strings only when they agree, so walking a run does not
/// fetch the other names' text (scattered over the heap, a cache miss each). A slot is 16
/// bytes, as in `Set`, plus that byte.
struct NameSet: Sendable {
    private var slots: [String?]
    private var tags: [UInt8]
    private(set) var count = 0

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

    @inline(__always)
    private static func hash(_ name: String) -> Int {
        var hasher = Hasher()
        name.hash(into: &hasher)
        return hasher.finalize()
    }

    /// The high bits of `hash`, never 0 (the mark of an empty slot); the low bits pick the slot.
    @inline(__always)
    private static func tag(_ hash: Int) -> UInt8 { UInt8(truncatingIfNeeded: UInt(bitPattern: hash) >> 57) | 0x80 }

    /// The slot holding `name`, or else the empty slot that ends its run.
    @inline(__always)
    private func find(_ name: String, hash: Int) -> (slot: Int, found: Bool) {
        if tags.isEmpty { return (0, false) }
        let tag = Self.tag(hash)
        return tags.withUnsafeBufferPointer { tags in
            let mask = tags.count - 1
            var i = hash & mask
            while tags[i] != 0 {
                if tags[i] == tag && slots[i]! == name { return (i, true) }
                i = (i + 1) & mask
            }
            return (i, false)
        }
    }

    func contains(_ name: String) -> Bool { find(name, hash: Self.hash(name)).found }

    /// Adds `name`; false when it was already there.
    mutating func insert(_ name: String) -> Bool {
        let hash = Self.hash(name)
        var (i, found) = find(name, hash: hash)
        if found { return false }
        if count >= slots.count / 4 * 3 {
            rehash(to: max(8, slots.count * 2))
            i = find(name, hash: hash).slot
        }
        slots[i] = name
        tags[i] = Self.tag(hash)
        count += 1
        return true
    }

    /// Removes `name`; false when it was not there.
    @discardableResult
    mutating func remove(_ name: String) -> Bool {
        var (i, found) = find(name, hash: Self.hash(name))
        guard found else { return false }
        // Backward-shift deletion (no tombstones): a later member of the run whose home
        // slot is not between the gap and itself moves into the gap, so every member
        // stays reachable from its home.
        let mask = slots.count - 1
        var j = i
        while true {
            j = (j + 1) & mask
            guard let held = slots[j] else { break }
            let home = Self.hash(held) & mask
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
        return true
    }

    /// Makes room for `n` names without growing.
    mutating func reserveCapacity(_ n: Int) {
        let size = Self.tableSize(for: n)
        if size > slots.count { rehash(to: size) }
    }

    private mutating func rehash(to size: Int) {
        let old = slots
        slots = Array(repeating: nil, count: size)
        tags = Array(repeating: 0, count: size)
        let mask = size - 1
        for case let name? in old {
            let hash = Self.hash(name)
            var i = hash & mask
            while tags[i] != 0 { i = (i + 1) & mask }
            slots[i] = name
            tags[i] = Self.tag(hash)
        }
    }
}
