import FlowCore

/// One link of the action chain: claims the actions it understands.
///
/// ``ActionDispatcher`` asks its handlers newest first; the first to return true consumes
/// the action. Return false for any type that is not yours — a handler that claims every
/// type disables the built-ins — and when you claim one, do what it asks (present, or decide
/// explicitly not to) before returning true: nothing after you will run.
///
///     struct DeeplinkHandler: ActionHandler {
///         struct Payload: Decodable { let url: String }
///         func handle(_ action: ActionData, context: ActionContext) async -> Bool {
///             guard action.type == "deeplink", let payload = try? action.payload(Payload.self) else { return false }
///             await router.open(payload.url)
///             return true
///         }
///     }
///
/// Handlers run on the main actor, where the store and presenter live.
///
/// A handler that knows in advance which types it may claim says so in ``actionTypes``: the
/// dispatcher then asks it for those types only, and skips it for the rest without a call
/// (an async call through the chain costs a few hundred instructions of executor checks;
/// skipping costs nothing). Declaring types changes nothing else: the order of the chain and
/// the first-true rule are the same.
@MainActor
public protocol ActionHandler {
    /// Shown in the action log for the actions it claims; the type's name by default.
    var name: String { get }

    /// The action types this handler may claim, when it can say in advance; read once, when
    /// it is registered. Nil (the default) asks it about every action.
    var actionTypes: Set<String>? { get }

    /// Handles `action` and returns true, or returns false to let the chain go on.
    func handle(_ action: ActionData, context: ActionContext) async -> Bool
}

extension ActionHandler {
    public var name: String { String(describing: Self.self) }

    public var actionTypes: Set<String>? { nil }
}

/// An ``ActionHandler`` made of a closure.
///
///     dispatcher.register(ClosureActionHandler(name: "deeplink") { action, context in
///         guard action.type == "deeplink" else { return false }
///         …
///         return true
///     })
public struct ClosureActionHandler: ActionHandler {
    public let name: String
    public let actionTypes: Set<String>?
    private let body: @MainActor (ActionData, ActionContext) async -> Bool

    /// A handler asked about `types` only (every type when nil).
    public init(name: String, types: Set<String>? = nil,
                _ body: @escaping @MainActor (ActionData, ActionContext) async -> Bool) {
        self.name = name
        self.actionTypes = types
        self.body = body
    }

    public func handle(_ action: ActionData, context: ActionContext) async -> Bool { await body(action, context) }
}
