/// Limits the scanner enforces before it trusts a document.
///
/// Both limits fail cleanly with a ``JSONSyntaxError``; neither can be switched off, because
/// hostile input must never cost more than time and memory linear in its size.
public struct JSONScanOptions: Sendable, Hashable {
    /// The deepest nesting accepted. The root container is depth 1, so the default accepts
    /// 512 nested arrays and refuses 513, as Foundation does.
    public var maximumDepth: Int {
        get { _maximumDepth }
        set { _maximumDepth = min(max(newValue, 1), Self.depthCeiling) }
    }

    /// The largest document accepted, in bytes. `nil` means only the scanner's own ceiling
    /// (``JSONScanOptions/absoluteMaximumDocumentSize``, 1 GiB - 1).
    public var maximumDocumentSize: Int?

    /// How many threads may scan a large document at once (1, the default, scans on the
    /// caller's thread). The document is cut into parts where an array element begins, the
    /// parts are scanned at once and joined; the index, and any error, are those of a
    /// scan on one thread (a cut that turns out to fall inside a string, or any part that
    /// fails, is rescanned on the caller's thread). Parts are at least 64 KiB.
    public var threads: Int

    private var _maximumDepth: Int

    /// No configuration may ask for more than this depth: every tree walk in the library is
    /// then bounded well inside a default thread stack, including recursive deinitialisation
    /// of deeply nested values.
    public static let depthCeiling = 4096

    /// The size past which no document can be indexed (offsets are 30 bits).
    public static let absoluteMaximumDocumentSize = TapeEntry.maximumDocumentSize

    public init(maximumDepth: Int = 512, maximumDocumentSize: Int? = nil, threads: Int = 1) {
        self._maximumDepth = min(max(maximumDepth, 1), Self.depthCeiling)
        self.maximumDocumentSize = maximumDocumentSize
        self.threads = threads
    }

    /// The document-size limit in force: the configured one, never above the ceiling.
    var effectiveMaximumDocumentSize: Int {
        min(maximumDocumentSize ?? Self.absoluteMaximumDocumentSize, Self.absoluteMaximumDocumentSize)
    }
}
