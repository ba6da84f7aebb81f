/// What changed between two versions of a page, by stable id: what a collection view needs
/// to animate a refresh instead of rebuilding it (<doc:PageContract#Pagination-and-refresh>).
///
/// Sections are compared by id: inserted, removed, moved, updated (layout or header widget
/// changed). Widgets of section bodies are compared by id across the whole page: inserted,
/// removed, moved (to another section, or out of order among the widgets that stayed),
/// updated (same id, anything about the widget different, by fingerprint). Nav and the page
/// header and footer bars are chrome: each is reported changed or not.
///
/// Moves are minimal within a section: the widgets that stay are the longest run in
/// increasing old order, everything else that was in the section moved.
///
/// - Complexity: O(w + s) hashing and matching, plus O(m log m) per section of m common
///   widgets for the moves (patience sorting): linear for pages of realistic sections.
public struct PageDiff: Sendable, Equatable {
    /// A section at an index.
    public struct SectionChange: Sendable, Hashable {
        public var id: String
        public var index: Int
    }

    public struct SectionMove: Sendable, Hashable {
        public var id: String
        public var from: Int
        public var to: Int
    }

    /// A widget at an index of a section's body (sections named by id).
    public struct Place: Sendable, Hashable {
        public var section: String
        public var index: Int
    }

    public struct WidgetChange: Sendable, Hashable {
        public var id: String
        public var place: Place
    }

    public struct WidgetMove: Sendable, Hashable {
        public var id: String
        public var from: Place
        public var to: Place
    }

    public struct Changes<Change: Hashable & Sendable, Move: Hashable & Sendable>: Sendable, Equatable {
        /// Positions in the new page.
        public var inserted: [Change] = []
        /// Positions in the old page.
        public var removed: [Change] = []
        public var moved: [Move] = []
        /// Positions in the new page.
        public var updated: [Change] = []

        public var isEmpty: Bool { inserted.isEmpty && removed.isEmpty && moved.isEmpty && updated.isEmpty }
    }

    public var sections = Changes<SectionChange, SectionMove>()
    public var widgets = Changes<WidgetChange, WidgetMove>()
    public var navChanged = false
    public var headerChanged = false
    public var footerChanged = false

    public var isEmpty: Bool { sections.isEmpty && widgets.isEmpty && !navChanged && !headerChanged && !footerChanged }

    public init(old: Page, new: Page) {
        navChanged = old.nav != new.nav
        headerChanged = Self.barChanged(old.header, new.header)
        footerChanged = Self.barChanged(old.footer, new.footer)
        diffSections(old, new)
        diffWidgets(old, new)
    }

    static func barChanged(_ a: PageBar?, _ b: PageBar?) -> Bool {
        guard let a, let b else { return (a == nil) != (b == nil) }
        return a.sticky != b.sticky || a.widgets.count != b.widgets.count
            || zip(a.widgets, b.widgets).contains { $0.id != $1.id || $0.fingerprint != $1.fingerprint }
    }

    private mutating func diffSections(_ old: Page, _ new: Page) {
        let oldIDs = old.sections.map(\.id), newIDs = new.sections.map(\.id)
        let oldIndex = IDTable(oldIDs)
        let newIndex = IDTable(newIDs)
        for (i, id) in oldIDs.enumerated() where newIndex[id] == nil {
            sections.removed.append(SectionChange(id: id, index: i))
        }
        var common: [(new: Int, old: Int)] = []
        old.sections.withUnsafeBufferPointer { before in
            new.sections.withUnsafeBufferPointer { after in
                for j in after.indices {
                    guard let i = oldIndex[newIDs[j]] else {
                        sections.inserted.append(SectionChange(id: newIDs[j], index: j))
                        continue
                    }
                    common.append((j, i))
                    if before[i].layout != after[j].layout || Self.headerChanged(before[i].header, after[j].header) {
                        sections.updated.append(SectionChange(id: newIDs[j], index: j))
                    }
                }
            }
        }
        let stay = Self.increasingRun(common.map(\.old))
        for (k, pair) in common.enumerated() where !stay[k] {
            sections.moved.append(SectionMove(id: newIDs[pair.new], from: pair.old, to: pair.new))
        }
    }

    static func headerChanged(_ a: Widget?, _ b: Widget?) -> Bool {
        switch (a, b) {
        case (nil, nil): false
        case (let a?, let b?): a.id != b.id || (a.storedFingerprint ?? a.fingerprint) != (b.storedFingerprint ?? b.fingerprint)
        default: true
        }
    }

    /// The body widgets of a page as flat arrays (id hash, fingerprint, where each is),
    /// read without copying a widget or an id: the diff touches every widget of two pages,
    /// and both hashes sit beside the id in the widget, one cache line per widget. Ids are
    /// fetched only for what is reported.
    struct FlatWidgets {
        var hashes: [UInt64] = []
        var fingerprints: [UInt64] = []
        var section: [Int32] = []
        var index: [Int32] = []
        /// Where each section's widgets start (one past the end last).
        var sectionStart: [Int] = [0]

        init(_ page: Page) {
            var count = 0
            for s in page.sections.indices { count += page.sections[s].widgets.count }
            hashes.reserveCapacity(count)
            fingerprints.reserveCapacity(count)
            section.reserveCapacity(count)
            index.reserveCapacity(count)
            sectionStart.reserveCapacity(page.sections.count + 1)
            for s in page.sections.indices {
                page.sections[s].widgets.withUnsafeBufferPointer { widgets in
                    for i in widgets.indices {
                        hashes.append(widgets[i].idHash)
                        // The stored field when the decoder set it: reading the computed
                        // property would copy the whole widget.
                        if let f = widgets[i].storedFingerprint { fingerprints.append(f) } else { fingerprints.append(widgets[i].fingerprint) }
                        section.append(Int32(s))
                        index.append(Int32(i))
                    }
                }
                sectionStart.append(hashes.count)
            }
        }
    }

    /// Matches every body widget of `new` to `old` by id in two passes. First a walk of
    /// each section kept under the same id, old and new side by side: a widget found where
    /// it was (or one place on, past a removal) matches without a table, which is most of
    /// them in a refresh. Then a hash table over the old widgets still unmatched answers the
    /// rest (insertions, moves). Finally, per section, moves within it are the widgets
    /// outside the longest run in increasing old order.
    ///
    /// Widgets match by the 64-bit hash of their id's bytes (kept in each widget): a
    /// collision between an old and a new id, about n^2 / 2^65 for n widgets, would pair
    /// two different widgets; within one page, colliding ids are told apart by their text.
    private mutating func diffWidgets(_ old: Page, _ new: Page) {
        let before = FlatWidgets(old)
        let after = FlatWidgets(new)
        let oldSectionIndex = IDTable(old.sections.map(\.id))
        func oldID(_ k: Int) -> String { old.sections[Int(before.section[k])].widgets[Int(before.index[k])].id }
        func newID(_ n: Int) -> String { new.sections[Int(after.section[n])].widgets[Int(after.index[n])].id }

        var matched = [Bool](repeating: false, count: before.hashes.count)
        var match = [Int32](repeating: -1, count: after.hashes.count)
        var sectionOfNew = [Int](repeating: -1, count: new.sections.count)
        var unmatched: [Int] = []
        for s in new.sections.indices {
            let range = after.sectionStart[s]..<after.sectionStart[s + 1]
            guard let o = oldSectionIndex[new.sections[s].id] else {
                unmatched.append(contentsOf: range)
                continue
            }
            sectionOfNew[s] = o
            var cursor = before.sectionStart[o]
            let end = before.sectionStart[o + 1]
            for n in range {
                let h = after.hashes[n]
                if cursor < end && before.hashes[cursor] == h {
                    match[n] = Int32(cursor)
                    matched[cursor] = true
                    cursor += 1
                } else if cursor + 1 < end && before.hashes[cursor + 1] == h {
                    match[n] = Int32(cursor + 1)
                    matched[cursor + 1] = true
                    cursor += 2
                } else {
                    unmatched.append(n)
                }
            }
        }
        if !unmatched.isEmpty {
            let pool = HashTable(before.hashes, where: { !matched[$0] }, same: { oldID($0) == oldID($1) })
            for n in unmatched {
                if let k = pool.first(after.hashes[n]) {
                    match[n] = Int32(k)
                    matched[k] = true
                }
            }
        }

        for s in new.sections.indices {
            let sectionID = new.sections[s].id
            let range = after.sectionStart[s]..<after.sectionStart[s + 1]
            var stayed: [(new: Int, old: Int)] = []
            stayed.reserveCapacity(range.count)
            for n in range {
                let j = n - range.lowerBound
                let k = Int(match[n])
                guard k >= 0 else {
                    widgets.inserted.append(WidgetChange(id: newID(n), place: Place(section: sectionID, index: j)))
                    continue
                }
                if before.fingerprints[k] != after.fingerprints[n] {
                    widgets.updated.append(WidgetChange(id: newID(n), place: Place(section: sectionID, index: j)))
                }
                if Int(before.section[k]) == sectionOfNew[s] {
                    stayed.append((j, Int(before.index[k])))
                } else {
                    let from = Place(section: old.sections[Int(before.section[k])].id, index: Int(before.index[k]))
                    widgets.moved.append(WidgetMove(id: newID(n), from: from, to: Place(section: sectionID, index: j)))
                }
            }
            let stay = Self.increasingRun(stayed.map(\.old))
            for (k, pair) in stayed.enumerated() where !stay[k] {
                widgets.moved.append(WidgetMove(id: newID(range.lowerBound + pair.new), from: Place(section: sectionID, index: pair.old),
                                                to: Place(section: sectionID, index: pair.new)))
            }
        }
        for k in matched.indices where !matched[k] {
            let place = Place(section: old.sections[Int(before.section[k])].id, index: Int(before.index[k]))
            widgets.removed.append(WidgetChange(id: oldID(k), place: place))
        }
    }

    /// The id lists of a page: its sections in order, each with its body widgets in order.
    /// Package access: what the merge-diff oracle (FlowWorkloads) and the tests check a
    /// changeset against, not API.
    package struct IDLists: Sendable, Equatable {
        package struct Section: Sendable, Equatable {
            package var id: String
            package var widgets: [String]
        }
        package var sections: [Section]

        package init(_ page: Page) {
            sections = page.sections.map { Section(id: $0.id, widgets: $0.widgets.map(\.id)) }
        }

        package init(sections: [Section]) { self.sections = sections }
    }

    /// Performs the changeset on `old` the way a collection view performs batch updates:
    /// deletions (removed and moved-away, at old positions), then insertions (inserted and
    /// moved-in, at new positions, in ascending order). Gives the new page's lists exactly.
    package func applied(to old: IDLists) -> IDLists {
        let goneSections = Set(sections.removed.map(\.id)).union(sections.moved.map(\.id))
        var order = old.sections.map(\.id).filter { !goneSections.contains($0) }
        let arriving = (sections.inserted.map { ($0.index, $0.id) } + sections.moved.map { ($0.to, $0.id) }).sorted { $0.0 < $1.0 }
        for (index, id) in arriving { order.insert(id, at: min(index, order.count)) }

        var lists: [String: [String]] = [:]
        let goneWidgets = Set(widgets.removed.map(\.id)).union(widgets.moved.map(\.id))
        for s in old.sections where !sections.removed.contains(where: { $0.id == s.id }) {
            lists[s.id] = s.widgets.filter { !goneWidgets.contains($0) }
        }
        let arrivingWidgets = (widgets.inserted.map { ($0.place, $0.id) } + widgets.moved.map { ($0.to, $0.id) })
            .sorted { $0.0.index < $1.0.index }
        for (place, id) in arrivingWidgets {
            var list = lists[place.section, default: []]
            list.insert(id, at: min(place.index, list.count))
            lists[place.section] = list
        }
        return IDLists(sections: order.map { IDLists.Section(id: $0, widgets: lists[$0] ?? []) })
    }

    /// Marks a longest strictly increasing subsequence of `values` (patience sorting):
    /// the elements that keep their relative order; the others moved.
    ///
    /// - Complexity: O(n log n).
    static func increasingRun(_ values: [Int]) -> [Bool] {
        var keep = [Bool](repeating: false, count: values.count)
        guard !values.isEmpty else { return keep }
        // Fast path: already in order (most sections of most refreshes).
        if zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) { return [Bool](repeating: true, count: values.count) }
        var tails: [Int] = []  // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var i = tails.last!
        while i >= 0 {
            keep[i] = true
            i = previous[i]
        }
        return keep
    }
}

/// Id to position, with a cheap hash of the id's bytes and one packed array of entries
/// (hash and position side by side: one cache line per probe). The diff looks up widgets
/// of two pages, and this costs a fraction of `Dictionary`'s SipHash at 100,000 widgets.
struct IDTable {
    private struct Entry {
        var hash: UInt64
        var position: Int32  // position + 1; 0 is empty
    }

    private var entries: [Entry]
    private let keys: [String]
    private let mask: Int

    /// Indexes `ids` (the first of duplicates wins), or only the positions `include` admits.
    init(_ ids: [String], where include: (Int) -> Bool = { _ in true }) {
        self.init(ids, hashes: ids.map(IDHash.of), where: include)
    }

    /// With the ids' hashes already at hand.
    init(_ ids: [String], hashes: [UInt64], where include: (Int) -> Bool = { _ in true }) {
        var capacity = 16
        while capacity < ids.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        keys = ids
        var entries = [Entry](repeating: Entry(hash: 0, position: 0), count: capacity)
        for position in ids.indices where include(position) {
            let h = hashes[position]
            var i = Int(truncatingIfNeeded: h) & mask
            while entries[i].position != 0 {
                if entries[i].hash == h && ids[Int(entries[i].position) - 1] == ids[position] { break }
                i = (i + 1) & mask
            }
            if entries[i].position == 0 { entries[i] = Entry(hash: h, position: Int32(position + 1)) }
        }
        self.entries = entries
    }

    subscript(id: String) -> Int? { self[id, IDHash.of(id)] }

    subscript(id: String, h: UInt64) -> Int? {
        var i = Int(truncatingIfNeeded: h) & mask
        while entries[i].position != 0 {
            if entries[i].hash == h && keys[Int(entries[i].position) - 1] == id { return Int(entries[i].position) - 1 }
            i = (i + 1) & mask
        }
        return nil
    }

}
