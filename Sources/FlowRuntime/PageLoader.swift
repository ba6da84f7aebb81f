import FlowCore

/// The host's side of every round trip: bytes for a ``PageRequest``.
///
/// A loader answers an initial load, a refresh and a next page with a page document
/// (`{"page": …}`), and an action with a mutation response (`{"mutations": […]}`). Throwing
/// fails that request (see ``PageStoreError``); the store decides what a failure does to the
/// page (the page contract, "Pagination and refresh").
///
/// `load` is `nonisolated(nonsending)`: it starts on the caller's executor, which for a
/// ``PageStore`` is the main actor, and stays there until it suspends. A loader that awaits
/// the network suspends at once and costs the main actor nothing; one that does heavy
/// synchronous work (reading a large file, say) should move it behind its own `await`. The
/// benefit is that a loader answering from memory (a cache, a test script) completes without
/// an executor hop, which keeps tests and benchmarks deterministic.
///
/// Cancellation is cooperative: when a request is cancelled (a load by
/// ``PageStore/cancelInFlight()`` or by the load that supersedes it; an `api` round trip by
/// ``ActionDispatcher/cancelInFlight()``), the task running `load` is cancelled. A loader may
/// stop early by throwing; one that ignores it is harmless, because the store drops a response
/// that arrives for a request it no longer wants.
public protocol PageLoader: Sendable {
    nonisolated(nonsending) func load(_ request: PageRequest) async throws -> [UInt8]
}

/// A ``PageLoader`` made of a closure.
///
///     let loader = PageLoaderClosure { request in try await backend.fetch(request) }
public struct PageLoaderClosure: PageLoader {
    private let body: nonisolated(nonsending) @Sendable (PageRequest) async throws -> [UInt8]

    public init(_ body: nonisolated(nonsending) @escaping @Sendable (PageRequest) async throws -> [UInt8]) {
        self.body = body
    }

    public func load(_ request: PageRequest) async throws -> [UInt8] { try await body(request) }
}
