/// Hands widgets of one type whose `data` is the same bytes one shared content box, within
/// one decode.
///
/// Pages repeat whole widgets: a design system's separator, a quantity stepper, a title
/// over each shelf. A content box is immutable (a widget given new content gets a new
/// box), so sharing one is invisible, and the content a library type decodes depends on
/// nothing but its `data`'s bytes: the same bytes give the same model.
///
/// What may share is decided at registration (`WidgetRegistry.Entry.sharesContent`): the
/// library's own content types, but not those that hold widgets (an accordion's items
/// claim ids where they stand) and not a host's `Decodable` types (their `init(from:)` is
/// theirs, and may do more than read). A decode that recorded a diagnostic is not
/// remembered: a widget that takes the box must have had nothing to report.
///
/// ``slotCount`` slots, chosen by a hash of the text and matched on its bytes and the
/// type's entry, each holding the last content decoded there. Each type counts its own
/// lookups and rests when they keep missing (``LookupWindow``): a page's cards may all
/// differ while its separators are all alike, and the cards then go unhashed. Only the
/// fast path shares (it has the text), and only in documents of
/// `PageDecodingOptions.sharingMinimumBytes` and more.
final class ContentInterner {
    static let slotCount = 1024
    /// Lookups per window; a type whose window ends with fewer than ``minimumHits`` hits
    /// rests for ``rest`` widgets. The window is short: each stretch of a parallel decode
    /// has an interner of its own, and pays for a window of each type it meets.
    static let window = 16
    static let minimumHits = 2
    static let rest = 1024
    /// Types counted apart; widgets of further types are not looked up.
    static let typeLimit = 16

    private struct Slot {
        let entry: WidgetRegistry.Entry
        let text: SourceText
        let box: ContentBox
    }

    /// Slot to the position of its content in ``kept``, plus one (0: empty). Two bytes a
    /// slot, so a decode that shares clears 2 KiB, not a table of contents.
    @exclusivity(unchecked) private var table: [UInt16] = []
    /// The contents remembered, at most one per slot.
    @exclusivity(unchecked) private var kept: [Slot] = []
    /// Each type's lookups, by the entry's identity (the registry keeps its entries alive
    /// for the decode). A buffer the interner allocates and frees, never handed out: the
    /// per-widget question "is this type resting" is a load and a compare, without the
    /// uniqueness check and bounds checks of an array's element updated in place.
    private let types: UnsafeMutablePointer<(entry: ObjectIdentifier, lookups: LookupWindow)>
    @exclusivity(unchecked) private var typeCount = 0

    init() { types = .allocate(capacity: Self.typeLimit) }

    deinit {
        types.deinitialize(count: typeCount)
        types.deallocate()
    }

    /// Whether to look up the content of the next widget of `entry`'s type, as the index
    /// of the type's counts (nil: decode it without a lookup). Asked before the data is
    /// hashed, so a type whose lookups keep missing costs no hashing while it rests.
    @inline(__always)
    func looks(for entry: WidgetRegistry.Entry) -> Int? {
        guard let t = type(entry), types[t].lookups.looks() else { return nil }
        return t
    }

    /// The box of an earlier widget of `entry`'s type (`t`, from ``looks(for:)``) whose
    /// `data` was `text`'s bytes, if it is remembered.
    func box(_ t: Int, of entry: WidgetRegistry.Entry, spelled text: SourceText) -> ContentBox? {
        if !table.isEmpty, case let p = Int(table[Self.slot(text)]), p != 0, kept[p - 1].entry === entry,
           kept[p - 1].text.spellsTheSame(as: text) {
            count(t, hit: true)
            return kept[p - 1].box
        }
        count(t, hit: false)
        return nil
    }

    /// Remembers `box`, decoded from `text` for `entry`'s type without a diagnostic.
    func remember(_ box: ContentBox, of entry: WidgetRegistry.Entry, spelled text: SourceText) {
        if table.isEmpty { table = [UInt16](repeating: 0, count: Self.slotCount) }
        let slot = Self.slot(text)
        let remembered = Slot(entry: entry, text: text, box: box)
        if table[slot] != 0 {
            kept[Int(table[slot]) - 1] = remembered
        } else {
            kept.append(remembered)
            table[slot] = UInt16(kept.count)
        }
    }

    /// The index of `entry`'s counts, nil past ``typeLimit`` types.
    @inline(__always)
    private func type(_ entry: WidgetRegistry.Entry) -> Int? {
        let id = ObjectIdentifier(entry)
        for t in 0..<typeCount where types[t].entry == id { return t }
        guard typeCount < Self.typeLimit else { return nil }
        (types + typeCount).initialize(to: (id, LookupWindow()))
        typeCount += 1
        return typeCount - 1
    }

    @inline(__always)
    private static func slot(_ text: SourceText) -> Int { Int(truncatingIfNeeded: text.hash >> 32) & (slotCount - 1) }

    @inline(__always)
    private func count(_ t: Int, hit: Bool) {
        types[t].lookups.count(hit: hit, window: Self.window, minimumHits: Self.minimumHits, rest: Self.rest)
    }
}
