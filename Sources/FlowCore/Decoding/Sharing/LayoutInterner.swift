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
/// The layouts are kept in a ``SpellingTable``, which never grows: a page of
/// all-different layouts costs a box per widget, as without interning, and never a table
/// that grows with the page; and when its lookups keep missing the interner rests
/// (``SharingPolicy/widgetParts``), so such a page hashes few of its layouts.
struct LayoutInterner {
    private var byText = SpellingTable<LayoutBox?>()
    private var lookups = LookupWindow()

    /// The box for the layout `decode` reads (nil for the default layout), reused when the
    /// same text was decoded before. `text` is the layout's text in `document`, the
    /// decode's own (nil on the reference path).
    mutating func box(for text: SourceText?, in document: JSONDocument?, decode: () throws -> WidgetLayout) rethrows -> LayoutBox? {
        guard let text, let document, text.lies(in: document), lookups.looks() else { return LayoutBox.boxing(try decode()) }
        // The decode context holds the document for the whole decode.
        let known = byText.value(spelled: text, in: document.retainedView.bytes)
        lookups.count(hit: known != nil, under: .widgetParts)
        if let known { return known }
        let box = LayoutBox.boxing(try decode())
        byText.remember(box, spelled: text)
        return box
    }
}
