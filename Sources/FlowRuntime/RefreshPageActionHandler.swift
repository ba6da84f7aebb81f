import FlowCore

/// `refresh_page`: `{ "type": "refresh_page" }` — awaits ``PageStore/refresh()`` (the page
/// stays shown while it reloads; see there for what a failure does).
///
/// Without a store in the context (it is gone, or the action came from somewhere without a
/// page) there is nothing to refresh: the action is left unclaimed, with a note.
public struct RefreshPageActionHandler: ActionHandler {
    public init() {}

    public var actionTypes: Set<String>? { ["refresh_page"] }

    public func handle(_ action: ActionData, context: ActionContext) async -> Bool {
        guard action.type == "refresh_page" else { return false }
        guard let store = context.store else {
            context.note("refresh_page: no page store in the context")
            return false
        }
        await store.refresh()
        return true
    }
}
