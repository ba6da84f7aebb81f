import FlowJSON

/// How a page is decoded.
public struct PageDecodingOptions: Sendable, Hashable {
    /// Keep widgets of an unknown type or with malformed data as placeholders instead of
    /// skipping them (the original framework does this in debug builds).
    public var placeholders: Bool
    /// Accept the page object itself at the root (`{ "id": … }`) instead of `{ "page": … }`.
    /// Paths and positional ids still start at `page`.
    public var bareRoot: Bool
    /// Depth and size limits, enforced by the scan.
    public var limits: JSONScanOptions

    public init(placeholders: Bool = false, bareRoot: Bool = false, limits: JSONScanOptions = JSONScanOptions()) {
        self.placeholders = placeholders
        self.bareRoot = bareRoot
        self.limits = limits
    }
}
