#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlowJSON

/// Hands atoms that spell their rarely-set fields the same way one shared box of them,
/// within one decode.
///
/// Pages repeat a handful of text styles, image treatments and colors over thousands of
/// atoms (a design system's), and an ``Extras`` box for each copy costs about a hundred
/// bytes: the largest share of a page's atoms. A box is immutable, so sharing one is
/// invisible.
///
/// Sharing is decided by the atom's text, never by comparing decoded values: `==` holds for
/// values that differ (canonically equivalent strings, 0 and -0), and a shared box must hold
/// exactly what the atom's own would. Two atoms share when their objects are the same bytes
/// once the common field is cut out (a text's `text`, an image's `url`): the fields in the
/// box are read from the rest, so they decode to the same values. Text that differs only in
/// spacing or member order is not shared, which costs memory, never correctness.
///
/// Each kind of atom remembers its last ``capacity`` spellings, so a lookup costs at most
/// that many comparisons (each stops at the atom's own length) and the table never grows
/// with the page; and a kind whose lookups keep missing rests (``SharingPolicy/atoms``), so
/// a page of all-different atoms pays for a lookup in few of them. Only the fast path shares (it has
/// the text), and only in documents of `PageDecodingOptions.sharingMinimumBytes` and
/// more. The reference path gives every atom a box of its own.
struct ExtrasInterner {
    /// Spellings remembered per kind of atom.
    static let capacity = 8

    var text: Ring<TextData.Style>
    var color: Ring<ColorData.Fields>
    var image: Ring<ImageData.Fields>
    var icon: Ring<IconData.Fields>
    var tag: Ring<TagData.Fields>
    var button: Ring<ButtonData.Fields>

    /// Rings that share when `sharing` is true; otherwise every atom gets a box of its own.
    init(sharing: Bool) {
        text = Ring(sharing: sharing)
        color = Ring(sharing: sharing)
        image = Ring(sharing: sharing)
        icon = Ring(sharing: sharing)
        tag = Ring(sharing: sharing)
        button = Ring(sharing: sharing)
    }

    /// The spellings of one kind of atom, and their boxes.
    struct Ring<F: EmptyCheckable> {
        private struct Entry {
            let spelling: AtomSpelling
            let box: Extras<F>?
        }

        private var entries: [Entry] = []
        private var next = 0
        private var lookups = LookupWindow()
        private let sharing: Bool

        init(sharing: Bool) { self.sharing = sharing }

        /// The box of the fields `decode` reads from the object `values` come from, whose
        /// member `common` holds the field the atom keeps inline. The caller asks only when
        /// the object has one of those fields (``FieldValues/hasField(besides:_:)``), before
        /// it reaches for the context.
        ///
        /// When an earlier atom's object is the same bytes once each one's `common` member
        /// is cut out, its box is handed back and `decode` is not run: the same bytes decode
        /// to the same fields, and reading an atom's fields has no effect but its result
        /// (it records no diagnostic; a failure throws, and then nothing was remembered).
        /// Nil when every field is absent.
        @inline(__always)
        mutating func share<Field, Object>(_ values: FieldValues<Field, Object>, cutting common: Field,
                                           decode: () throws -> F) rethrows -> Extras<F>? {
            guard sharing, lookups.looks(),
                  let spelled = values.object.spelling(cutting: values.value(common)) else { return .make(try decode()) }
            for k in entries.indices where entries[k].spelling.spellsTheSame(as: spelled) {
                lookups.count(hit: true, under: .atoms)
                return entries[k].box
            }
            lookups.count(hit: false, under: .atoms)
            let box = Extras<F>?.make(try decode())
            if entries.count < ExtrasInterner.capacity {
                if entries.isEmpty { entries.reserveCapacity(ExtrasInterner.capacity) }
                entries.append(Entry(spelling: spelled, box: box))
            } else {
                entries[next] = Entry(spelling: spelled, box: box)
                next = (next + 1) % ExtrasInterner.capacity
            }
            return box
        }
    }
}

/// An atom object's text with its common field cut out: the bytes its out-of-line fields
/// are decoded from (see ``ExtrasInterner``). It holds the document's bytes, not its index.
///
/// Compared byte for byte, lengths first, without a hash: a hash reads every byte of every
/// atom, where a comparison stops at the first difference and most candidates differ in
/// length.
@usableFromInline package struct AtomSpelling {
    let text: JSONText
    /// The bytes before the cut and after it (the object's whole text, from its first byte
    /// to the end of its last token, and an empty range when nothing is cut). The member
    /// cut out (key, colon and value) provides a field the box does not hold.
    let before: Range<Int>
    let after: Range<Int>

    init(text: JSONText, span: Range<Int>, cut: Range<Int>?) {
        self.text = text
        before = span.lowerBound..<(cut?.lowerBound ?? span.upperBound)
        after = (cut?.upperBound ?? span.upperBound)..<span.upperBound
    }

    /// Whether the two are the same bytes (the documents may differ).
    @inline(__always)
    func spellsTheSame(as other: AtomSpelling) -> Bool {
        before.count == other.before.count && after.count == other.after.count
            && equalBytes(before, other.text, other.before) && equalBytes(after, other.text, other.after)
    }

    private func equalBytes(_ range: Range<Int>, _ otherText: JSONText, _ otherRange: Range<Int>) -> Bool {
        if range.isEmpty { return true }
        return text.withBytes(range) { a in
            otherText.withBytes(otherRange) { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
    }
}
