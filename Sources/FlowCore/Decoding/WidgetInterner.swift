/// Hands widgets whose parts are spelled alike one shared decoded value, within one
/// decode: the content of widgets of one type whose `data` is the same bytes, the actions
/// of widgets whose `actions` object is, and the arrays (a card's tags) that models read.
///
/// Pages repeat whole widgets (a design system's separator, a quantity stepper) and their
/// actions (every card's "add to list" toast, every product's quick-view sheet). A content
/// box is immutable (a widget given new content gets a new box), and actions and arrays are
/// values, so sharing any of them is invisible; and what a library type, the actions or an
/// array of library values decode depends on nothing but the bytes: the same bytes give
/// the same value.
///
/// What content may share is decided at registration (`WidgetRegistry.Entry.sharesContent`):
/// the library's own types, but not those that hold widgets (an accordion's items claim
/// ids where they stand) and not a host's `Decodable` types (their `init(from:)` is
/// theirs, and may do more than read). A decode that recorded a diagnostic is not
/// remembered: a widget that takes the value must have had nothing to report.
///
/// Each part is looked up in a ``SpellingTable``, and only when it is small
/// (``SpellingTable/maximumEntries``). Each type of content, each element type of arrays,
/// and the actions count their own lookups and rest when they keep missing
/// (``LookupWindow``): a page's cards may all differ while its separators are all alike,
/// and the cards then go unhashed. Only the fast path shares (it has the text), and only
/// in documents of `PageDecodingOptions.sharingMinimumBytes` and more: a decode that does
/// not share has no interner at all.
final class WidgetInterner {
    /// Lookups per window; a part whose window ends with fewer than ``minimumHits`` hits
    /// rests for ``rest`` widgets. The window is short: each stretch of a parallel decode
    /// has an interner of its own, and pays for a window of each part it meets.
    static let window = 16
    static let minimumHits = 2
    static let rest = 1024
    /// Types counted apart; values of further types are not looked up.
    static let typeLimit = 16

    @exclusivity(unchecked) private var contents = SpellingTable<(entry: WidgetRegistry.Entry, box: ContentBox)>()
    @exclusivity(unchecked) private var actions = SpellingTable<WidgetActions>()
    @exclusivity(unchecked) private var actionLookups = LookupWindow()
    @exclusivity(unchecked) private var arrays = SpellingTable<(element: ObjectIdentifier, box: AnyObject)>()
    /// Each content type's lookups, by the entry's identity (the registry keeps its entries
    /// alive for the decode), and each array's, by its element type. A buffer of
    /// ``typeLimit`` the interner allocates at its first lookup and frees in `deinit`, never
    /// handed out: the per-widget question "is this type resting" is a load and a compare,
    /// without the uniqueness and bounds checks of an array's element updated in place.
    @exclusivity(unchecked) private var types: UnsafeMutablePointer<(entry: ObjectIdentifier, lookups: LookupWindow)>?
    @exclusivity(unchecked) private var typeCount = 0

    deinit {
        guard let types else { return }
        types.deinitialize(count: typeCount)
        types.deallocate()
    }

    // MARK: Content

    /// Whether to look up the content of the next widget of `entry`'s type, as the index
    /// of the type's counts (nil: decode it without a lookup). Asked before the data is
    /// hashed, so a type whose lookups keep missing costs no hashing while it rests.
    @inline(__always)
    func looks(for entry: WidgetRegistry.Entry) -> Int? { looks(for: ObjectIdentifier(entry)) }

    @inline(__always)
    private func looks(for id: ObjectIdentifier) -> Int? {
        guard let t = type(id), counts[t].lookups.looks() else { return nil }
        return t
    }

    /// The box of an earlier widget of `entry`'s type (`t`, from ``looks(for:)``) whose
    /// `data` was `text`'s bytes, if it is remembered.
    func box(_ t: Int, of entry: WidgetRegistry.Entry, spelled text: SourceText) -> ContentBox? {
        let found = contents.value(spelled: text) { $0.entry === entry }
        counts[t].lookups.count(hit: found != nil, window: Self.window, minimumHits: Self.minimumHits, rest: Self.rest)
        return found?.box
    }

    /// Remembers `box`, decoded from `text` for `entry`'s type without a diagnostic.
    func remember(_ box: ContentBox, of entry: WidgetRegistry.Entry, spelled text: SourceText) {
        contents.remember((entry, box), spelled: text)
    }

    /// The index of the counts of `id` (an entry's or an element type's), nil past
    /// ``typeLimit`` types.
    @inline(__always)
    private func type(_ id: ObjectIdentifier) -> Int? {
        let counts = counts
        for t in 0..<typeCount where counts[t].entry == id { return t }
        guard typeCount < Self.typeLimit else { return nil }
        (counts + typeCount).initialize(to: (id, LookupWindow()))
        typeCount += 1
        return typeCount - 1
    }

    /// ``types``, allocated on first use.
    @inline(__always)
    private var counts: UnsafeMutablePointer<(entry: ObjectIdentifier, lookups: LookupWindow)> {
        if let types { return types }
        let made = UnsafeMutablePointer<(entry: ObjectIdentifier, lookups: LookupWindow)>.allocate(capacity: Self.typeLimit)
        types = made
        return made
    }

    // MARK: Actions

    /// Whether to look up the next widget's actions (asked before they are hashed).
    @inline(__always)
    func looksForActions() -> Bool { actionLookups.looks() }

    /// The actions of an earlier widget whose `actions` object was `text`'s bytes, if they
    /// are remembered.
    func actions(spelled text: SourceText) -> WidgetActions? {
        let found = actions.value(spelled: text) { _ in true }
        actionLookups.count(hit: found != nil, window: Self.window, minimumHits: Self.minimumHits, rest: Self.rest)
        return found
    }

    /// Remembers `actions`, decoded from `text` without a diagnostic.
    func remember(_ actions: WidgetActions, spelled text: SourceText) {
        self.actions.remember(actions, spelled: text)
    }

    // MARK: Arrays

    /// An array decoded for the fast path, kept as one object whatever its element type.
    private final class ArrayBox<Element> {
        let array: [Element]
        init(_ array: [Element]) { self.array = array }
    }

    /// Whether to look up the next array of `Element`s, as the index of the type's counts
    /// (asked before the array's text is hashed).
    @inline(__always)
    func looks<Element>(forArrayOf _: Element.Type) -> Int? { looks(for: ObjectIdentifier(Element.self)) }

    /// The array of `Element`s (`t`, from ``looks(forArrayOf:)``) decoded earlier from
    /// `text`'s bytes, if it is remembered.
    func array<Element>(_ t: Int, of _: Element.Type, spelled text: SourceText) -> [Element]? {
        let element = ObjectIdentifier(Element.self)
        let found = arrays.value(spelled: text) { $0.element == element }
        counts[t].lookups.count(hit: found != nil, window: Self.window, minimumHits: Self.minimumHits, rest: Self.rest)
        // The element type matched, so the box is this one's.
        return found.map { unsafeDowncast($0.box, to: ArrayBox<Element>.self).array }
    }

    /// Remembers `array`, decoded from `text` without a diagnostic.
    func remember<Element>(_ array: [Element], spelled text: SourceText) {
        arrays.remember((ObjectIdentifier(Element.self), ArrayBox(array)), spelled: text)
    }
}
