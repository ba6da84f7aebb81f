import FlowCore

/// Where an action comes from and what it may act on: handed to every handler of a dispatch.
///
/// The store is held weakly, as in the original: an action in flight must not keep a page
/// alive that its screen has let go of (a handler that needs it checks for nil and declines).
@MainActor
public struct ActionContext: Sendable {
    /// The widget the action came from (nil for actions from elsewhere: a nav button, a
    /// host).
    public var sourceWidgetID: String?
    /// The page store the action acts on, if it is still alive.
    public weak var store: PageStore?
    /// What the action shows: toasts, sheets, dismissal.
    public let presenter: Presenter

    /// The dispatcher running the current dispatch (set by it).
    weak var dispatcher: ActionDispatcher?
    /// Which dispatch this context belongs to, for notes.
    var dispatchID: UInt64 = 0
    /// Redispatches above this one.
    var depth = 0

    public init(sourceWidgetID: String? = nil, store: PageStore? = nil, presenter: Presenter) {
        self.sourceWidgetID = sourceWidgetID
        self.store = store
        self.presenter = presenter
    }

    /// How deep redispatches go: a composite handler redispatches a few levels, so a depth
    /// past this is a loop (an action that unwraps to itself), refused rather than run forever.
    public static let maxRedispatchDepth = 16

    /// Dispatches another action through the whole chain, from the same source: what a
    /// composite handler (a sequence, an action that unwraps another) does. Logged as a
    /// dispatch of its own.
    ///
    /// - Returns: whether a handler claimed it; false outside a dispatch, and past
    ///   ``maxRedispatchDepth``.
    @discardableResult
    public func redispatch(_ action: ActionData) async -> Bool {
        guard let dispatcher else { return false }
        var inner = self
        inner.depth += 1
        return await dispatcher.dispatch(action, context: inner)
    }

    /// Attaches a note to this dispatch's log entry: what a handler that claimed an action
    /// could not do with it (a malformed toast, a sheet that does not decode), so that it is
    /// found in the log rather than lost. A note made after the dispatch finished is dropped.
    public func note(_ message: String) {
        dispatcher?.addNote(message, to: dispatchID)
    }
}
