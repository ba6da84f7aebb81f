import FlowCore

/// What every command runs with: the host's widget types, and the name the tool goes by.
struct ToolContext: Sendable {
    /// The registry every page decodes through (`flow` passes the starter types).
    var registry: WidgetRegistry
    /// The executable's name, in help and messages (`flow`, or a host's own tool's name; the
    /// measuring sibling speaks as the tool that handed over to it).
    var name: String = "flow"
}
