/// When a cache of the decode's sharing stops looking values up, and for how long.
///
/// Every cache that reuses what is spelled alike (``ExtrasInterner``'s rings,
/// ``StringCache``, ``WidgetInterner``'s parts, ``LayoutInterner``) counts its lookups in
/// windows of ``window``. A window that closes with fewer than ``minimumHits`` hits says
/// that the page's values of that kind differ (every label unique, every card its own), so
/// the cache rests for the next ``rest`` values: they are made without a lookup. Such a
/// page pays for one window of lookups per rest, not for a lookup per value, and a page
/// that repeats itself further on is still found out by the window after the rest.
///
/// The caches differ only in their policy and in their own lookup; the counting is
/// ``LookupWindow``'s.
struct SharingPolicy {
    /// Lookups per window.
    let window: Int
    /// The fewest hits in a window for the cache to go on looking.
    let minimumHits: Int
    /// Values made without a lookup after a window with too few hits.
    let rest: Int

    init(window: Int, minimumHits: Int, rest: Int = SharingPolicy.standardRest) {
        self.window = window
        self.minimumHits = minimumHits
        self.rest = rest
    }

    /// The rest every cache takes: long beside a window (a resting page pays for about one
    /// lookup in 64 values), short beside a large page (one of 100,000 widgets looks again
    /// about a hundred times).
    static var standardRest: Int { 1024 }

    /// Atoms' out-of-line fields (``ExtrasInterner``): a design system's few styles repeat
    /// closely, so a ring whose window finds fewer than a quarter hits rests.
    @inline(__always) static var atoms: SharingPolicy { SharingPolicy(window: 16, minimumHits: 4) }

    /// Long strings (``StringCache``): labels repeat among unique titles, so a longer
    /// window with a few hits pays for its lookups.
    @inline(__always) static var strings: SharingPolicy { SharingPolicy(window: 64, minimumHits: 2) }

    /// Widgets' content, actions and arrays, and their layouts (``WidgetInterner``,
    /// ``LayoutInterner``): a short window, since each stretch of a parallel decode has
    /// caches of its own and pays for a window of each part it meets.
    @inline(__always) static var widgetParts: SharingPolicy { SharingPolicy(window: 16, minimumHits: 2) }
}

/// One cache's count of its lookups under a ``SharingPolicy``: whether it looks now, and
/// when it rests.
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

    /// Counts one lookup. When it closes a window with fewer hits than `policy` asks for,
    /// the cache rests for the policy's rest.
    @inline(__always)
    mutating func count(hit: Bool, under policy: SharingPolicy) {
        lookups += 1
        if hit { hits += 1 }
        guard lookups == policy.window else { return }
        if hits < policy.minimumHits { resting = policy.rest }
        lookups = 0
        hits = 0
    }
}
