import FlowJSON

/// A 64-bit fingerprint of a widget's content, for the cheap "did this widget change" test
/// a refresh diff makes on every widget.
///
/// It is the hash of the widget element's text without its `id` member
/// (`JSONTapeView.textFingerprint`): identical text gives identical fingerprints, and a
/// difference of formatting or spelling alone (`1.0` against `1`, reordered keys) can only
/// make a widget look updated, never hide an update. Computed once at decode, from the tape; widgets built or
/// changed in code hash their written JSON the same way (`Widget+Fingerprint.swift`, beside
/// the diff that reads it). Not a cryptographic hash: two
/// different widgets collide with probability about 2^-64.
enum Fingerprint {
    /// Never 0: a widget stores 0 for "not computed" (an optional would cost it 8 bytes).
    static func widget(_ view: JSONTapeView, _ i: Int) -> UInt64 { max(1, view.textFingerprint(i, excluding: "id")) }
}
