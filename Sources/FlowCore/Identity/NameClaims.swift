/// One namespace of ids (a page's widgets, its sections, or one accordion's items) and the
/// claiming rule of the page contract, "Identity and renaming".
///
/// The first to ask for a name gets it. A later one asking for a taken `x` gets `x#k`, the
/// smallest k >= 2 such that `x#k` was never held in the life of the namespace, explicit or
/// generated: state a renderer keyed by a removed widget's id never lands on another
/// widget. A generated name is never handed out again, even after its widget is gone; an
/// explicit name that is free again may be claimed again by one asking for it by name.
///
/// - Complexity: a claim is O(1) amortised plus the length of the name, even when every
///   widget of a page asks for the same id: the search for k resumes where the last one for
///   the same base stopped. That is exact, not a shortcut: every `x#j` below the resume
///   point was held when the search passed it, and what was held stays held.
package struct NameClaims: Sendable {
    /// Live names, plus every generated name ever handed out (retired ones stay taken).
    private var taken = NameSet()
    /// Names this namespace generated (`x#k`), live or retired.
    private var generated = NameSet()
    /// Explicit names that were held and given up: free to be asked for by name, never to
    /// be handed out by a rename. Empty until something is removed, so decoding pays one
    /// empty-table check per rename.
    private var released = NameSet()
    /// Per base name: the next k to try.
    private var nextSuffix: [String: Int] = [:]

    package init() {}

    /// Makes room for `n` names up front (the decoder knows about how many are coming).
    mutating func reserveCapacity(_ n: Int) { taken.reserveCapacity(n) }

    /// Whether `name` is currently unavailable (live, or generated at some point).
    package func isTaken(_ name: String) -> Bool { taken.contains(name) }

    /// Whether `name` was ever held in this namespace (live now or given up since).
    package func wasHeld(_ name: String) -> Bool { taken.contains(name) || released.contains(name) }

    /// Claims `requested`; returns the name granted and whether it differs.
    package mutating func claim(_ requested: String) -> (name: String, renamed: Bool) {
        if taken.insert(requested) { return (requested, false) }
        return claimRenamed(requested)
    }

    /// Claims `requested`, whose ``IDHash`` is `idHash` (a widget keeps its id's).
    mutating func claim(_ requested: String, idHash: UInt64) -> (name: String, renamed: Bool) {
        if taken.insert(requested, idHash: idHash) { return (requested, false) }
        return claimRenamed(requested)
    }

    /// The rest of a claim whose name is taken: the first never-held `requested#k`.
    private mutating func claimRenamed(_ requested: String) -> (name: String, renamed: Bool) {
        // Each candidate is offered to `taken` directly: the first one it accepts (and that
        // was not held and given up) is ours. One lookup of the base (a full `String` hash)
        // serves the read and the write.
        let entry = nextSuffix.index(forKey: requested)
        var k = entry.map { nextSuffix.values[$0] } ?? 2
        var candidate = Self.name(requested, k)
        var hash = IDHash.of(candidate)
        while (released.count > 0 && released.contains(candidate)) || !taken.insert(candidate, idHash: hash) {
            k += 1
            candidate = Self.name(requested, k)
            hash = IDHash.of(candidate)
        }
        if let entry { nextSuffix.values[entry] = k + 1 } else { nextSuffix[requested] = k + 1 }
        _ = generated.insert(candidate, idHash: hash)
        return (candidate, true)
    }

    /// Gives `name` up (its widget left the page). Explicit names become free again for one
    /// asking for them by name; generated ones stay retired.
    package mutating func release(_ name: String) {
        guard !generated.contains(name), taken.remove(name) else { return }
        _ = released.insert(name)
    }

    static func name(_ base: String, _ k: Int) -> String {
        TextAssembly.string { text in
            text.append(base)
            text.append("#")
            text.append(k)
        }
    }
}
