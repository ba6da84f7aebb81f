import FlowCore

/// The headless presenter: records what a UI would show in response to actions — a toast
/// with its expiry, a bottom sheet, a request to dismiss the page — so that a renderer can
/// draw it and a test can check it.
///
/// Time comes from an injected clock (seconds, any origin): a toast shown at `t` with
/// duration `d` is ``currentToast`` until `t + d` and gone after, with no timer. Tests pass a
/// clock they advance by hand.
@MainActor
public final class Presenter {
    /// A toast as shown.
    public struct Toast: Sendable, Equatable {
        public var message: String
        /// Seconds on screen (2.5 unless the action says otherwise).
        public var duration: Double
        /// Clock reading when it was shown.
        public var shownAt: Double
        /// Clock reading from which it is no longer shown.
        public var expiresAt: Double { shownAt + duration }

        public init(message: String, duration: Double, shownAt: Double) {
            self.message = message
            self.duration = duration
            self.shownAt = shownAt
        }
    }

    /// One thing the presenter did, for the record.
    public enum Event: Sendable, Equatable {
        case toast(Toast)
        /// A sheet was presented (by id; the sheet itself is ``Presenter/sheet``).
        case presentedSheet(id: String)
        /// `dismiss` closed the sheet with this id.
        case dismissedSheet(id: String)
        /// `dismiss` ran the host's ``Presenter/onDismiss``.
        case hostDismissed
        /// `dismiss` raised ``Presenter/dismissRequested``: the host should leave the page.
        case dismissRequested
    }

    /// The default toast duration, in seconds (the page contract, "Actions").
    public nonisolated static let defaultToastDuration = 2.5

    private let now: @MainActor () -> Double
    private var events: RingBuffer<Event>

    /// The last toast shown, expired or not (see ``currentToast``).
    public private(set) var lastToast: Toast?
    /// The sheet shown, if any.
    public private(set) var sheet: Sheet?
    /// What decoding ``sheet`` recorded (paths start at `sheet`).
    public private(set) var sheetDiagnostics: [Diagnostic] = []
    /// Raised by `dismiss` when neither a host callback nor a sheet took it: the page asks
    /// its host to leave (pop, close). The host clears it with ``acknowledgeDismiss()``.
    public private(set) var dismissRequested = false
    /// When set, `dismiss` calls this instead of touching a sheet or raising the flag: a host
    /// that embeds the page in its own navigation pops here.
    public var onDismiss: (@MainActor () -> Void)?

    /// A presenter reading `now` for toast expiry; keeps the last `historyLimit` events.
    public init(historyLimit: Int = 256, now: @escaping @MainActor () -> Double = Presenter.monotonicClock()) {
        self.now = now
        self.events = RingBuffer(capacity: historyLimit)
    }

    /// Seconds since it was made, from the monotonic clock: the default clock.
    public static func monotonicClock() -> @MainActor () -> Double {
        let clock = ContinuousClock()
        let origin = clock.now
        return {
            let elapsed = (clock.now - origin).components
            return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        }
    }

    /// The toast on screen now: the last one shown, until it expires.
    public var currentToast: Toast? {
        guard let lastToast, now() < lastToast.expiresAt else { return nil }
        return lastToast
    }

    /// What happened, oldest first (the most recent `historyLimit` events).
    public var history: [Event] { events.elements }

    /// Shows a toast, replacing the one on screen.
    public func show(toast message: String, duration: Double = Presenter.defaultToastDuration) {
        let toast = Toast(message: message, duration: duration, shownAt: now())
        lastToast = toast
        events.append(.toast(toast))
    }

    /// Presents a bottom sheet, replacing the one shown.
    public func present(_ sheet: Sheet, diagnostics: [Diagnostic] = []) {
        self.sheet = sheet
        sheetDiagnostics = diagnostics
        events.append(.presentedSheet(id: sheet.id))
    }

    /// What the `dismiss` action does: the host's ``onDismiss`` if set; else closes the sheet
    /// if one is shown; else raises ``dismissRequested`` for the host to act on.
    public func dismiss() {
        if let onDismiss {
            events.append(.hostDismissed)
            onDismiss()
        } else if let shown = sheet {
            sheet = nil
            sheetDiagnostics = []
            events.append(.dismissedSheet(id: shown.id))
        } else {
            dismissRequested = true
            events.append(.dismissRequested)
        }
    }

    /// The host has acted on ``dismissRequested``.
    public func acknowledgeDismiss() { dismissRequested = false }
}
