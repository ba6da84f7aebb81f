import Foundation

/// Runs a step for each of `count` items in index order, as the items become ready on any
/// thread, without a thread waiting for another: the thread that finishes the next item in
/// order runs the step for it and for every ready item after it; a thread that finishes an
/// item out of order, or while another runs steps, leaves it to that one.
///
/// The steps never overlap, and each sees the memory of the steps before it and of the
/// items they run for (the lock orders them).
final class InOrderHandoff: @unchecked Sendable {
    private let lock = NSLock()
    private var ready: [Bool]
    private var next = 0
    private var stepping = false

    init(count: Int) {
        ready = Array(repeating: false, count: count)
    }

    /// Whether every item's step has run.
    var isComplete: Bool {
        lock.lock()
        defer { lock.unlock() }
        return next == ready.count
    }

    /// Marks item `k` ready, then runs `step` for the items whose turn it is, if no other
    /// thread is running steps.
    func finished(_ k: Int, step: (Int) -> Void) {
        lock.lock()
        ready[k] = true
        guard !stepping else {
            lock.unlock()
            return
        }
        stepping = true
        while next < ready.count && ready[next] {
            let item = next
            next += 1
            lock.unlock()
            step(item)
            lock.lock()
        }
        stepping = false
        lock.unlock()
    }
}
