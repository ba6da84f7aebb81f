/// The most recent `capacity` elements, oldest first: the action log and the presenter's
/// history are kept in all builds, so they must not grow without bound.
struct RingBuffer<Element> {
    private var storage: [Element] = []
    private var start = 0
    let capacity: Int
    /// Elements ever appended (evicted ones included).
    private(set) var totalCount = 0

    init(capacity: Int) {
        precondition(capacity >= 0, "a ring buffer needs a capacity of 0 or more, got \(capacity)")
        self.capacity = capacity
    }

    /// - Complexity: O(1) (amortized while filling).
    mutating func append(_ element: Element) {
        totalCount += 1
        guard capacity > 0 else { return }
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[start] = element
            start = (start + 1) % capacity
        }
    }

    /// Oldest first.
    ///
    /// - Complexity: O(count).
    var elements: [Element] { Array(storage[start...] + storage[..<start]) }

    var last: Element? { storage.isEmpty ? nil : storage[(start + storage.count - 1) % storage.count] }

    var count: Int { storage.count }

    mutating func removeAll() {
        storage.removeAll()
        start = 0
    }
}
