/// One dispatch, as logged by ``ActionDispatcher`` (in every build).
///
/// `handledBy` is the name of the handler that claimed the action, or nil when none did: a
/// host type nobody registered, or a typo (`toasts` for `toast`). That is how such mistakes
/// are found; an unhandled action is never an error.
public struct ActionLogEntry: Sendable, Equatable, CustomStringConvertible {
    public var type: String
    public var sourceWidgetID: String?
    public var handledBy: String?
    /// What handlers noted while handling it (see ``ActionContext/note(_:)``).
    public var notes: [String]

    public init(type: String, sourceWidgetID: String?, handledBy: String?, notes: [String] = []) {
        self.type = type
        self.sourceWidgetID = sourceWidgetID
        self.handledBy = handledBy
        self.notes = notes
    }

    public var description: String {
        let head = "\(type) from \(sourceWidgetID ?? "-"): \(handledBy ?? "unhandled")"
        return notes.isEmpty ? head : head + " (\(notes.joined(separator: "; ")))"
    }
}
