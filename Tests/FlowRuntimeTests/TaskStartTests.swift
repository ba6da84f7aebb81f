import Testing
import FlowCore
import FlowRuntime
import FlowWidgets

/// The two ways the runtime starts its tasks (``TaskStart``): at once where the OS has
/// `Task.immediate`, enqueued on the OS releases before it. Linux has it, so the fallback is
/// selected explicitly here: it must do everything but run before `send` returns.
@Suite @MainActor struct TaskStartTests {
    let clock = TestClock()

    func context(store: PageStore? = nil, presenter: Presenter) -> ActionContext {
        ActionContext(sourceWidgetID: "w1", store: store, presenter: presenter)
    }

    @Test func enqueuedSendRunsOnTheNextTurnAndIsRetainedUntilThen() async {
        let dispatcher = ActionDispatcher(taskStart: .enqueued)
        let presenter = Presenter.testing(clock)
        let task = dispatcher.send(action(#"{"type": "toast", "message": "Later"}"#), context: context(presenter: presenter))
        // Not run yet: this is the route, not the immediate one (which shows the toast here).
        #expect(presenter.lastToast == nil)
        #expect(dispatcher.inFlightCount == 1, "retained, so that cancelInFlight can stop it")
        #expect(await task.value)
        #expect(presenter.lastToast?.message == "Later")
        #expect(dispatcher.inFlightCount == 0)
        #expect(dispatcher.log.last?.handledBy == "ToastActionHandler")
    }

    @Test func enqueuedSendCanBeCancelledBeforeItRuns() async {
        let dispatcher = ActionDispatcher(taskStart: .enqueued)
        let presenter = Presenter.testing(clock)
        let task = dispatcher.send(action(#"{"type": "toast", "message": "Never"}"#), context: context(presenter: presenter))
        dispatcher.cancelInFlight()
        _ = await task.value
        #expect(dispatcher.inFlightCount == 0)
    }

    @Test func immediateSendHasRunWhenItReturns() async {
        let dispatcher = ActionDispatcher(taskStart: .immediateWhereAvailable)
        let presenter = Presenter.testing(clock)
        let task = dispatcher.send(action(#"{"type": "toast", "message": "Now"}"#), context: context(presenter: presenter))
        #expect(presenter.lastToast?.message == "Now")
        #expect(await task.value)
    }

    @Test func anEnqueuedLoaderRoundTripLoadsRefreshesAndPaginatesAsTheImmediateOneDoes() async {
        var pages: [Page?] = []
        for start in [TaskStart.immediateWhereAvailable, .enqueued] {
            let loader = InstantLoader(pages: [Fixture.pageA, Fixture.pageB])
            let store = PageStore(pageID: "home", loader: loader, registry: FlowWidgets.registry, taskStart: start)
            await store.load()
            #expect(store.state == .loaded, "\(start)")
            #expect(await store.refresh() == .applied, "\(start)")
            #expect(store.inFlightCount == 0, "\(start)")
            pages.append(store.page)
        }
        #expect(pages[0] != nil && pages[0] == pages[1])
    }

    @Test func anEnqueuedRoundTripIsCancelledWithTheStore() async {
        let loader = ScriptedLoader()
        let store = PageStore(pageID: "home", loader: loader, registry: FlowWidgets.registry, taskStart: .enqueued)
        let loading = Task { await store.load() }
        let call = await loader.nextCall()
        store.cancelInFlight()
        #expect(call.wasCancelled)
        call.respond(Fixture.pageA)
        _ = await loading.value
        #expect(store.page == nil)
        #expect(store.state == .idle)
    }
}
