import FlowCore

/// What every command runs with: the host's widget types.
struct ToolContext: Sendable {
    /// The registry every page decodes through (`flow` passes the starter types).
    var registry: WidgetRegistry
}
