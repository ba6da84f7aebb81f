/// When a decode's sharing caches (``ExtrasInterner``'s rings, ``StringCache``) stop
/// looking for a while.
///
/// A cache counts its lookups in windows. A window that closes with too few hits means the
/// page's values differ (every label unique, every style its own), so the cache rests: the
/// next values are made without a lookup, and only the window after the rest looks again.
/// Such a page pays for one window of lookups in every rest, not for a lookup per value,
/// and a page that repeats itself later is still found out.
struct LookupWindow {
    private var lookups = 0
    private var hits = 0
    private var resting = 0

    /// Whether the cache looks the next value up; false while it rests (one value of the
    /// rest is spent).
    @inline(__always)
    mutating func looks() -> Bool {
        if resting == 0 { return true }
        resting -= 1
        return false
    }

    /// Counts one lookup. When it closes a window of `window` lookups with fewer than
    /// `minimumHits` hits, the cache rests for the next `rest` values.
    @inline(__always)
    mutating func count(hit: Bool, window: Int, minimumHits: Int, rest: Int) {
        lookups += 1
        if hit { hits += 1 }
        guard lookups == window else { return }
        if hits < minimumHits { resting = rest }
        lookups = 0
        hits = 0
    }
}
