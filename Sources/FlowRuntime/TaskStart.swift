/// How the runtime starts the tasks it retains: a dispatch from ``ActionDispatcher/send(_:context:)``
/// and a loader round trip of ``PageStore``.
///
/// `Task.immediate` runs a task on the calling main-actor turn up to its first suspension, so
/// a handler or loader that answers without suspending has run before `send` returns, and a
/// loader answering from memory costs no hop. It exists from the Apple platforms' 26 releases
/// (and on Linux); on the earlier releases the package supports (iOS 16, macOS 13, tvOS 16,
/// watchOS 9) the task is enqueued on the main actor instead: it runs on the next turn, and
/// awaiting it (as `load`, `refresh` and `loadNextPage` do) still returns after it finished.
package enum TaskStart: Sendable {
    /// `Task.immediate` where the OS has it, enqueued where it does not.
    case immediateWhereAvailable
    /// Always enqueued: what an OS without `Task.immediate` does, selectable so that the
    /// tests exercise that route on any OS.
    case enqueued

    @MainActor
    func start<Success: Sendable>(_ operation: sending @escaping @MainActor () async -> Success) -> Task<Success, Never> {
        if self == .immediateWhereAvailable, #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            return Task.immediate { @MainActor in await operation() }
        }
        return Task { @MainActor in await operation() }
    }

    @MainActor
    func start<Success: Sendable>(_ operation: sending @escaping @MainActor () async throws -> Success) -> Task<Success, any Error> {
        if self == .immediateWhereAvailable, #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            return Task.immediate { @MainActor in try await operation() }
        }
        return Task { @MainActor in try await operation() }
    }
}
