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
    ///
    /// - Complexity: O(log n) to read (events are sorted by name); O(n) to add or remove.
    public subscript(event: String) -> ActionData? {
        get { position(of: event).found ? events[position(of: event).index].action : nil }
        set {
            let (i, found) = position(of: event)
            if found {
                if let newValue { events[i].action = newValue } else { events.remove(at: i) }
            } else if let newValue {
                events.insert(Event(name: event, action: newValue), at: i)
            }
        }
    }

    /// Where `event` is, or where it would go to keep the names sorted.
    private func position(of event: String) -> (index: Int, found: Bool) {
        var low = 0, high = events.count
        while low < high {
            let mid = (low + high) / 2
            if events[mid].name < event { low = mid + 1 } else { high = mid }
        }
        return (low, low < events.count && events[low].name == event)
    }

    /// Whether the widget has an action for `event`.
    func contains(_ event: String) -> Bool { position(of: event).found }

    /// Events whose names are distinct, in any order: sorted in place once (most widgets
    /// send one or two events, in order, and pay only the check). In place, on the caller's
    /// array, so that the sort never copies a buffer the caller still holds.
    init(uniqueEvents events: inout [Event]) {
        if !events.isEmpty && zip(events, events.dropFirst()).contains(where: { !($0.name < $1.name) }) {
            events.sort { $0.name < $1.name }
        }
        self.events = events
    }

    public func makeIterator() -> IndexingIterator<[Event]> { events.makeIterator() }
}
