import FlowCore

/// `dismiss`: `{ "type": "dismiss" }` — the host's dismiss callback if set, else closes the
/// sheet shown, else raises the presenter's dismiss-requested signal for the host to leave the
/// page (see ``Presenter/dismiss()``). There is no router to pop: the presenter signals, the
/// host pops.
public struct DismissActionHandler: ActionHandler {
    public init() {}

    public var actionTypes: Set<String>? { ["dismiss"] }

    public func handle(_ action: ActionData, context: ActionContext) async -> Bool {
        guard action.type == "dismiss" else { return false }
        context.presenter.dismiss()
        return true
    }
}
