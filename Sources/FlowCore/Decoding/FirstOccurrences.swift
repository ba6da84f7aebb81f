/// Which names of an object were seen already: the first-occurrence rule of SPEC §8 for
/// readers that walk every member (event names, the reference path's members).
///
/// A handful of names are compared in a short array (the common widget sends one or two
/// events and would pay for a hash table it never needs); past that, a `Set` takes over, so
/// an object of 100,000 members, distinct or repeated, costs linear time. Names compare as
/// strings do (canonical equivalence), like Foundation's keyed containers.
struct FirstOccurrences {
    private var few: [String] = []
    private var many: Set<String>?

    static let linearLimit = 8

    init(expected count: Int) {
        if count > Self.linearLimit { many = Set(minimumCapacity: count) }
    }

    /// Records `name`; false when it was seen before.
    mutating func insert(_ name: String) -> Bool {
        if many != nil { return many!.insert(name).inserted }
        if few.contains(name) { return false }
        few.append(name)
        return true
    }
}
