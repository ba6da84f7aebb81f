/// A typed key for a piece of widget state (a stepper's count, an accordion's expansion).
///
///     extension WidgetStateKey where Value == Bool {
///         static let expanded = WidgetStateKey("expanded")
///     }
///     store.widgetState[id: "faq_1", key: .expanded] = true
public struct WidgetStateKey<Value: Sendable>: Sendable, Hashable {
    public let name: String

    public init(_ name: String) { self.name = name }
}

/// Per-widget UI state, keyed by stable widget id (the page contract, "Identity and renaming": ids key widget state).
///
/// What the user did to a widget that the server does not know (a stepper moved, an
/// accordion opened) lives here rather than in the page, so that it survives what should not
/// reset it and is dropped by what should:
/// - pagination leaves it untouched (the widgets already shown keep their ids and state);
/// - mutations leave it untouched, except `replace_page`, which starts a new page life whose
///   ids may name other widgets;
/// - a refresh (and a load, and a failed refresh) resets it: the new document is the server's
///   word on every widget.
///
/// State of a widget that a mutation removed stays until the next reset; an id freed that way
/// and claimed again by a newcomer (the page contract, "Identity and renaming") would find it, which is why explicit ids should
/// name the thing, not the slot.
@MainActor
public final class WidgetStateStore {
    private var values: [String: [String: any Sendable]] = [:]
    /// How many times the store has been reset: a renderer can compare it to drop cached
    /// view state keyed the same way.
    public private(set) var resetCount = 0

    public init() {}

    /// The state of one widget under one key; nil when none was set. Setting nil removes it.
    ///
    /// - Complexity: O(1) on average.
    public subscript<Value>(id id: String, key key: WidgetStateKey<Value>) -> Value? {
        get { values[id]?[key.name] as? Value }
        set {
            if let newValue {
                values[id, default: [:]][key.name] = newValue
            } else if values[id] != nil {
                values[id]![key.name] = nil
                if values[id]!.isEmpty { values[id] = nil }
            }
        }
    }

    /// The state of one widget under one key, or `defaultValue` when none was set (the
    /// widget's initial state, e.g. a stepper's `initial`).
    public func value<Value>(for id: String, _ key: WidgetStateKey<Value>, default defaultValue: Value) -> Value {
        self[id: id, key: key] ?? defaultValue
    }

    /// Forgets everything about one widget.
    public func removeState(for id: String) { values[id] = nil }

    /// Forgets everything (what a refresh does).
    public func reset() {
        values.removeAll()
        resetCount += 1
    }

    /// Ids holding some state, sorted.
    public var widgetIDs: [String] { values.keys.sorted() }

    public var isEmpty: Bool { values.isEmpty }
}
