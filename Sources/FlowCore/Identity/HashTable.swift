/// Positions by a precomputed 64-bit hash (open addressing, one packed array); equal hashes
/// are told apart by the caller's comparison.
struct HashTable {
    private var hashes: [UInt64]
    private var positions: [Int32]  // position + 1; 0 is empty
    private let mask: Int

    init(_ keys: [UInt64], where include: (Int) -> Bool, same: (Int, Int) -> Bool) {
        var capacity = 16
        while capacity < keys.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        hashes = [UInt64](repeating: 0, count: capacity)
        positions = [Int32](repeating: 0, count: capacity)
        for p in keys.indices where include(p) {
            let h = keys[p]
            var i = Int(truncatingIfNeeded: h) & mask
            var duplicate = false
            while positions[i] != 0 {
                if hashes[i] == h && same(Int(positions[i]) - 1, p) { duplicate = true; break }
                i = (i + 1) & mask
            }
            if !duplicate {
                hashes[i] = h
                positions[i] = Int32(p + 1)
            }
        }
    }

    /// Every key, each at its own position (keys the caller knows to be distinct).
    init(_ keys: [UInt64]) {
        self.init(keys, where: { _ in true }, same: { _, _ in false })
    }

    /// The first position with hash `h`.
    func first(_ h: UInt64) -> Int? {
        var i = Int(truncatingIfNeeded: h) & mask
        while positions[i] != 0 {
            if hashes[i] == h { return Int(positions[i]) - 1 }
            i = (i + 1) & mask
        }
        return nil
    }
}
