import Testing
import FlowCore
import FlowJSON
import FlowRuntime
import FlowWidgets

/// the page contract, "Pagination and refresh" and seed 001: load, refresh, pagination, ordering and cancellation, driven by a
/// scripted loader the tests answer by hand (no sleeps anywhere).
@Suite @MainActor struct PageStoreTests {
    let counter = WidgetStateKey<Int>("count")

    /// A store showing `document`, and its scripted loader.
    func loaded(_ document: String = Fixture.pageA, honorsCancellation: Bool = false) async -> (PageStore, ScriptedLoader) {
        let loader = ScriptedLoader(honorsCancellation: honorsCancellation)
        let store = PageStore(pageID: "home", loader: loader, registry: FlowWidgets.registry)
        let task = Task { await store.load() }
        await loader.nextCall().respond(document)
        #expect(await task.value == .applied)
        return (store, loader)
    }

    @Test func loadGoesFromIdleThroughLoadingToLoaded() async {
        let loader = ScriptedLoader()
        let store = PageStore(pageID: "home", loader: loader, registry: FlowWidgets.registry)
        #expect(store.state == .idle)
        #expect(store.page == nil)
        let task = Task { await store.load() }
        let call = await loader.nextCall()
        #expect(call.request == PageRequest(pageID: "home", kind: .initial))
        #expect(store.state == .loading)
        #expect(store.inFlightCount == 1)
        call.respond(#"{"page": {"id": "home", "sections": [{"widgets": [{"type": "title_block", "data": {"title": "Hi"}}, {"type": "hologram"}]}]}}"#)
        #expect(await task.value == .applied)
        #expect(store.state == .loaded)
        #expect(store.page?.id == "home")
        #expect(keys(store.lastDiagnostics) == ["unknown_type page.sections.0.widgets.1 (hologram)"])
        #expect(store.lastError == nil)
        #expect(store.lastRefreshDiff == nil)
        #expect(store.inFlightCount == 0)
    }

    @Test func aPageWithNoWidgetsIsEmpty() async {
        let (store, _) = await loaded(Fixture.emptyPage)
        #expect(store.state == .empty)
        #expect(store.page?.sections.map(\.id) == ["s1"])
    }

    @Test func aFailedLoadEntersTheFailedState() async {
        let loader = ScriptedLoader()
        let store = PageStore(pageID: "home", loader: loader, registry: FlowWidgets.registry)
        let first = Task { await store.load() }
        await loader.nextCall().fail()
        let failure = PageStoreError(request: PageRequest(pageID: "home", kind: .initial), reason: .loader(LoaderFailure.offline))
        #expect(await first.value == .failed(failure))
        #expect(store.state == .failed(failure))
        #expect(store.lastError == failure)
        #expect(store.page == nil)

        // A document that fails as a whole fails the load too; a retry starts from loading.
        let second = Task { await store.load() }
        await loader.nextCall().respond(#"{"pages": {}}"#)
        guard case .failed(let error) = await second.value else { Issue.record("expected a failure"); return }
        #expect(error.isDocumentFailure)
        #expect(store.state == .failed(error))

        let third = Task { await store.load() }
        let call = await loader.nextCall()
        #expect(store.state == .loading)
        call.respond(Fixture.pageA)
        #expect(await third.value == .applied)
        #expect(store.state == .loaded)
        #expect(store.lastError == nil)
    }

    @Test func refreshKeepsThePageShownThenReplacesItResetsWidgetStateAndReportsTheDiff() async throws {
        let (store, loader) = await loaded()
        let old = try #require(store.page)
        store.widgetState[id: "c1", key: counter] = 3
        let resets = store.widgetState.resetCount

        let task = Task { await store.refresh() }
        let call = await loader.nextCall()
        #expect(call.request.kind == .refresh)
        #expect(store.state == .loaded)
        #expect(store.isRefreshing)
        #expect(store.page == old)
        #expect(store.widgetState[id: "c1", key: counter] == 3)

        call.respond(Fixture.pageB)
        #expect(await task.value == .applied)
        #expect(!store.isRefreshing)
        let new = try #require(store.page)
        #expect(ids(new) == ["t1", "c1", "c2"])
        #expect(store.widgetState.isEmpty)
        #expect(store.widgetState.resetCount == resets + 1)
        let diff = try #require(store.lastRefreshDiff)
        #expect(diff == PageDiff(old: old, new: new))
        #expect(diff.widgets.inserted.map(\.id) == ["c2"])
        #expect(diff.widgets.removed.map(\.id) == ["sep"])
        #expect(diff.widgets.updated.map(\.id) == ["c1"])
        #expect(!diff.navChanged)
    }

    @Test func aFailedRefreshEntersTheFailedState() async {
        let (store, loader) = await loaded()
        store.widgetState[id: "c1", key: counter] = 1
        let task = Task { await store.refresh() }
        await loader.nextCall().fail()
        guard case .failed(let error) = await task.value else { Issue.record("expected a failure"); return }
        #expect(error.request.kind == .refresh)
        #expect(store.state == .failed(error))
        #expect(store.page == nil)
        #expect(!store.isRefreshing)
        #expect(store.widgetState.isEmpty)

        // With no page shown, a refresh shows loading.
        let retry = Task { await store.refresh() }
        let call = await loader.nextCall()
        #expect(store.state == .loading)
        #expect(!store.isRefreshing)
        call.respond(Fixture.pageB)
        #expect(await retry.value == .applied)
        #expect(store.state == .loaded)
        #expect(store.lastRefreshDiff == nil)  // nothing was shown to diff against
    }

    @Test func aSlowerEarlierRefreshNeverOverwritesANewerOne() async {
        let (store, loader) = await loaded()
        let first = Task { await store.refresh() }
        let firstCall = await loader.nextCall()
        let second = Task { await store.refresh() }
        let secondCall = await loader.nextCall()
        #expect(firstCall.wasCancelled)  // superseded: the host may stop working on it

        secondCall.respond(Fixture.pageC)
        #expect(await second.value == .applied)
        #expect(ids(store.page) == ["z"])
        #expect(!store.isRefreshing)

        firstCall.respond(Fixture.pageB)  // arrives last, and is older
        #expect(await first.value == .superseded)
        #expect(ids(store.page) == ["z"])
        #expect(store.state == .loaded)
    }

    @Test func anEarlierRefreshArrivingFirstIsDroppedTooAndItsFailureDoesNotCount() async {
        let (store, loader) = await loaded()
        let first = Task { await store.refresh() }
        let firstCall = await loader.nextCall()
        let second = Task { await store.refresh() }
        let secondCall = await loader.nextCall()

        firstCall.fail()
        #expect(await first.value == .superseded)
        #expect(store.state == .loaded)  // not failed: a newer refresh is on its way
        #expect(store.isRefreshing)
        #expect(ids(store.page) == ["t1", "c1", "sep"])

        secondCall.respond(Fixture.pageB)
        #expect(await second.value == .applied)
        #expect(ids(store.page) == ["t1", "c1", "c2"])
        #expect(!store.isRefreshing)
    }

    @Test func aLoadSupersedesARefreshInFlight() async {
        let (store, loader) = await loaded()
        let refresh = Task { await store.refresh() }
        let refreshCall = await loader.nextCall()
        let load = Task { await store.load() }
        let loadCall = await loader.nextCall()
        #expect(store.state == .loading)
        #expect(store.page == nil)
        #expect(!store.isRefreshing)
        loadCall.respond(Fixture.pageC)
        refreshCall.respond(Fixture.pageB)
        #expect(await load.value == .applied)
        #expect(await refresh.value == .superseded)
        #expect(ids(store.page) == ["z"])
    }

    @Test func theNextPageEchoesThePostbackExactlyAndAppends() async throws {
        let (store, loader) = await loaded()
        store.widgetState[id: "c1", key: counter] = 7
        #expect(store.canLoadNextPage)

        let task = Task { await store.loadNextPage() }
        let call = await loader.nextCall()
        guard case .nextPage(let postback) = call.request.kind else { Issue.record("not a next page"); return }
        let echoed = try #require(postback)
        #expect(String(decoding: echoed.jsonBytes, as: UTF8.self) == #"{"cursor":9007199254740993,"tag":"x"}"#)
        #expect(store.isLoadingNextPage)
        #expect(!store.canLoadNextPage)
        #expect(await store.loadNextPage() == .skipped)  // one at a time

        call.respond(Fixture.next)
        #expect(await task.value == .applied)
        #expect(store.page?.sections.map(\.id) == ["s1", "s2", "s3"])
        #expect(ids(store.page) == ["t1", "c1", "sep", "t2"])
        #expect(store.page?.id == "home")
        #expect(store.page?.nav?.title?.text == "Home")
        #expect(store.page?.pagination == Pagination(hasMore: false))
        #expect(store.widgetState[id: "c1", key: counter] == 7)
        #expect(!store.isLoadingNextPage)

        // No more pages: nothing is asked.
        #expect(await store.loadNextPage() == .skipped)
        #expect(loader.requests.count == 2)
    }

    @Test func aFailedNextPageLeavesAHealthyPageAsItWas() async throws {
        let (store, loader) = await loaded()
        let before = try #require(store.page)
        for answer in [nil, "{not json", #"{"page": 3}"#] {
            let task = Task { await store.loadNextPage() }
            let call = await loader.nextCall()
            if let answer { call.respond(answer) } else { call.fail() }
            guard case .failed(let error) = await task.value else { Issue.record("expected a failure"); return }
            #expect(error.isDocumentFailure == (answer != nil))
            #expect(store.page == before)
            #expect(store.state == .loaded)
            #expect(store.lastError == error)
            #expect(store.canLoadNextPage)  // the same call retries
        }
        let retry = Task { await store.loadNextPage() }
        await loader.nextCall().respond(Fixture.next)
        #expect(await retry.value == .applied)
        #expect(store.lastError == nil)
    }

    @Test func aNextPageForAPageThatWasReplacedIsDropped() async {
        let (store, loader) = await loaded()
        let next = Task { await store.loadNextPage() }
        let nextCall = await loader.nextCall()
        let refresh = Task { await store.refresh() }
        await loader.nextCall().respond(Fixture.pageC)
        #expect(await refresh.value == .applied)
        #expect(!store.isLoadingNextPage)

        nextCall.respond(Fixture.next)
        #expect(await next.value == .superseded)
        #expect(ids(store.page) == ["z"])
    }

    @Test func cancelInFlightStopsALoadAndDropsItsLateResponse() async {
        for honors in [false, true] {
            let loader = ScriptedLoader(honorsCancellation: honors)
            let store = PageStore(pageID: "home", loader: loader, registry: FlowWidgets.registry)
            let task = Task { await store.load() }
            let call = await loader.nextCall()
            store.cancelInFlight()
            #expect(call.wasCancelled)
            #expect(store.state == .idle)
            call.respond(Fixture.pageA)  // ignored when the loader already threw
            #expect(await task.value == .cancelled)
            #expect(store.state == .idle)
            #expect(store.page == nil)
            #expect(store.lastError == nil)
            #expect(store.inFlightCount == 0)
        }
    }

    @Test func cancelInFlightDuringARefreshKeepsThePageShown() async {
        let (store, loader) = await loaded()
        let before = store.page
        let refresh = Task { await store.refresh() }
        let refreshCall = await loader.nextCall()
        let next = Task { await store.loadNextPage() }
        let nextCall = await loader.nextCall()
        store.cancelInFlight()
        #expect(!store.isRefreshing)
        #expect(!store.isLoadingNextPage)
        refreshCall.respond(Fixture.pageB)
        nextCall.respond(Fixture.next)
        #expect(await refresh.value == .cancelled)
        #expect(await next.value == .cancelled)
        #expect(store.page == before)
        #expect(store.state == .loaded)
        // Still usable.
        let again = Task { await store.refresh() }
        await loader.nextCall().respond(Fixture.pageB)
        #expect(await again.value == .applied)
    }

    @Test func cancellingTheAwaitingTaskCancelsTheRequest() async {
        let loader = ScriptedLoader()
        let store = PageStore(pageID: "home", loader: loader, registry: FlowWidgets.registry)
        let task = Task { await store.load() }
        let call = await loader.nextCall()
        task.cancel()
        #expect(call.wasCancelled)
        call.respond(Fixture.pageA)
        #expect(await task.value == .cancelled)
        #expect(store.state == .idle)
    }

    @Test func emptyAndLoadedFollowTheWidgets() async {
        let (store, loader) = await loaded(Fixture.emptyPage)
        #expect(store.state == .empty)
        let next = Task { await store.loadNextPage() }
        await loader.nextCall().respond(Fixture.next)
        #expect(await next.value == .applied)
        #expect(store.state == .loaded)

        let api = Task { await store.performAPI(action(#"{"type": "api"}"#)) }
        await loader.nextCall().respond(#"{"mutations": [{"kind": "remove_widget", "id": "t2"}]}"#)
        #expect(await api.value.outcome == .applied)
        #expect(store.state == .empty)
    }

    @Test func replacePageStartsANewPageLife() async {
        let (store, loader) = await loaded()
        store.widgetState[id: "c1", key: counter] = 2
        let next = Task { await store.loadNextPage() }
        let nextCall = await loader.nextCall()

        let api = Task { await store.performAPI(action(#"{"type": "api"}"#)) }
        await loader.nextCall().respond(#"{"mutations": [{"kind": "replace_page", "page": {"id": "home", "sections": [{"widgets": [{"type": "separator", "id": "c1"}]}]}}]}"#)
        let result = await api.value
        #expect(result.outcome == .applied)
        #expect(result.mutations?.applied == 1)
        #expect(ids(store.page) == ["c1"])
        #expect(store.widgetState.isEmpty)  // c1 names another widget now
        #expect(!store.isLoadingNextPage)

        nextCall.respond(Fixture.next)  // was for the old page
        #expect(await next.value == .superseded)
        #expect(ids(store.page) == ["c1"])
    }

    @Test func widgetStateSurvivesPaginationAndOrdinaryMutations() async {
        let (store, loader) = await loaded()
        store.widgetState[id: "t1", key: counter] = 5
        let next = Task { await store.loadNextPage() }
        await loader.nextCall().respond(Fixture.next)
        _ = await next.value
        let api = Task { await store.performAPI(action(#"{"type": "api"}"#)) }
        await loader.nextCall().respond(Fixture.favourite)
        #expect(await api.value.toast != nil)
        #expect(store.widgetState[id: "t1", key: counter] == 5)
    }

    @Test func transactionalMutationsApplyAllOrNothing() async {
        let loader = InstantLoader(pages: [Fixture.pageA], response: #"""
            {"mutations": [{"kind": "remove_widget", "id": "sep"}, {"kind": "remove_widget", "id": "missing"}]}
            """#)
        let store = PageStore(pageID: "home", loader: loader, registry: FlowWidgets.registry, transactionalMutations: true)
        await store.load()
        let before = store.page
        let result = await store.performAPI(action(#"{"type": "api"}"#))
        #expect(result.outcome == .applied)
        #expect(result.mutations?.committed == false)
        #expect(store.page == before)
        #expect(keys(store.lastDiagnostics) == ["mutation_target_missing mutations.1"])
    }

    @Test func anAPIResponseWithNoPageShownStillReturnsItsToast() async {
        let loader = InstantLoader(pages: [], response: Fixture.favourite)
        let store = PageStore(pageID: "home", loader: loader, registry: FlowWidgets.registry)
        let result = await store.performAPI(action(#"{"type": "api"}"#))
        #expect(result.outcome == .applied)
        #expect(result.mutations == nil)
        #expect(result.toast != nil)
        #expect(store.page == nil)
        #expect(store.state == .idle)
    }

    /// `PageLoader.load` runs on the caller's actor: a loader answering from memory costs no
    /// executor hop, so a load, and a whole api round trip started by a tap, finish before
    /// the code that started them goes on (the benchmarks rely on it).
    @Test func aLoaderAnsweringFromMemoryCompletesWithoutSuspending() {
        let store = PageStore(pageID: "home", loader: InstantLoader(pages: [Fixture.pageA], response: Fixture.favourite), registry: FlowWidgets.registry)
        var outcome: RequestOutcome?
        Task.immediate { @MainActor in outcome = await store.load() }
        #expect(outcome == .applied)

        let dispatcher = ActionDispatcher()
        let presenter = Presenter.testing(TestClock())
        dispatcher.send(action(#"{"type": "api"}"#), context: ActionContext(store: store, presenter: presenter))
        #expect(presenter.lastToast?.message == "Added to favourites")
        #expect(store.lastMutationOutcome?.applied == 1)
        #expect(dispatcher.inFlightCount == 0)
        #expect(store.inFlightCount == 0)
    }

    @Test func requestsCarryThePageIDTheStoreWasMadeFor() async {
        let loader = InstantLoader(pages: [#"{"page": {"id": "declared", "sections": []}}"#])
        let store = PageStore(pageID: "asked", loader: loader, registry: FlowWidgets.registry)
        await store.load()
        await store.refresh()
        #expect(loader.requests.map(\.pageID) == ["asked", "asked"])
        #expect(store.page?.id == "declared")
        #expect(store.state == .empty)
    }
}

@Suite @MainActor struct WidgetStateStoreTests {
    @Test func stateIsKeptByWidgetIDAndKey() {
        let state = WidgetStateStore()
        let count = WidgetStateKey<Int>("count")
        let expanded = WidgetStateKey<Bool>("expanded")
        #expect(state[id: "a", key: count] == nil)
        #expect(state.value(for: "a", count, default: 4) == 4)
        state[id: "a", key: count] = 1
        state[id: "a", key: expanded] = true
        state[id: "b", key: count] = 2
        #expect(state[id: "a", key: count] == 1)
        #expect(state[id: "a", key: expanded] == true)
        #expect(state.widgetIDs == ["a", "b"])
        // A key read as another type is absent, not a crash.
        #expect(state[id: "a", key: WidgetStateKey<String>("count")] == nil)

        state[id: "a", key: count] = nil
        state[id: "a", key: expanded] = nil
        #expect(state.widgetIDs == ["b"])
        state.removeState(for: "b")
        #expect(state.isEmpty)

        state[id: "c", key: count] = 3
        state.reset()
        #expect(state.isEmpty)
        #expect(state.resetCount == 1)
    }
}

@Suite @MainActor struct PresenterTests {
    @Test func historyIsBoundedAndOldestFirst() {
        let clock = TestClock(0)
        let presenter = Presenter(historyLimit: 2, now: clock.read)
        for i in 0..<3 {
            clock.now = Double(i)
            presenter.show(toast: "t\(i)")
        }
        #expect(presenter.history == [.toast(.init(message: "t1", duration: 2.5, shownAt: 1)), .toast(.init(message: "t2", duration: 2.5, shownAt: 2))])
        #expect(presenter.currentToast?.message == "t2")
    }

    @Test func theDefaultClockMovesForward() {
        let now = Presenter.monotonicClock()
        let a = now()
        let b = now()
        #expect(a >= 0)
        #expect(b >= a)
    }
}
