/// What a response has done to the page's lists but not yet written into them: widgets
/// removed, and sections prepended.
///
/// Taking a widget out of a list at once shifts every widget after it, and putting a
/// section in front shifts every section, so a response that removes every widget of a
/// 100,000-widget section, or prepends 100,000 sections one mutation at a time, would cost
/// the square of its size. Instead:
/// - a removal marks its slot (the widget's id is already gone from the index and the
///   ledger), the slots of the survivors stay put while the response applies, and each list
///   is compacted once when the response is done: O(list + removals) per list touched;
/// - prepended sections wait in ``front`` (last first, so each prepend is an append) and
///   join the page once; until then every section is reached by its index through
///   ``section(at:in:)``, which looks in front of the page's own list first.
///
/// A replacement that lands in a list with marks needs its position as the page would show
/// it (`…widgets.M` counts survivors only): a Fenwick tree over the list's marks, built on
/// the first such question, answers in O(log n).
struct PendingChanges {
    enum List: Hashable {
        case header, footer
        case section(ordinal: Int)
    }

    /// The marked slots of one list: a short list of slots while there are a few (a
    /// response that removes one widget pays for no list-sized table), a table of the list's
    /// size past that.
    private struct Marks {
        var few: [Int] = []
        var removed: [Bool]?
        var count = 0
        let slots: Int
        /// Prefix counts of `removed` (1-based Fenwick tree), once a position is asked for.
        var tree: [Int32]?

        static let fewLimit = 8

        init(slots: Int) { self.slots = slots }

        func isRemoved(_ slot: Int) -> Bool { removed?[slot] ?? few.contains(slot) }

        mutating func mark(_ slot: Int) {
            precondition(!isRemoved(slot), "slot \(slot) is removed twice")
            count += 1
            if removed == nil {
                guard count > Self.fewLimit else { return few.append(slot) }
                removed = Array(repeating: false, count: slots)
                for s in few { removed![s] = true }
                few = []
            }
            removed![slot] = true
            guard tree != nil else { return }
            var i = slot + 1
            while i <= slots {
                tree![i] += 1
                i += i & -i
            }
        }

        mutating func removedBefore(_ slot: Int) -> Int {
            guard let removed else { return few.reduce(0) { $0 + ($1 < slot ? 1 : 0) } }
            if tree == nil {
                var t = [Int32](repeating: 0, count: slots + 1)
                for (i, r) in removed.enumerated() where r {
                    var j = i + 1
                    while j <= slots {
                        t[j] += 1
                        j += j & -j
                    }
                }
                tree = t
            }
            var sum = 0
            var i = slot
            while i > 0 {
                sum += Int(tree![i])
                i -= i & -i
            }
            return sum
        }

        /// Takes the marked widgets out of `widgets`: a few one by one, many in one pass.
        func compact(_ widgets: inout [Widget]) {
            guard let removed else {
                for slot in few.sorted(by: >) { widgets.remove(at: slot) }
                return
            }
            var kept = 0
            for i in widgets.indices where !removed[i] {
                if kept != i { widgets.swapAt(kept, i) }
                kept += 1
            }
            widgets.removeLast(widgets.count - kept)
        }
    }

    private var lists: [List: Marks] = [:]
    /// Sections prepended, the one to stand first last.
    private var front: [Section] = []

    var isEmpty: Bool { lists.isEmpty && front.isEmpty }

    /// Sections on the page once the response is done: the page's own and those waiting.
    func sectionCount(_ page: Page) -> Int { front.count + page.sections.count }

    /// Puts `sections` in front of every section on the page (in their order).
    mutating func prepend(_ sections: [Section]) { front.append(contentsOf: sections.reversed()) }

    /// The section at `index` of the page as the response leaves it.
    func section(at index: Int, in page: Page) -> Section {
        index < front.count ? front[front.count - 1 - index] : page.sections[index - front.count]
    }

    /// Changes the section at `index` of the page as the response leaves it.
    mutating func modifySection<R>(at index: Int, in page: inout Page, _ body: (inout Section) -> R) -> R {
        index < front.count ? body(&front[front.count - 1 - index]) : body(&page.sections[index - front.count])
    }

    /// Marks slot `slot` of `list` (which holds `slots` widgets, marked ones included).
    mutating func mark(_ list: List, slot: Int, slots: Int) {
        lists[list, default: Marks(slots: slots)].mark(slot)
    }

    func isRemoved(_ list: List, slot: Int) -> Bool { lists[list]?.isRemoved(slot) ?? false }

    /// The position the widget in `slot` will have once `list` is compacted.
    mutating func position(in list: List, slot: Int) -> Int {
        guard lists[list] != nil else { return slot }
        return slot - lists[list]!.removedBefore(slot)
    }

    /// Writes everything into the page: the waiting sections join it in front, and the
    /// marked widgets leave every list, once each; the survivors' index entries are
    /// rewritten when the list's recorded positions would otherwise drift too far.
    mutating func finish(_ page: inout Page) {
        if !front.isEmpty {
            front.reverse()
            front.append(contentsOf: page.sections)
            page.sections = front
            front = []
        }
        var index = page.identity.index!
        page.identity.index = nil  // keep the dictionary uniquely owned while it changes
        defer { page.identity.index = index }
        for (list, marks) in lists {
            switch list {
            case .header: marks.compact(&page.header!.widgets)
            case .footer: marks.compact(&page.footer!.widgets)
            case .section(let ordinal): marks.compact(&page.sections[index.sectionIndex(ordinal)].widgets)
            }
            index.settle(list, removed: marks.count, in: page)
        }
        lists = [:]
    }
}
