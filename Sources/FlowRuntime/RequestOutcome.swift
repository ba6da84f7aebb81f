import FlowCore

/// What became of one request of a ``PageStore``.
public enum RequestOutcome: Sendable, Equatable {
    /// The response took effect.
    case applied
    /// The request failed, and the failure took effect (``PageStore/lastError``, and for a
    /// load or refresh the failed state).
    case failed(PageStoreError)
    /// Dropped on arrival: a newer load was started after it, or the page it was for has been
    /// replaced since (a load, a refresh, a `replace_page`). A slower earlier response never
    /// overwrites a newer one.
    case superseded
    /// Dropped: ``PageStore/cancelInFlight()`` ran, or the task awaiting it was cancelled
    /// (``ActionDispatcher/cancelInFlight()``), while it was in flight.
    case cancelled
    /// Not sent: nothing to do (no next page, or one already on its way).
    case skipped

    /// Whether the response was dropped without effect (superseded or cancelled).
    public var wasDropped: Bool {
        switch self {
        case .superseded, .cancelled: true
        default: false
        }
    }
}
