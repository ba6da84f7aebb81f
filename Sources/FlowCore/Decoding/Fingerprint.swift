import FlowJSON

/// A 64-bit fingerprint of a widget's content, for the cheap "did this widget change" test
/// a refresh diff makes on every widget.
///
/// It is the hash of the widget element's text without its `id` member
/// (`JSONTapeView.textFingerprint`): identical text gives identical fingerprints, and a
/// difference of formatting or spelling alone (`1.0` against `1`, reordered keys) can only
/// make a widget look updated, never hide an update. Computed once at decode, from the tape; widgets built or
/// changed in code hash their written JSON the same way. Not a cryptographic hash: two
/// different widgets collide with probability about 2^-64.
enum Fingerprint {
    /// Never 0: a widget stores 0 for "not computed" (an optional would cost it 8 bytes).
    static func widget(_ view: JSONTapeView, _ i: Int) -> UInt64 { max(1, view.textFingerprint(i, excluding: "id")) }

    /// The same fingerprint for a widget held only as a model: hashes its written JSON.
    static func widget(_ widget: Widget) -> UInt64 {
        var writer = JSONWriter()
        PageEncoder.write(widget, to: &writer)
        guard let document = try? JSONDocument(bytes: writer.bytes) else { return 1 }
        return document.withView { Self.widget($0, 0) }
    }
}
