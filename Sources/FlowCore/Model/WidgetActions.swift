import FlowJSON

/// A widget's actions: event name (`tap`, `long_press`, `change`, or any other) to action.
///
/// Held as a small array sorted by event name (widgets have one or two events), so it costs
/// one allocation, compares without hashing, and writes in a stable order.
public struct WidgetActions: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Event: Sendable, Equatable {
        public var name: String
        public var action: ActionData
    }

    public private(set) var events: [Event] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, ActionData)...) {
        for (name, action) in elements { self[name] = action }
    }

    public var isEmpty: Bool { events.isEmpty }
    public var count: Int { events.count }
    public var names: [String] { events.map(\.name) }

    /// The action for an event; nil when the backend sent none (dispatching it does nothing).
    public subscript(event: String) -> ActionData? {
        get { events.first { $0.name == event }?.action }
        set {
            if let i = events.firstIndex(where: { $0.name == event }) {
                if let newValue { events[i].action = newValue } else { events.remove(at: i) }
            } else if let newValue {
                let at = events.firstIndex { $0.name > event } ?? events.count
                events.insert(Event(name: event, action: newValue), at: at)
            }
        }
    }

    /// Whether the widget has an action for `event`.
    func contains(_ event: String) -> Bool { events.contains { $0.name == event } }

    /// Adds an event the caller knows is absent, in name order (the decoder checks first).
    mutating func insertAbsent(_ name: String, _ action: ActionData) {
        // Most widgets send one event, and backends tend to send them in order: an append
        // then, not an insert (which goes through the array's general range replacement).
        guard let last = events.last, last.name > name else { return events.append(Event(name: name, action: action)) }
        let at = events.firstIndex { $0.name > name } ?? events.count
        events.insert(Event(name: name, action: action), at: at)
    }

    /// Room for `n` events in one allocation of just that size (the decoder counts first).
    mutating func reserveCapacity(_ n: Int) { events.reserveCapacity(n) }

    public func makeIterator() -> IndexingIterator<[Event]> { events.makeIterator() }
}
