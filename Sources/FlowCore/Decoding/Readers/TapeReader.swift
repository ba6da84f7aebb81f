import FlowJSON

/// The fast path's reader: one entry of the FlowJSON index.
///
/// Every accessor reads the tape directly and builds a `String` only when asked for one.
@usableFromInline package struct TapeReader: DocumentReader {
    @usableFromInline let ref: SourceRef
    @usableFromInline package let index: Int

    init(source: TapeSource, index: Int) {
        self.ref = SourceRef(source)
        self.index = index
    }

    init(_ ref: SourceRef, index: Int) {
        self.ref = ref
        self.index = index
    }

    @inlinable @inline(__always) var source: TapeSource { ref.source }

    @inline(__always) var view: JSONTapeView { source.view }

    @usableFromInline package var context: DecodeContext { source.context! }

    package var kind: JSONKind { view.kind(index) }

    /// Inlined: every model asks it of every field it finds (`present`), and as a call
    /// (the kind's trap for the unused value 7 keeps it out of line) it costs more than
    /// the comparison it makes.
    @inlinable @inline(__always)
    package var isNull: Bool { source.view.isNull(index) }

    @usableFromInline package func string() -> String? {
        let view = view
        guard view.kind(index) == .string else { return nil }
        // Longer than a `String` holds inline, and without escapes: the cache may have it.
        if !view.flag(index) {
            let raw = view.rawBytes(index)
            if raw.count > 15 {
                let ctx = context
                if ctx.sharing.sharesParts { return ctx.sharing.strings.string(raw) }
            }
        }
        return try? view.string(index)
    }

    @usableFromInline package func bool() -> Bool? {
        switch view.kind(index) {
        case .true: true
        case .false: false
        default: nil
        }
    }

    @usableFromInline package func double() -> Double? {
        guard view.kind(index) == .number else { return nil }
        return JSONNumberParsing.double(view.rawBytes(index))
    }

    @usableFromInline package func integer<T: FixedWidthInteger & Decodable>(_ type: T.Type) -> T? {
        guard view.kind(index) == .number else { return nil }
        return JSONNumberParsing.integer(view.rawBytes(index), isIntegerLiteral: view.flag(index), as: T.self)
    }

    @usableFromInline package func object() -> TapeObject? {
        guard view.kind(index) == .object, !source.document.mayHoldLoneSurrogates || Self.keysDecode(view, index) else { return nil }
        return TapeObject(ref: ref, index: index)
    }

    @usableFromInline package func array() -> TapeArray? {
        guard view.kind(index) == .array else { return nil }
        return TapeArray(ref: ref, cursor: index + 1, end: view.next(index))
    }

    /// Always a slice: opaque JSON is never read as text (the page contract, "Limits and hostile input"), so nothing in it can
    /// fail, not even a lone surrogate escape.
    @usableFromInline package func raw() -> RawJSON? { RawJSON(document: source.document, index: index) }

    @usableFromInline package func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let ctx = context
        var decoder = TapeDecoder.reusing(&ctx.spareTapeDecoder, in: source, index: index)
        defer {
            decoder.settle()
            // Kept by the value (a stored decoder or container may be read later): the
            // index it reads must stay.
            if !isKnownUniquelyReferenced(&decoder) { ctx.indexRelease.pin() }
            ctx.spareTapeDecoder = decoder
        }
        return try T(from: decoder)
    }

    @usableFromInline package func read<T: FlowDecodable>(_ type: T.Type) throws -> T { try T(tape: self) }

    /// The array `decode` reads from this value, or the one read earlier in the decode from
    /// the same bytes (see `WidgetInterner`); remembered when its decode reported nothing.
    /// Empty arrays and values that are not arrays are decoded as they are.
    ///
    /// Inlined into the model's own code, where `Element` is known: the interner keeps
    /// arrays as objects of any element type, and only this part, specialized, boxes and
    /// unboxes them. A generic function called with an unknown `Element` would look up the
    /// array type's metadata at run time on every call.
    @inlinable
    package func shared<Element>(_ decode: () throws -> [Element]) rethrows -> [Element] {
        var decoded: [Element] = []
        let known = try sharedArray(of: ObjectIdentifier(Element.self), decode: { decoded = try decode() }, box: { SharedArray(decoded) })
        // A box remembered for arrays of this element type holds one.
        return known.map { unsafeDowncast($0, to: SharedArray<Element>.self).array } ?? decoded
    }

    /// ``shared(_:)`` for any element type: the box found for this value's bytes among
    /// arrays of `element`s, or nil when `decode` read it (the decode does not share, the
    /// value is not a small nonempty array, or its element type is resting).
    @usableFromInline
    func sharedArray(of element: ObjectIdentifier, decode: () throws -> Void, box: () -> AnyObject) rethrows -> AnyObject? {
        guard let ctx = source.context, let parts = ctx.sharing.widgetParts, view.kind(index) == .array, view.next(index) > index + 1,
              let t = parts.looks(forArrayOf: element), let text = shareableText() else {
            try decode()
            return nil
        }
        return try parts.array(t, of: element, spelled: text, ctx: ctx, decode: decode, box: box)
    }

    package func decodeContent(_ entry: WidgetRegistry.Entry, ctx: DecodeContext) throws -> WidgetModel {
        // Widgets whose data is spelled alike share one content (see `WidgetInterner`).
        if entry.sharesContent, let parts = ctx.sharing.widgetParts, let t = parts.looks(for: entry), let text = shareableText() {
            return WidgetModel(box: try parts.content(of: entry, t, spelled: text, ctx: ctx) { try entry.fast(self) }, entry: entry)
        }
        return WidgetModel(box: try entry.fast(self), entry: entry)
    }

    package func decodeContentOfEmptyObject(_ entry: WidgetRegistry.Entry) throws -> WidgetModel {
        WidgetModel(box: try entry.fast(TapeReader(source: source.emptyObjectSource(), index: 0)), entry: entry)
    }

    @usableFromInline package var foundDescription: String { view.kind(index).description }

    /// Found by the name's bytes (no `String` built, no SipHash); the name handed back is the
    /// registry's own, the same text. Escaped or unregistered names go by `String`.
    package func widgetType(in registry: WidgetRegistry) -> (name: String, entry: WidgetRegistry.Entry?)? {
        guard view.kind(index) == .string else { return nil }
        if !view.flag(index), let entry = registry.entry(spelled: view.rawBytes(index)) { return (entry.typeName, entry) }
        return string().map { ($0, registry.entry(for: $0)) }
    }

    package func widgetFingerprint() -> UInt64? { Fingerprint.widget(view, index) }

    package func finished(ctx: DecodeContext) { ctx.doneWith(index..<view.next(index)) }

    package func sourceText() -> SourceText? {
        // The document's identity is taken last, after the calls: held across them, it
        // would be retained and released on every lookup.
        let range = view.textSpan(index), hash = view.textFingerprint(index)
        return SourceText(document: ObjectIdentifier(source.document), range: range, hash: hash)
    }

    package func shareableText() -> SourceText? { view.next(index) - index <= SpellingTable<Void>.maximumEntries ? sourceText() : nil }

    /// Whether every key of the object at `i` decodes (only escaped keys can fail).
    static func keysDecode(_ view: JSONTapeView, _ i: Int) -> Bool {
        var ok = true
        view.forEachMember(i) { k, _ in
            if view.flag(k), (try? view.string(k)) == nil { ok = false }
            return ok
        }
        return ok
    }
}

@usableFromInline package struct TapeObject: ObjectReader {
    let ref: SourceRef
    let index: Int
    var source: TapeSource { ref.source }
    /// The first member named `key`: a linear scan comparing length and first byte before
    /// the bytes (schema objects have a handful of members).
    @usableFromInline package func value(forKey key: StaticString) -> TapeReader? { scan(key) }

    @usableFromInline package var memberCount: Int { source.view.childCount(index) }

    @usableFromInline package func spelling(cutting member: TapeReader?) -> AtomSpelling? {
        let view = source.view
        // A member is its key's entry and then its value's: the cut runs from the key's
        // opening quote to the end of the value's last token.
        let cut = member.map { (view.offset($0.index - 1) - 1)..<view.valueSpan($0.index).upperBound }
        return AtomSpelling(text: source.document.text, span: view.textSpan(index), cut: cut)
    }

    private func scan(_ key: StaticString) -> TapeReader? {
        let view = source.view
        let count = key.utf8CodeUnitCount
        let keyStart = key.utf8Start
        let base = view.bytes.baseAddress!
        let end = view.next(index)
        var k = index + 1
        while k < end {
            let v = k + 1
            if !view.flag(k) {
                let range = view.byteRange(k)
                if range.count == count && (count == 0 || base[range.lowerBound] == keyStart[0])
                    && ShortBytes.equal(base + range.lowerBound, keyStart, count) {
                    return TapeReader(ref, index: v)
                }
            } else if (try? view.string(k)) == key.description {
                return TapeReader(ref, index: v)
            }
            k = view.next(v)
        }
        return nil
    }

    /// One pass over the members, matching each key against the table; handles are tape
    /// indices.
    @usableFromInline package func locate(_ keys: FieldKeys) -> FieldSlots {
        var slots = FieldSlots()
        let view = source.view
        let base = view.bytes.baseAddress!
        let end = view.next(index)
        var k = index + 1
        while k < end {
            let v = k + 1
            let j: Int?
            if !view.flag(k) {
                let r = view.byteRange(k)
                j = keys.index(of: base + r.lowerBound, count: r.count)
            } else {
                j = (try? view.string(k)).flatMap(keys.index(of:))
            }
            if let j { slots.offer(j, Int32(truncatingIfNeeded: v)) }
            k = view.next(v)
        }
        return slots
    }

    @inline(__always)
    @usableFromInline package func member(_ handle: Int32, _ keys: FieldKeys, _ field: Int) -> TapeReader {
        TapeReader(ref, index: Int(handle))
    }

    @usableFromInline package func value(forDynamicKey key: String) -> TapeReader? {
        let view = source.view
        var found: Int?
        view.forEachMember(index) { k, v in
            if Self.keyMatches(view, k, key) { found = v; return false }
            return true
        }
        return found.map { TapeReader(ref, index: $0) }
    }

    /// Keys compare as Swift strings (canonical equivalence, as Foundation's decoder);
    /// bytes settle it whenever both sides are ASCII.
    static func keyMatches(_ view: JSONTapeView, _ k: Int, _ key: String) -> Bool {
        if !view.flag(k) {
            let raw = view.rawBytes(k)
            var allASCII = true
            for b in raw where b >= 0x80 { allASCII = false; break }
            if allASCII && key.utf8.allSatisfy({ $0 < 0x80 }) {
                return raw.elementsEqual(key.utf8)
            }
        }
        return (try? view.string(k)) == key
    }

    @usableFromInline package func forEachMember(_ body: (String, TapeReader) throws -> Void) rethrows {
        let view = source.view
        let end = view.next(index)
        var k = index + 1
        while k < end {
            let v = k + 1
            if let key = try? view.string(k) { try body(key, TapeReader(ref, index: v)) }
            k = view.next(v)
        }
    }
}

@usableFromInline package struct TapeArray: ArrayReader {
    let ref: SourceRef
    var cursor: Int
    let end: Int
    var source: TapeSource { ref.source }

    @usableFromInline package var count: Int? {
        let view = source.view
        var n = 0
        var e = cursor
        while e < end {
            n += 1
            e = view.next(e)
        }
        return n
    }

    @usableFromInline package mutating func next() -> TapeReader? {
        guard cursor < end else { return nil }
        let reader = TapeReader(ref, index: cursor)
        cursor = source.view.next(cursor)
        return reader
    }
}
