import FlowJSON

/// The caches one decode shares what is spelled alike through, each under its
/// ``SharingPolicy``.
///
/// Layouts are shared on every fast decode (``LayoutInterner``); the rest only in
/// documents of `PageDecodingOptions.sharingMinimumBytes` and more on the fast path, where
/// the text to compare is at hand: atoms' out-of-line fields (``ExtrasInterner``), long
/// strings (``StringCache``), and widgets' content, actions and arrays
/// (``WidgetInterner``). The reference path shares nothing.
struct DecodeSharing {
    /// One box per distinct widget layout of the page.
    var layouts = LayoutInterner()
    /// The atoms' out-of-line fields, shared between atoms spelled alike.
    var extras: ExtrasInterner
    /// Long strings spelled alike (when ``sharesParts``).
    var strings = StringCache()
    /// Widgets' content, actions and arrays spelled alike; nil in a decode that does not
    /// share, so that a small decode carries one word.
    let widgetParts: WidgetInterner?

    init(document: JSONDocument?, options: PageDecodingOptions) {
        let shares = (document?.byteCount ?? 0) >= options.sharingMinimumBytes
        extras = ExtrasInterner(sharing: shares)
        widgetParts = if let document, shares { WidgetInterner(document: document) } else { nil }
    }

    /// Whether this decode shares strings and widgets' parts: when it has the interner.
    var sharesParts: Bool { widgetParts != nil }
}
