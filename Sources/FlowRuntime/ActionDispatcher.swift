import FlowCore

/// Routes actions through a chain of handlers, newest first, and logs every dispatch.
///
/// With `builtIns` (the default) the chain starts with the in-page effects of the page contract, "Actions", in
/// this order: ``ToastActionHandler``, ``DismissActionHandler``,
/// ``RefreshPageActionHandler``, ``OpenBottomSheetActionHandler``, ``APIActionHandler``.
/// ``register(_:)`` appends; a dispatch walks the chain from the last registered to the
/// first and stops at the first handler that returns true. So a host handler adds a type
/// (`deeplink`: navigation is the host's, there is no router here) or overrides a built-in
/// by claiming its type. Handlers that declare their types (``ActionHandler/actionTypes``,
/// as every built-in does) are asked about those types only.
///
/// Every dispatch appends an ``ActionLogEntry`` when it finishes (type, source widget id,
/// the claiming handler's name or nil, and any notes); an action nobody claims is logged
/// with nil and otherwise ignored. The log keeps the most recent `logLimit` entries.
///
/// ``send(_:context:)`` starts a dispatch from synchronous code (a tap) as a task the
/// dispatcher retains, so that ``cancelInFlight()`` can stop it when the page goes away.
@MainActor
public final class ActionDispatcher {
    private struct Link {
        let handler: any ActionHandler
        /// Read once: the log names the handler on every dispatch.
        let name: String
    }

    private var chain: [Link] = []
    /// Positions in `chain`, ascending, of the handlers that declared each type.
    private var byType: [String: [Int]] = [:]
    /// Positions in `chain`, ascending, of the handlers asked about every type.
    private var anyType: [Int] = []
    private var entries: RingBuffer<ActionLogEntry>
    /// Notes of dispatches still running, by dispatch id (rare: empty on the fast path).
    private var pendingNotes: [UInt64: [String]] = [:]
    private var lastDispatchID: UInt64 = 0
    /// Dispatches under way (nested ones included): when none is, no note can be pending.
    private var running = 0
    /// Dispatches started by `send`, until they finish.
    private var inFlight: [UInt64: Task<Bool, Never>] = [:]
    private var lastTaskID: UInt64 = 0
    /// `send` tasks that finished before `send` could retain them (they ran synchronously).
    private var finishedEarly: Set<UInt64> = []

    /// How `send` starts its task (see ``TaskStart``).
    let taskStart: TaskStart

    /// A dispatcher with the built-in handlers (`builtIns`), keeping the last `logLimit` log
    /// entries.
    public convenience init(builtIns: Bool = true, logLimit: Int = 500) {
        self.init(builtIns: builtIns, logLimit: logLimit, taskStart: .immediateWhereAvailable)
    }

    /// The same, starting `send`'s tasks as `taskStart` says (the tests select the fallback).
    package init(builtIns: Bool = true, logLimit: Int = 500, taskStart: TaskStart) {
        self.taskStart = taskStart
        entries = RingBuffer(capacity: logLimit)
        if builtIns {
            register(ToastActionHandler())
            register(DismissActionHandler())
            register(RefreshPageActionHandler())
            register(OpenBottomSheetActionHandler())
            register(APIActionHandler())
        }
    }

    /// Appends a handler: it is asked before every handler registered earlier (about the
    /// types it declares, when it declares some; see ``ActionHandler/actionTypes``).
    public func register(_ handler: any ActionHandler) {
        let position = chain.count
        chain.append(Link(handler: handler, name: handler.name))
        if let types = handler.actionTypes {
            for type in types { byType[type, default: []].append(position) }
        } else {
            anyType.append(position)
        }
    }

    /// Handler names in registration order (the chain runs them in reverse).
    public var handlerNames: [String] { chain.map(\.name) }

    /// The log, oldest first (the most recent `logLimit` entries).
    public var log: [ActionLogEntry] { entries.elements }

    /// Dispatches so far, including those the log no longer holds.
    public var dispatchCount: Int { entries.totalCount }

    public func clearLog() { entries.removeAll() }

    /// Offers `action` to each handler, newest first, until one claims it; logs the dispatch.
    ///
    /// The handlers asked are those that declared the action's type and those that declared
    /// none, merged in chain order; the others would have declined, so they are skipped.
    /// Handlers registered while a dispatch runs take part from the next dispatch on.
    ///
    /// - Returns: whether a handler claimed it.
    /// - Complexity: one hash of the type, then O(handlers asked), plus what the claiming
    ///   handler does.
    @discardableResult
    public func dispatch(_ action: ActionData, context: ActionContext) async -> Bool {
        lastDispatchID &+= 1
        var context = context
        context.dispatcher = self
        context.dispatchID = lastDispatchID
        guard context.depth <= ActionContext.maxRedispatchDepth else {
            let note = "refused: redispatched more than \(ActionContext.maxRedispatchDepth) levels deep (a loop?)"
            entries.append(ActionLogEntry(type: action.type, sourceWidgetID: context.sourceWidgetID, handledBy: nil,
                                          notes: [note]))
            return false
        }
        running += 1
        defer { running -= 1 }
        // Snapshots (copies of array references): a handler may register another while awaiting.
        let chain = self.chain
        let typed = byType[action.type] ?? []
        let untyped = anyType
        var handledBy: String?
        var t = typed.count - 1
        var u = untyped.count - 1
        while t >= 0 || u >= 0 {
            // Newest first across both lists.
            let i: Int
            if u < 0 || (t >= 0 && typed[t] > untyped[u]) {
                i = typed[t]
                t -= 1
            } else {
                i = untyped[u]
                u -= 1
            }
            if await chain[i].handler.handle(action, context: context) {
                handledBy = chain[i].name
                break
            }
        }
        var notes: [String] = []
        if !pendingNotes.isEmpty {
            notes = pendingNotes.removeValue(forKey: context.dispatchID) ?? []
            // Notes from a context kept past its dispatch belong to no entry: drop them.
            if running == 1 { pendingNotes.removeAll() }
        }
        entries.append(ActionLogEntry(type: action.type, sourceWidgetID: context.sourceWidgetID, handledBy: handledBy,
                                      notes: notes))
        return handledBy != nil
    }

    /// Dispatches the action a widget declares for `event` (`tap`, `long_press`, `change`,
    /// …), with the widget as the source. An event the widget does not declare does nothing
    /// and is not logged: widgets without actions stay passive.
    @discardableResult
    public func dispatch(event: String, of widget: Widget, context: ActionContext) async -> Bool {
        guard let action = widget.actions[event] else { return false }
        var context = context
        context.sourceWidgetID = widget.id
        return await dispatch(action, context: context)
    }

    /// Starts a dispatch from synchronous code (a tap), retained until it finishes so that
    /// ``cancelInFlight()`` can stop it.
    ///
    /// The task starts immediately on the main actor where the OS has `Task.immediate`:
    /// everything up to the first suspension (a toast, a sheet, a dismiss: all of them)
    /// happens before `send` returns. On earlier OS releases it runs on the main actor's next
    /// turn (see `TaskStart`).
    @discardableResult
    public func send(_ action: ActionData, context: ActionContext) -> Task<Bool, Never> {
        lastTaskID &+= 1
        let id = lastTaskID
        let task = taskStart.start { @MainActor in
            let handled = await self.dispatch(action, context: context)
            if self.inFlight.removeValue(forKey: id) == nil { self.finishedEarly.insert(id) }
            return handled
        }
        if finishedEarly.remove(id) == nil { inFlight[id] = task }
        return task
    }

    /// Dispatches started with ``send(_:context:)`` that have not finished.
    public var inFlightCount: Int { inFlight.count }

    /// Cancels every dispatch started with ``send(_:context:)`` that is still running. An
    /// `api` round trip among them drops its response when it arrives (its mutations and its
    /// toast never land); the host loader sees the cancellation and may stop early.
    public func cancelInFlight() {
        for task in inFlight.values { task.cancel() }
    }

    func addNote(_ message: String, to dispatchID: UInt64) {
        pendingNotes[dispatchID, default: []].append(message)
    }
}
