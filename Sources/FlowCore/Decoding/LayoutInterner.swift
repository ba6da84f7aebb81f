#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlowJSON

/// Decodes each distinct widget layout text of a page once, and hands every widget that
/// spells it the same way one shared box.
///
/// Pages repeat a few layouts (a design system's paddings, radii and backgrounds) across
/// thousands of widgets; a box per widget would spend a few hundred bytes on each copy, and
/// decoding each copy again costs more than hashing its text. A box is immutable (a widget
/// given a new layout gets a new box), so sharing is invisible, and decoding a layout
/// depends on nothing but its text, so equal text gives an equal layout.
///
/// Only the fast path interns (it has the text); the reference path boxes every layout.
/// At most ``limit`` texts are remembered: a page of all-different layouts costs a box per
/// widget, as without interning, and never a table that grows with the page.
struct LayoutInterner {
    static let limit = 256
    private var byText: [UInt64: (text: SourceText, box: LayoutBox?)] = [:]

    /// The box for the layout `decode` reads (nil for the default layout), reused when the
    /// same text was decoded before.
    mutating func box(for text: SourceText?, decode: () throws -> WidgetLayout) rethrows -> LayoutBox? {
        guard let text else { return LayoutBox.boxing(try decode()) }
        if let known = byText[text.hash], known.text.spellsTheSame(as: text) { return known.box }
        let box = LayoutBox.boxing(try decode())
        // A hash shared by two texts keeps the first; the second just goes unshared. (The
        // second lookup runs once per distinct text, at most `limit` times.)
        if byText.count < Self.limit, byText[text.hash] == nil { byText[text.hash] = (text, box) }
        return box
    }
}

/// A value's text in a scanned document: the document, where the text lies in it, and a
/// hash of it.
package struct SourceText: Sendable {
    let document: JSONDocument
    let range: Range<Int>
    let hash: UInt64

    /// Whether the two texts are the same bytes (the documents may differ).
    func spellsTheSame(as other: SourceText) -> Bool {
        guard hash == other.hash, range.count == other.range.count else { return false }
        return document.withView { a in
            other.document.withView { b in
                memcmp(a.bytes.baseAddress! + range.lowerBound, b.bytes.baseAddress! + other.range.lowerBound, range.count) == 0
            }
        }
    }
}
