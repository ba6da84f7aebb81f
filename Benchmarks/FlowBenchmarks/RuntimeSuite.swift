import FlowCore
import FlowJSON
import FlowRuntime
import FlowWorkloads
import Synchronization

extension Suites {
    // MARK: Runtime (the headless dispatcher and page store)

    /// Dispatches per operation in the dispatch benchmarks, and api round trips per operation
    /// in the round-trip ones: one call is long enough to time, the same work every call.
    static let runtimeBatch = 1_000

    static var runtime: [Benchmark] {
        var result: [Benchmark] = []
        // Host handlers that do not declare their types: the dispatcher asks each in turn (an
        // async call per handler), the walk the seed describes. Then the same chain with the
        // types declared, which the dispatcher indexes: only the claiming handler is asked.
        // (The workload is the smallest generated page; dispatching does not read it.)
        for (handlers, declared) in [(50, false), (1, false), (50, true)] {
            let name = "runtime.dispatch/" + (handlers == 1 ? "1-handler" : declared ? "\(handlers)-typed-handlers" : "\(handlers)-handlers")
            let peers: [Benchmark.Peer] = handlers == 1 ? []
                : declared ? [.init(name: "runtime.dispatch/50-handlers", label: "vs asking every handler")]
                : [.init(name: "runtime.dispatch/1-handler", label: "vs a 1-handler chain")]
            result.append(Benchmark(
                name, "Dispatch 1,000 actions through a \(handlers)-handler chain" + (declared ? " of handlers declaring their types" : "")
                    + ", claimed by the oldest handler (log included)",
                workload: .page(widgets: 1_000), quick: !declared, peers: peers) { _ in
                let (dispatcher, context, action) = MainActor.assumeIsolated { () -> (ActionDispatcher, ActionContext, ActionData) in
                    let dispatcher = ActionDispatcher(builtIns: false)
                    for i in 0..<handlers { dispatcher.register(TypeHandler(type: "host_\(i)", declared: declared)) }
                    return (dispatcher, ActionContext(sourceWidgetID: "card_1", presenter: Presenter(now: Suites.steppingClock())), ActionData(type: "host_0"))
                }
                return Operation {
                    Suites.runOnMainActor { () -> Int in
                        var claimed = 0
                        for _ in 0..<runtimeBatch where await dispatcher.dispatch(action, context: context) { claimed += 1 }
                        precondition(claimed == runtimeBatch, "the chain claimed \(claimed) of \(runtimeBatch) dispatches")
                        return claimed
                    }
                }
            })
        }

        let size = label(10_000)
        result.append(Benchmark(
            "runtime.api-round-trips/\(size)",
            "1,000 api round trips on a 10k-widget page: dispatch, scripted loader, read the response, replace one widget in place, show the toast",
            workload: .page(widgets: 10_000), quick: true,
            peers: [.init(name: "runtime.api-round-trips.direct/\(size)", label: "vs decode+apply without the runtime")]) { w in
            let responses = Suites.replaceResponses(w)
            let loader = ScriptedBenchLoader(page: w.bytes, responses: responses)
            let (store, dispatcher, context) = MainActor.assumeIsolated { () -> (PageStore, ActionDispatcher, ActionContext) in
                let store = PageStore(pageID: "home", loader: loader, registry: LoadedWorkload.registry, options: LoadedWorkload.decoding)
                return (store, ActionDispatcher(), ActionContext(sourceWidgetID: "card", store: store, presenter: Presenter(now: Suites.steppingClock())))
            }
            let api = ActionData(type: "api", fields: ["endpoint": "favourites/toggle"])
            /// Section body widgets: what a replacement keeps (the replaced widget's nested
            /// items may differ), and cheap to count inside the timed operation.
            @MainActor func bodyWidgets() -> Int { store.page?.sections.reduce(0) { $0 + $1.widgets.count } ?? 0 }
            let body = Suites.runOnMainActor { () -> Int in
                let loaded = await store.load()
                precondition(loaded == .applied, "the page did not load: \(loaded)")
                // One round trip, checked, so that the figures are of work that happens.
                _ = await dispatcher.dispatch(api, context: context)
                precondition(store.lastMutationOutcome?.applied == 1 && store.lastMutationOutcome?.failed == 0,
                             "a round trip did not apply: \(String(describing: store.lastMutationOutcome))")
                precondition(context.presenter.lastToast?.message == "Added to favourites", "the response's toast was not shown")
                return bodyWidgets()
            }
            loader.rewind()
            return Operation(bytes: responses.reduce(0) { $0 + $1.count }) {
                Suites.runOnMainActor { () -> Int in
                    for _ in 0..<runtimeBatch { _ = await dispatcher.dispatch(api, context: context) }
                    precondition(bodyWidgets() == body, "the page changed size")
                    return store.lastMutationOutcome?.applied ?? 0
                }
            }
        })
        result.append(Benchmark(
            "runtime.api-round-trips.direct/\(size)",
            "The same 1,000 responses read and applied straight to the page (decodeMutations + apply), no dispatcher or store",
            workload: .page(widgets: 10_000), quick: true) { w in
            let responses = Suites.replaceResponses(w)
            let decoder = LoadedWorkload.decoder
            var page = w.ownPage()
            return Operation(bytes: responses.reduce(0) { $0 + $1.count }) {
                var applied = 0
                for response in responses {
                    applied += decoder.apply(try! decoder.decodeMutations(response), to: &page).applied
                }
                return applied
            }
        })
        return result
    }

    /// 1,000 small `api` responses, each replacing one widget spread over the page (the
    /// replacement keeps the id, so the page is the same size after every round trip and an
    /// operation does the same work each time it runs).
    static func replaceResponses(_ w: LoadedWorkload) -> [[UInt8]] {
        let targets = Suites.targets(w).prefix(runtimeBatch)
        precondition(targets.count == runtimeBatch, "the page has only \(targets.count) body widgets to target")
        return targets.map { id in
            Array(#"{"mutations":[{"kind":"replace_widget","id":"\#(id)","widget":{"type":"title_block","data":{"title":"Favourited","subtitle":{"text":"Saved to your list"}},"actions":{"tap":{"type":"toast","message":"Saved"}}}}],"toast":{"message":"Added to favourites"}}"#.utf8)
        }
    }

    /// The presenter's clock in the runtime benchmarks: one millisecond further each time it
    /// is read. Toasts expire as in an app, and no count depends on how long the machine took:
    /// the monotonic clock's readings differ from run to run, and so did the instructions of
    /// the arithmetic on them (`runtime.api-round-trips/10k`, 2,288 of 44.02M, on a busy
    /// machine).
    @MainActor static func steppingClock() -> @MainActor () -> Double {
        var seconds = 0.0
        return {
            seconds += 0.001
            return seconds
        }
    }

    /// Runs main-actor async work to completion inside a synchronous benchmark operation.
    ///
    /// The worker calls `prepare` and every operation on the main thread (`flow`'s `main`
    /// calls `Worker.run` directly), so `MainActor.assumeIsolated` holds, and `Task.immediate`
    /// starts the work on the main actor synchronously, running it until its first
    /// suspension. The runtime suspends only where its loader does (`PageLoader.load` runs on
    /// the caller's actor), and the in-memory loaders here answer without suspending, so the
    /// whole batch finishes before `Task.immediate` returns: what is timed is the runtime's
    /// own work, with no executor hop and no scheduler in it. Should anything ever suspend,
    /// the rest would wait on the main queue, which nothing drains here; the precondition
    /// turns that into a failure instead of a figure for half the work.
    static func runOnMainActor<T: Sendable>(_ body: @escaping @MainActor () async -> T) -> T {
        MainActor.assumeIsolated {
            var result: T?
            Task.immediate { @MainActor in result = await body() }
            guard let result else {
                preconditionFailure("the runtime benchmark suspended: its work did not complete synchronously")
            }
            return result
        }
    }
}

/// A host handler that claims one type: what a chain of host handlers (deeplinks, tabs,
/// analytics) looks like.
private struct TypeHandler: ActionHandler {
    let type: String
    /// Whether it tells the dispatcher its type in advance.
    let declared: Bool
    var name: String { type }
    var actionTypes: Set<String>? { declared ? [type] : nil }

    func handle(_ action: ActionData, context: ActionContext) async -> Bool { action.type == type }
}

/// An in-memory loader: the page for loads, then the scripted responses in turn for actions.
private final class ScriptedBenchLoader: PageLoader {
    let page: [UInt8]
    let responses: [[UInt8]]
    private let next = Atomic<Int>(0)

    init(page: [UInt8], responses: [[UInt8]]) {
        self.page = page
        self.responses = responses
    }

    /// Starts the responses over (after the checked round trip of `prepare`).
    func rewind() { next.store(0, ordering: .relaxed) }

    func load(_ request: PageRequest) async throws -> [UInt8] {
        switch request.kind {
        case .action:
            let k = next.add(1, ordering: .relaxed).oldValue
            return responses[k % responses.count]
        case .initial, .refresh, .nextPage:
            return page
        }
    }
}
