import FlowJSON

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
/// (``SharingPolicy/widgetParts``): a page's cards may all differ while its separators are all alike,
/// and the cards then go unhashed. Only the fast path shares (it has the text), and only
/// in documents of `PageDecodingOptions.sharingMinimumBytes` and more: a decode that does
/// not share has no interner at all.
@usableFromInline final class WidgetInterner {
    /// Parts counted apart (the actions, and each type of content or array element); values
    /// of further types are not looked up.
    static let typeLimit = 16

    /// The document every text looked up lies in, held so that ``bytes`` stays valid.
    private let document: JSONDocument
    private let bytes: UnsafeBufferPointer<UInt8>

    /// Boxes by the identity of their type's entry (the registry keeps its entries alive
    /// for the decode): a counted entry would be retained and released on every hit.
    @exclusivity(unchecked) private var contents = SpellingTable<(entry: ObjectIdentifier, box: ContentBox)>()
    @exclusivity(unchecked) private var actions = SpellingTable<WidgetActions>()
    @exclusivity(unchecked) private var arrays = SpellingTable<(element: ObjectIdentifier, box: AnyObject)>()
    /// The actions' lookups (first, at ``actionsType``), each content type's, by the entry's
    /// identity (the registry keeps its entries alive for the decode), and each array's, by
    /// its element type. A buffer of ``typeLimit`` the interner allocates at its first
    /// lookup and frees in `deinit`, never handed out: the per-widget question "is this
    /// type resting" is a load and a compare, without the uniqueness and bounds checks of
    /// an array's element updated in place.
    @exclusivity(unchecked) private var types: UnsafeMutablePointer<(entry: ObjectIdentifier, lookups: LookupWindow)>?
    @exclusivity(unchecked) private var typeCount = 0

    init(document: JSONDocument) {
        self.document = document
        bytes = document.retainedView.bytes
    }

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

    /// The content `decode` reads for `entry`'s type (`t`, from ``looks(for:)``) from
    /// `text`, or the box of an earlier widget of the type whose `data` was the same bytes.
    func content(of entry: WidgetRegistry.Entry, _ t: Int, spelled text: SourceText, ctx: DecodeContext,
                 decode: () throws -> ContentBox) rethrows -> ContentBox {
        let id = ObjectIdentifier(entry)
        return try share(text, t, ctx: ctx, find: { contents.value(spelled: text, in: bytes).flatMap { $0.entry == id ? $0.box : nil } },
                         remember: { contents.remember((id, $0), spelled: text) }, decode: decode)
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
        made.initialize(to: (ObjectIdentifier(WidgetActions.self), LookupWindow()))
        types = made
        typeCount = 1
        return made
    }

    // MARK: Actions

    /// Where the actions' lookups count, among the types'.
    private static let actionsType = 0

    /// Whether to look up the next widget's actions (asked before they are hashed).
    @inline(__always)
    func looksForActions() -> Bool { counts[Self.actionsType].lookups.looks() }

    /// The actions `decode` reads from `text`, or those of an earlier widget whose
    /// `actions` object was the same bytes.
    func actions(spelled text: SourceText, ctx: DecodeContext, decode: () -> WidgetActions) -> WidgetActions {
        share(text, Self.actionsType, ctx: ctx, find: { self.actions.value(spelled: text, in: bytes) },
              remember: { self.actions.remember($0, spelled: text) }, decode: decode)
    }

    // MARK: Arrays

    /// Whether to look up the next array of `element`s, as the index of the type's counts
    /// (asked before the array's text is hashed).
    @inline(__always)
    func looks(forArrayOf element: ObjectIdentifier) -> Int? { looks(for: element) }

    /// The array of `element`s (`t`, from ``looks(forArrayOf:)``) decoded earlier from
    /// `text`'s bytes, in the box `box` made for it; nil when `decode` had to read it. The
    /// caller keeps what `decode` reads and boxes it (`SharedArray`) when asked: only it
    /// knows the element type, and a box is made only for an array remembered.
    @usableFromInline
    func array(_ t: Int, of element: ObjectIdentifier, spelled text: SourceText, ctx: DecodeContext,
               decode: () throws -> Void, box: () -> AnyObject) rethrows -> AnyObject? {
        // `share`'s value is the box found, nil when decoded: `find` answers `.none` for
        // "not found", never a found nil.
        try share(text, t, ctx: ctx,
                  find: { () -> AnyObject?? in
                      guard let kept = arrays.value(spelled: text, in: bytes), kept.element == element else { return .none }
                      return .some(kept.box)
                  },
                  remember: { _ in arrays.remember((element, box()), spelled: text) },
                  decode: { () throws -> AnyObject? in try decode(); return nil })
    }

    // MARK: Sharing

    /// What every part does: the value `find` has remembered for `text`'s bytes; else
    /// `decode`'s value, which `remember` keeps when its decode recorded no diagnostic, so
    /// that a widget taking it has nothing to report either. The lookup counts in the
    /// part's window (`t`). The tables are reached in short accesses, none held across
    /// `decode`: an array's elements may share arrays of their own.
    @inline(__always)
    private func share<Value>(_ text: SourceText, _ t: Int, ctx: DecodeContext, find: () -> Value?, remember: (Value) -> Void,
                              decode: () throws -> Value) rethrows -> Value {
        guard text.lies(in: document) else { return try decode() }
        let known = find()
        counts[t].lookups.count(hit: known != nil, under: .widgetParts)
        if let known { return known }
        let mark = ctx.diagnosticCount
        let value = try decode()
        if ctx.diagnosticCount == mark { remember(value) }
        return value
    }
}

/// An array the fast path shares (see ``WidgetInterner``), kept as one object whatever its
/// element type.
@usableFromInline final class SharedArray<Element> {
    @usableFromInline let array: [Element]
    @usableFromInline init(_ array: [Element]) { self.array = array }
}
