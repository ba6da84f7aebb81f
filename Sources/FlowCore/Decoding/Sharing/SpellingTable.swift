/// Values remembered by the text they were decoded from, within one decode: what
/// ``WidgetInterner`` and ``LayoutInterner`` look widgets' parts up in.
///
/// ``slotCount`` slots, chosen by the text's hash, each holding the last value remembered
/// there; a value is found when its text is the same bytes. The table never grows: a page
/// of ever-new texts overwrites its slots.
struct SpellingTable<Value> {
    static var slotCount: Int { 1024 }
    /// The largest value looked up, in entries of the index (a scalar is one, a container
    /// one plus its contents'): a test of one load. Parts that repeat are small (a
    /// separator's data, a toast action, a card's tags); a large one is hashed for
    /// nothing, and a hostile one (one widget with 100,000 events) would make every
    /// decode of it pay for a table.
    static var maximumEntries: Int { 512 }

    private struct Slot {
        var text: SourceText
        let value: Value
    }

    /// Slot to the position of its value in ``kept``, plus one (0: empty). Two bytes a
    /// slot, so a decode that shares clears 2 KiB, not a table of values.
    private var table: [UInt16] = []
    /// The values remembered, at most one per slot.
    private var kept: [Slot] = []

    /// The value remembered for `text`'s bytes. Every text of one table lies in one
    /// document, whose bytes are `bytes`.
    ///
    /// A value found is kept from then on under `text`, its latest spelling: the bytes the
    /// next lookup compares are then the nearest ones, which a page that repeats a part
    /// every few widgets still has in cache. Compared with the first spelling, megabytes
    /// back in a large page, each hit would wait on memory.
    mutating func value(spelled text: SourceText, in bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        guard !table.isEmpty, case let p = Int(table[Self.slot(text)]), p != 0,
              kept[p - 1].text.spellsTheSame(as: text, in: bytes) else { return nil }
        kept[p - 1].text = text
        return kept[p - 1].value
    }

    /// Remembers `value` for `text`'s bytes, in place of what its slot held.
    mutating func remember(_ value: Value, spelled text: SourceText) {
        if table.isEmpty { table = [UInt16](repeating: 0, count: Self.slotCount) }
        let slot = Self.slot(text)
        if table[slot] != 0 {
            kept[Int(table[slot]) - 1] = Slot(text: text, value: value)
        } else {
            kept.append(Slot(text: text, value: value))
            table[slot] = UInt16(kept.count)
        }
    }

    @inline(__always)
    private static func slot(_ text: SourceText) -> Int { Int(truncatingIfNeeded: text.hash >> 32) & (slotCount - 1) }
}
