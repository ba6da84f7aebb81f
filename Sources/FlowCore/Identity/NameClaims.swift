/// One namespace of ids (a page's widgets, its sections, or one accordion's items) and the
/// claiming rule of SPEC §4.
///
/// The first to ask for a name gets it. A later one asking for a taken `x` gets `x#k`, the
/// smallest k >= 2 whose `x#k` is not taken. A generated name is never handed out again,
/// even after its widget is gone; an explicit name that is free again may be claimed again.
///
/// - Complexity: a claim is O(1) amortised plus the length of the name, even when every
///   widget of a page asks for the same id: the search for k resumes where the last one
///   for the same base stopped (names below it are taken or generated, so never free),
///   except for explicit `x#j` names freed later, which a small heap per base remembers.
public struct NameClaims: Sendable {
    /// Live names, plus every generated name ever handed out (retired ones stay taken).
    private var taken = NameSet()
    /// Names this namespace generated (`x#k`), live or retired.
    private var generated = NameSet()
    /// Per base name: the next k to try.
    private var nextSuffix: [String: Int] = [:]
    /// Per base name: explicit `base#j` names freed with j below `nextSuffix[base]`.
    private var freedBelow: [String: MinHeap] = [:]

    public init() {}

    /// Makes room for `n` names up front (the decoder knows about how many are coming).
    mutating func reserveCapacity(_ n: Int) { taken.reserveCapacity(n) }

    /// Whether `name` is currently unavailable (live, or generated at some point).
    public func isTaken(_ name: String) -> Bool { taken.contains(name) }

    /// Claims `requested`; returns the name granted and whether it differs.
    public mutating func claim(_ requested: String) -> (name: String, renamed: Bool) {
        if taken.insert(requested) { return (requested, false) }
        return claimRenamed(requested)
    }

    /// Claims `requested`, whose ``IDHash`` is `idHash` (a widget keeps its id's).
    mutating func claim(_ requested: String, idHash: UInt64) -> (name: String, renamed: Bool) {
        if taken.insert(requested, idHash: idHash) { return (requested, false) }
        return claimRenamed(requested)
    }

    /// The rest of a claim whose name is taken: the first free `requested#k`.
    private mutating func claimRenamed(_ requested: String) -> (name: String, renamed: Bool) {
        // Freed suffixes exist only after removals: skip hashing the base otherwise.
        if !freedBelow.isEmpty, let (name, hash) = claimFreedSuffix(of: requested) {
            return generate(name, hash)
        }
        // Each candidate is offered to `taken` directly: the first one it accepts is ours.
        // One lookup of the base (a full `String` hash) serves the read and the write.
        let entry = nextSuffix.index(forKey: requested)
        var k = entry.map { nextSuffix.values[$0] } ?? 2
        var candidate = Self.name(requested, k)
        var hash = IDHash.of(candidate)
        while !taken.insert(candidate, idHash: hash) {
            k += 1
            candidate = Self.name(requested, k)
            hash = IDHash.of(candidate)
        }
        if let entry { nextSuffix.values[entry] = k + 1 } else { nextSuffix[requested] = k + 1 }
        return generate(candidate, hash)
    }

    /// The smallest freed `requested#j` still free, claimed; nil when there is none.
    private mutating func claimFreedSuffix(of requested: String) -> (name: String, hash: UInt64)? {
        guard var heap = freedBelow[requested] else { return nil }
        defer { freedBelow[requested] = heap.isEmpty ? nil : heap }
        while let j = heap.popMin() {
            let candidate = Self.name(requested, j), hash = IDHash.of(candidate)
            if taken.insert(candidate, idHash: hash) { return (candidate, hash) }
        }
        return nil
    }

    /// Records `name` (already claimed in `taken`) as generated, never to be handed out again.
    private mutating func generate(_ name: String, _ hash: UInt64) -> (name: String, renamed: Bool) {
        _ = generated.insert(name, idHash: hash)
        return (name, true)
    }

    /// Gives `name` up (its widget left the page). Explicit names become free again;
    /// generated ones stay retired.
    public mutating func release(_ name: String) {
        guard !generated.contains(name), taken.remove(name) else { return }
        // An explicit `base#j` below the base's counter would otherwise never be found
        // again by the resumed search.
        if let (base, j) = Self.split(name), j < (nextSuffix[base] ?? 2) {
            freedBelow[base, default: MinHeap()].insert(j)
        }
    }

    static func name(_ base: String, _ k: Int) -> String {
        TextAssembly.string { text in
            text.append(base)
            text.append("#")
            text.append(k)
        }
    }

    /// `base#k` with k >= 2 written canonically, split at the last '#'.
    static func split(_ name: String) -> (String, Int)? {
        guard let hash = name.lastIndex(of: "#") else { return nil }
        let digits = name[name.index(after: hash)...]
        guard let first = digits.first, first != "0", digits.allSatisfy(\.isASCII), let k = Int(digits), k >= 2 else { return nil }
        return (String(name[..<hash]), k)
    }
}

/// A binary min-heap of positive integers.
struct MinHeap: Sendable {
    private var items: [Int] = []

    var isEmpty: Bool { items.isEmpty }

    mutating func insert(_ v: Int) {
        items.append(v)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if items[parent] <= items[i] { break }
            items.swapAt(parent, i)
            i = parent
        }
    }

    mutating func popMin() -> Int? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count && items[l] < items[m] { m = l }
                if r < items.count && items[r] < items[m] { m = r }
                if m == i { break }
                items.swapAt(i, m)
                i = m
            }
        }
        return first
    }
}
