import FlowCore

/// `toast`: `{ "type": "toast", "message": "Saved", "duration": 2.5 }` — shows the message
/// through the presenter for `duration` seconds (2.5 when absent).
///
/// A malformed toast (no string `message`, a `duration` that is not a non-negative number)
/// is still claimed, with a note in the log saying what is wrong: letting it fall through
/// would log it as unhandled, which points at the wrong mistake. Nothing is shown.
public struct ToastActionHandler: ActionHandler {
    public init() {}

    public var actionTypes: Set<String>? { ["toast"] }

    public func handle(_ action: ActionData, context: ActionContext) async -> Bool {
        guard action.type == "toast" else { return false }
        switch ToastPayload.read(action.raw) {
        case .success(let toast): context.presenter.show(toast: toast.message, duration: toast.duration)
        case .failure(let problem): context.note("malformed toast, not shown: \(problem) in \(action.raw)")
        }
        return true
    }
}
