import FlowCore

/// `api`: `{ "type": "api", …anything }` — sends the whole action object through the host's
/// loader as a `.action` request, applies the mutations it answers with to the page, and
/// shows the response's toast (see ``PageStore/performAPI(_:)``). The runtime performs no
/// HTTP: what the keys next to `type` mean is between the host's loader and its backend.
///
/// The action is claimed whatever the round trip comes to; a failure, a dropped response
/// and a malformed response toast are noted in the log. Without a store in the context the
/// action is left unclaimed, with a note.
public struct APIActionHandler: ActionHandler {
    public init() {}

    public var actionTypes: Set<String>? { ["api"] }

    public func handle(_ action: ActionData, context: ActionContext) async -> Bool {
        guard action.type == "api" else { return false }
        guard let store = context.store else {
            context.note("api: no page store in the context to send it through")
            return false
        }
        let result = await store.performAPI(action)
        switch result.outcome {
        case .applied:
            if result.mutations == nil { context.note("api: no page shown, mutations not applied") }
            if let toast = result.toast {
                switch ToastPayload.read(toast) {
                case .success(let t): context.presenter.show(toast: t.message, duration: t.duration)
                case .failure(let problem): context.note("api: malformed response toast, not shown: \(problem)")
                }
            }
        case .failed(let error):
            context.note("api failed: \(error)")
        case .superseded:
            context.note("api: response dropped, the page it was for has been replaced")
        case .cancelled:
            context.note("api: response dropped, cancelled")
        case .skipped:
            break
        }
        return true
    }
}
