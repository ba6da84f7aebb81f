/// A problem a decode survived: what it was, where, and what the app did about it.
///
/// Decoding never throws for a widget- or section-level problem; it records one of these
/// and carries on (<doc:PageContract#Diagnostics-and-their-paths>). Two decodes agree when their diagnostics agree on `kind`,
/// `path` and `type`; `message` is for people and may differ between decode paths.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A section or widget element that is not an object, or a widget without a string `type`.
        case droppedElement = "dropped_element"
        /// A widget whose `type` nothing is registered for.
        case unknownType = "unknown_type"
        /// A registered widget whose `data` its content type could not decode.
        case malformedPayload = "malformed_payload"
        /// An optional field of the wrong shape: the field is absent, the rest survives.
        case invalidField = "invalid_field"
        /// An id already claimed: this one was renamed `id#k`.
        case duplicateID = "duplicate_id"
        /// A mutation that is not an object, has an unknown kind, or lacks what it needs.
        case unknownMutation = "unknown_mutation"
        /// A mutation whose target id matches nothing on the page.
        case mutationTargetMissing = "mutation_target_missing"
    }

    public var kind: Kind
    /// The one dotted path format: `page.sections.3.widgets.7.layout`.
    public var path: String
    /// The widget type, where known (none for page- and section-level problems).
    public var type: String?
    /// What was expected and what was found.
    public var message: String

    public init(kind: Kind, path: String, type: String? = nil, message: String) {
        self.kind = kind
        self.path = path
        self.type = type
        self.message = message
    }

    /// `kind path (type): message`
    public var description: String {
        "\(kind.rawValue) \(path)\(type.map { " (\($0))" } ?? ""): \(message)"
    }

    /// The part two decode paths must agree on.
    public struct Key: Hashable, Sendable, CustomStringConvertible {
        public var kind: Kind
        public var path: String
        public var type: String?
        public var description: String { "\(kind.rawValue) \(path)\(type.map { " (\($0))" } ?? "")" }
    }

    public var key: Key { Key(kind: kind, path: path, type: type) }
}
