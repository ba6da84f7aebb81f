import FlowCore
import FlowJSON
import FlowRuntime
import FlowWidgets
import Foundation

/// A loader whose every request waits until the test answers it, in whatever order the test
/// likes: out-of-order completions, failures and cancellation without a single sleep.
///
///     let task = Task { await store.refresh() }
///     let call = await loader.nextCall()   // suspends until the store has asked
///     call.respond(pageB)
///     await task.value
final class ScriptedLoader: PageLoader {
    /// One request, waiting for its answer.
    final class Call: Sendable {
        let request: PageRequest
        private struct State {
            var continuation: CheckedContinuation<[UInt8], any Error>?
            var early: Result<[UInt8], any Error>?
            var resolved = false
            var cancelled = false
        }
        private let state = Locked(State())

        init(request: PageRequest) { self.request = request }

        /// Whether the store cancelled the task waiting for this answer.
        var wasCancelled: Bool { state.withLock { $0.cancelled } }

        func respond(_ bytes: [UInt8]) { resolve(.success(bytes)) }

        func respond(_ text: String) { resolve(.success(Array(text.utf8))) }

        func fail(_ error: any Error = LoaderFailure.offline) { resolve(.failure(error)) }

        fileprivate func install(_ continuation: CheckedContinuation<[UInt8], any Error>) {
            let early: Result<[UInt8], any Error>? = state.withLock { s in
                if let early = s.early { return early }
                s.continuation = continuation
                return nil
            }
            if let early { continuation.resume(with: early) }
        }

        fileprivate func markCancelled(throwing: Bool) {
            state.withLock { $0.cancelled = true }
            if throwing { resolve(.failure(CancellationError())) }
        }

        private func resolve(_ result: Result<[UInt8], any Error>) {
            let continuation: CheckedContinuation<[UInt8], any Error>? = state.withLock { s in
                guard !s.resolved else { return nil }
                s.resolved = true
                if let c = s.continuation {
                    s.continuation = nil
                    return c
                }
                s.early = result
                return nil
            }
            continuation?.resume(with: result)
        }
    }

    private struct State {
        var unclaimed: [Call] = []
        var waiters: [CheckedContinuation<Call, Never>] = []
        var requests: [PageRequest] = []
    }
    private let state = Locked(State())
    /// Whether a cancelled request throws `CancellationError` at once (a loader that honours
    /// cancellation) or keeps waiting for the test's answer (one that ignores it).
    let honorsCancellation: Bool

    init(honorsCancellation: Bool = false) { self.honorsCancellation = honorsCancellation }

    /// Every request so far, in order.
    var requests: [PageRequest] { state.withLock { $0.requests } }

    func load(_ request: PageRequest) async throws -> [UInt8] {
        let call = Call(request: request)
        let waiter: CheckedContinuation<Call, Never>? = state.withLock { s in
            s.requests.append(request)
            if s.waiters.isEmpty {
                s.unclaimed.append(call)
                return nil
            }
            return s.waiters.removeFirst()
        }
        waiter?.resume(returning: call)
        let honors = honorsCancellation
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { call.install($0) }
        } onCancel: {
            call.markCancelled(throwing: honors)
        }
    }

    /// The next request not handed out yet, waiting for it if need be.
    func nextCall() async -> Call {
        await withCheckedContinuation { (c: CheckedContinuation<Call, Never>) in
            let ready: Call? = state.withLock { s in
                if s.unclaimed.isEmpty {
                    s.waiters.append(c)
                    return nil
                }
                return s.unclaimed.removeFirst()
            }
            if let ready { c.resume(returning: ready) }
        }
    }
}

enum LoaderFailure: Error { case offline }

/// A loader that answers at once, by request kind, and records what it was asked.
final class InstantLoader: PageLoader {
    private let answer: @Sendable (PageRequest) throws -> [UInt8]
    private let log = Locked<[PageRequest]>([])

    init(_ answer: @escaping @Sendable (PageRequest) throws -> [UInt8]) { self.answer = answer }

    /// Pages for loads and refreshes (in turn, the last one repeating), `response` for actions.
    convenience init(pages: [String], next: String? = nil, response: String? = nil) {
        let counter = Locked(0)
        self.init { request in
            switch request.kind {
            case .initial, .refresh:
                let k = counter.withLock { n in defer { n += 1 }; return n }
                return Array(pages[min(k, pages.count - 1)].utf8)
            case .nextPage:
                guard let next else { throw LoaderFailure.offline }
                return Array(next.utf8)
            case .action:
                guard let response else { throw LoaderFailure.offline }
                return Array(response.utf8)
            }
        }
    }

    var requests: [PageRequest] { log.withLock { $0 } }

    func load(_ request: PageRequest) async throws -> [UInt8] {
        log.withLock { $0.append(request) }
        return try answer(request)
    }
}

/// A clock the test moves by hand.
@MainActor
final class TestClock {
    var now: Double
    init(_ now: Double = 100) { self.now = now }
    var read: @MainActor () -> Double { { self.now } }
}

/// Documents shared by the tests.
enum Fixture {
    /// Two sections; pagination with a postback holding an integer past 2^53.
    static let pageA = #"""
        {"page": {"id": "home", "nav": {"title": "Home"},
          "sections": [
            {"id": "s1", "widgets": [
              {"type": "title_block", "id": "t1", "data": {"title": "Hello"}},
              {"type": "image_text_card", "id": "c1", "data": {"title": "Card"},
               "actions": {"tap": {"type": "api", "endpoint": "fav", "card": 9007199254740993, "extra": {"b": [1, 2.50], "a": null}}}}]},
            {"id": "s2", "widgets": [
              {"type": "separator", "id": "sep"}]}],
          "pagination": {"has_more": true, "postback": {"cursor": 9007199254740993, "tag": "x"}}}}
        """#

    /// pageA refreshed: c1 changed, c2 new, sep gone.
    static let pageB = #"""
        {"page": {"id": "home", "nav": {"title": "Home"},
          "sections": [
            {"id": "s1", "widgets": [
              {"type": "title_block", "id": "t1", "data": {"title": "Hello"}},
              {"type": "image_text_card", "id": "c1", "data": {"title": "Card, updated"}},
              {"type": "image_text_card", "id": "c2", "data": {"title": "New"}}]},
            {"id": "s2", "widgets": []}],
          "pagination": {"has_more": false}}}
        """#

    static let pageC = #"{"page": {"id": "home", "sections": [{"id": "s9", "widgets": [{"type": "title_block", "id": "z", "data": {"title": "C"}}]}]}}"#

    static let next = #"""
        {"page": {"id": "ignored", "nav": {"title": "ignored"},
          "sections": [{"id": "s3", "widgets": [{"type": "title_block", "id": "t2", "data": {"title": "More"}}]}],
          "pagination": {"has_more": false}}}
        """#

    static let emptyPage = #"{"page": {"id": "home", "sections": [{"id": "s1", "widgets": []}], "pagination": {"has_more": true, "postback": 1}}}"#

    static let favourite = #"""
        {"mutations": [{"kind": "replace_widget", "id": "c1", "widget": {"type": "title_block", "data": {"title": "Favourited"}}}],
         "toast": {"message": "Added to favourites", "duration": 4}}
        """#
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// An action built in code from its JSON text (`type` first).
func action(_ json: String) -> ActionData {
    let object = try! JSONValue(parsing: bytes(json)).objectValue!
    return ActionData(type: object["type"]!.stringValue!, fields: object)
}

func ids(_ page: Page?) -> [String] { page?.allWidgets.map(\.id) ?? [] }

func keys(_ diagnostics: [Diagnostic]) -> [String] { diagnostics.map(\.key.description) }

extension Presenter {
    static func testing(_ clock: TestClock) -> Presenter { Presenter(now: clock.read) }
}

/// A value behind a lock, for the test doubles above.
///
/// Not `Synchronization.Mutex`: on Linux it locks with atomics and futexes inside the standard
/// library, which is not built with ThreadSanitizer, so `swift test --sanitize=thread` cannot
/// see its happens-before edges and reports the state it guards as raced (now and then, when
/// two threads touch it close together). `NSLock` is a pthread mutex, which ThreadSanitizer
/// intercepts, so a race it reports here is a real one.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
