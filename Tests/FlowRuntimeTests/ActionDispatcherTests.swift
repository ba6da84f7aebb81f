import Testing
import FlowCore
import FlowJSON
import FlowRuntime
import FlowWidgets

/// the page contract, "Actions" and seed 000: the handler chain, the built-in in-page effects, the log.
@Suite @MainActor struct ActionDispatcherTests {
    let clock = TestClock()

    func context(_ source: String? = "w1", store: PageStore? = nil, presenter: Presenter? = nil) -> ActionContext {
        ActionContext(sourceWidgetID: source, store: store, presenter: presenter ?? .testing(clock))
    }

    /// A loaded store over an instant loader.
    func loadedStore(response: String? = nil, registry: WidgetRegistry = FlowWidgets.registry) async -> PageStore {
        let store = PageStore(pageID: "home", loader: InstantLoader(pages: [Fixture.pageA, Fixture.pageB], response: response), registry: registry)
        await store.load()
        return store
    }

    @Test func builtInsComeFirstAndTheChainRunsNewestFirst() async {
        let dispatcher = ActionDispatcher()
        #expect(dispatcher.handlerNames == ["ToastActionHandler", "DismissActionHandler", "RefreshPageActionHandler",
                                            "OpenBottomSheetActionHandler", "APIActionHandler"])
        var asked: [String] = []
        for name in ["older", "newer"] {
            dispatcher.register(ClosureActionHandler(name: name) { action, _ in
                asked.append(name)
                return action.type == "x"
            })
        }
        #expect(await dispatcher.dispatch(action(#"{"type": "x"}"#), context: context()))
        #expect(asked == ["newer"])
        #expect(dispatcher.log.last == ActionLogEntry(type: "x", sourceWidgetID: "w1", handledBy: "newer"))

        asked = []
        #expect(await dispatcher.dispatch(action(#"{"type": "toast", "message": "Hi"}"#), context: context()) == true)
        #expect(asked == ["newer", "older"])
        #expect(dispatcher.log.last?.handledBy == "ToastActionHandler")
    }

    @Test func handlersThatDeclareTheirTypesAreAskedForThoseOnlyInChainOrder() async {
        let dispatcher = ActionDispatcher(builtIns: false)
        var asked: [String] = []
        for (name, types) in [("A", nil), ("B", ["x"]), ("C", nil), ("D", ["x", "z"]), ("E", ["y"])] as [(String, Set<String>?)] {
            dispatcher.register(ClosureActionHandler(name: name, types: types) { _, _ in
                asked.append(name)
                return false
            })
        }
        for (type, expected) in [("x", ["D", "C", "B", "A"]), ("y", ["E", "C", "A"]), ("z", ["D", "C", "A"]), ("w", ["C", "A"])] {
            asked = []
            #expect(await dispatcher.dispatch(action(#"{"type": "\#(type)"}"#), context: context()) == false)
            #expect(asked == expected, "type \(type)")
        }
        // A typed override registered after the built-ins wins for its type.
        let withBuiltIns = ActionDispatcher()
        withBuiltIns.register(ClosureActionHandler(name: "Mine", types: ["dismiss"]) { _, _ in true })
        await withBuiltIns.dispatch(action(#"{"type": "dismiss"}"#), context: context())
        #expect(withBuiltIns.log.last?.handledBy == "Mine")
    }

    @Test func aHostHandlerOverridesABuiltInForItsType() async {
        let dispatcher = ActionDispatcher()
        let presenter = Presenter.testing(clock)
        var overridden: [String] = []
        dispatcher.register(ClosureActionHandler(name: "BrandedToast") { action, _ in
            guard action.type == "toast" else { return false }
            overridden.append(action.type)
            return true
        })
        await dispatcher.dispatch(action(#"{"type": "toast", "message": "Hi"}"#), context: context(presenter: presenter))
        #expect(overridden == ["toast"])
        #expect(presenter.lastToast == nil)
        #expect(dispatcher.log.last?.handledBy == "BrandedToast")
        // Other built-ins still run.
        await dispatcher.dispatch(action(#"{"type": "dismiss"}"#), context: context(presenter: presenter))
        #expect(presenter.dismissRequested)
    }

    @Test func anUnhandledTypeIsLoggedWithNoHandlerAndNothingHappens() async {
        for dispatcher in [ActionDispatcher(), ActionDispatcher(builtIns: false)] {
            let presenter = Presenter.testing(clock)
            #expect(await dispatcher.dispatch(action(#"{"type": "toasts", "message": "typo"}"#), context: context("card", presenter: presenter)) == false)
            #expect(dispatcher.log == [ActionLogEntry(type: "toasts", sourceWidgetID: "card", handledBy: nil)])
            #expect(presenter.history.isEmpty)
        }
    }

    @Test func theLogKeepsTheMostRecentEntries() async {
        let dispatcher = ActionDispatcher(builtIns: false, logLimit: 3)
        for i in 0..<5 { await dispatcher.dispatch(action(#"{"type": "t\#(i)"}"#), context: context(nil)) }
        #expect(dispatcher.log.map(\.type) == ["t2", "t3", "t4"])
        #expect(dispatcher.dispatchCount == 5)
        dispatcher.clearLog()
        #expect(dispatcher.log.isEmpty)
    }

    @Test func aToastShowsForItsDurationOnTheInjectedClock() async {
        let dispatcher = ActionDispatcher()
        let presenter = Presenter.testing(clock)
        await dispatcher.dispatch(action(#"{"type": "toast", "message": "Saved"}"#), context: context(presenter: presenter))
        #expect(presenter.currentToast == Presenter.Toast(message: "Saved", duration: 2.5, shownAt: 100))
        clock.now = 102.49
        #expect(presenter.currentToast?.message == "Saved")
        clock.now = 102.5
        #expect(presenter.currentToast == nil)
        #expect(presenter.lastToast?.expiresAt == 102.5)

        await dispatcher.dispatch(action(#"{"type": "toast", "message": "Quick", "duration": 1}"#), context: context(presenter: presenter))
        #expect(presenter.currentToast?.expiresAt == 103.5)
        #expect(presenter.history.count == 2)
    }

    @Test(arguments: [
        #"{"type": "toast"}"#,
        #"{"type": "toast", "message": 42}"#,
        #"{"type": "toast", "message": null}"#,
        #"{"type": "toast", "message": "Hi", "duration": "long"}"#,
        #"{"type": "toast", "message": "Hi", "duration": -1}"#,
    ])
    func aMalformedToastIsClaimedAndNotedNotShown(_ json: String) async {
        let dispatcher = ActionDispatcher()
        let presenter = Presenter.testing(clock)
        #expect(await dispatcher.dispatch(action(json), context: context(presenter: presenter)))
        let entry = dispatcher.log.last
        #expect(entry?.handledBy == "ToastActionHandler")
        #expect(entry?.notes.count == 1)
        #expect(entry?.notes.first?.hasPrefix("malformed toast") == true)
        #expect(presenter.lastToast == nil)
    }

    @Test func dismissPrefersTheHostCallbackThenTheSheetThenTheSignal() async throws {
        let dispatcher = ActionDispatcher()
        let presenter = Presenter.testing(clock)
        let dismiss = action(#"{"type": "dismiss"}"#)

        await dispatcher.dispatch(dismiss, context: context(presenter: presenter))
        #expect(presenter.dismissRequested)
        presenter.acknowledgeDismiss()
        #expect(!presenter.dismissRequested)

        let sheet = try #require(PageDecoder(registry: FlowWidgets.registry).decodeSheet(RawJSON(.object(["id": "s"]))))
        presenter.present(sheet.sheet)
        await dispatcher.dispatch(dismiss, context: context(presenter: presenter))
        #expect(presenter.sheet == nil)
        #expect(!presenter.dismissRequested)

        var hostDismissals = 0
        presenter.onDismiss = { hostDismissals += 1 }
        presenter.present(sheet.sheet)
        await dispatcher.dispatch(dismiss, context: context(presenter: presenter))
        #expect(hostDismissals == 1)
        #expect(presenter.sheet != nil)
        #expect(!presenter.dismissRequested)
        #expect(presenter.history == [.dismissRequested, .presentedSheet(id: "s"), .dismissedSheet(id: "s"), .presentedSheet(id: "s"), .hostDismissed])
    }

    @Test func openBottomSheetDecodesTheSheetWithTheStoresRegistry() async {
        var registry = WidgetRegistry()
        registry.register(TitleBlock.self, as: "title_block")
        let store = await loadedStore(registry: registry)
        let dispatcher = ActionDispatcher()
        let presenter = Presenter.testing(clock)
        let open = action(#"""
            {"type": "open_bottom_sheet", "sheet": {"id": "filters", "config": {"grabber": true},
              "sections": [{"widgets": [{"type": "title_block", "data": {"title": "Filters"}}, {"type": "image_text_card", "data": {"title": "x"}}]}]}}
            """#)
        #expect(await dispatcher.dispatch(open, context: context(store: store, presenter: presenter)))
        #expect(presenter.sheet?.id == "filters")
        #expect(presenter.sheet?.config?.grabber == true)
        #expect(presenter.sheet?.sections.first?.widgets.map(\.id) == ["title_block@sheet.sections.0.widgets.0"])
        #expect(keys(presenter.sheetDiagnostics) == ["unknown_type sheet.sections.0.widgets.1 (image_text_card)"])

        // A handler with its own registry needs no store.
        let standalone = ActionDispatcher(builtIns: false)
        standalone.register(OpenBottomSheetActionHandler(registry: FlowWidgets.registry))
        let other = Presenter.testing(clock)
        #expect(await standalone.dispatch(open, context: context(presenter: other)))
        #expect(other.sheet?.sections.first?.widgets.count == 2)
    }

    @Test(arguments: [#"{"type": "open_bottom_sheet"}"#, #"{"type": "open_bottom_sheet", "sheet": [1]}"#, #"{"type": "open_bottom_sheet", "sheet": null}"#])
    func aMalformedSheetIsClaimedAndNotedNotPresented(_ json: String) async {
        let store = await loadedStore()
        let dispatcher = ActionDispatcher()
        let presenter = Presenter.testing(clock)
        #expect(await dispatcher.dispatch(action(json), context: context(store: store, presenter: presenter)))
        #expect(dispatcher.log.last?.handledBy == "OpenBottomSheetActionHandler")
        #expect(dispatcher.log.last?.notes.count == 1)
        #expect(presenter.sheet == nil)
    }

    @Test func refreshPageRefreshesTheStore() async {
        let loader = InstantLoader(pages: [Fixture.pageA, Fixture.pageB])
        let store = PageStore(pageID: "home", loader: loader, registry: FlowWidgets.registry)
        await store.load()
        let dispatcher = ActionDispatcher()
        #expect(await dispatcher.dispatch(action(#"{"type": "refresh_page"}"#), context: context(store: store)))
        #expect(loader.requests.map(\.kind) == [.initial, .refresh])
        #expect(ids(store.page).contains("c2"))
        #expect(store.lastRefreshDiff?.widgets.inserted.map(\.id) == ["c2"])
    }

    @Test func actionsThatNeedAStoreAreUnhandledWithoutOne() async {
        let dispatcher = ActionDispatcher()
        for type in ["api", "refresh_page", "open_bottom_sheet"] {
            #expect(await dispatcher.dispatch(action(#"{"type": "\#(type)", "sheet": {}}"#), context: context()) == false)
            #expect(dispatcher.log.last?.handledBy == nil)
            #expect(dispatcher.log.last?.notes.count == 1)
        }
        // The store is held weakly: once its owner lets go, the context has none.
        var store: PageStore? = PageStore(pageID: "home", loader: InstantLoader(pages: [Fixture.pageA]), registry: FlowWidgets.registry)
        let weakContext = context(store: store)
        store = nil
        #expect(weakContext.store == nil)
    }

    @Test func apiSendsTheWholeActionAppliesTheMutationsAndShowsTheToast() async throws {
        let loader = InstantLoader(pages: [Fixture.pageA], response: Fixture.favourite)
        let store = PageStore(pageID: "home", loader: loader, registry: FlowWidgets.registry)
        await store.load()
        let card = try #require(store.page?.sections[0].widgets[1])
        let tap = try #require(card.actions["tap"])
        let dispatcher = ActionDispatcher()
        let presenter = Presenter.testing(clock)

        #expect(await dispatcher.dispatch(event: "tap", of: card, context: context(nil, store: store, presenter: presenter)))

        // The loader got the whole action object, bytes as received (the integer past 2^53,
        // the 2.50, the null and the key order included).
        guard case .action(let sent) = loader.requests.last?.kind else { Issue.record("no action request"); return }
        #expect(String(decoding: sent.raw.jsonBytes, as: UTF8.self)
                == #"{"type":"api","endpoint":"fav","card":9007199254740993,"extra":{"b":[1,2.50],"a":null}}"#)
        #expect(sent == tap)
        #expect(loader.requests.last?.pageID == "home")
        // Applied in place, by id, keeping the id.
        let replaced = try #require(store.page?.sections[0].widgets[1])
        #expect(replaced.id == "c1")
        #expect(replaced.type == "title_block")
        #expect(store.page?.identityViolations() == [])
        #expect(store.lastMutationOutcome?.applied == 1)
        #expect(store.lastDiagnostics.isEmpty)
        #expect(presenter.currentToast == Presenter.Toast(message: "Added to favourites", duration: 4, shownAt: 100))
        #expect(dispatcher.log == [ActionLogEntry(type: "api", sourceWidgetID: "c1", handledBy: "APIActionHandler")])
    }

    @Test func apiResponseDiagnosticsAndAMalformedToastAreKept() async {
        let response = #"""
            {"mutations": [{"kind": "explode"}, {"kind": "remove_widget", "id": "nope"}, {"kind": "remove_widget", "id": "sep"}],
             "toast": {"text": "wrong key"}}
            """#
        let store = PageStore(pageID: "home", loader: InstantLoader(pages: [Fixture.pageA], response: response), registry: FlowWidgets.registry)
        await store.load()
        let dispatcher = ActionDispatcher()
        let presenter = Presenter.testing(clock)
        #expect(await dispatcher.dispatch(action(#"{"type": "api"}"#), context: context(store: store, presenter: presenter)))
        #expect(keys(store.lastDiagnostics) == ["unknown_mutation mutations.0", "mutation_target_missing mutations.1"])
        #expect(!ids(store.page).contains("sep"))
        #expect(store.lastMutationOutcome?.applied == 1)
        #expect(store.lastMutationOutcome?.failed == 1)
        #expect(presenter.lastToast == nil)
        #expect(dispatcher.log.last?.notes.first?.hasPrefix("api: malformed response toast") == true)
    }

    @Test func aFailedAPICallLeavesThePageAndReportsTheError() async {
        for response in [nil, "[1, 2]", "{nope"] {
            let store = PageStore(pageID: "home", loader: InstantLoader(pages: [Fixture.pageA], response: response), registry: FlowWidgets.registry)
            await store.load()
            let before = store.page
            let dispatcher = ActionDispatcher()
            #expect(await dispatcher.dispatch(action(#"{"type": "api", "n": 1}"#), context: context(store: store)))
            #expect(store.page == before)
            #expect(store.state == .loaded)
            #expect(store.lastError?.isDocumentFailure == (response != nil))
            #expect(store.lastError?.request.kind == .action(action(#"{"type": "api", "n": 1}"#)))
            #expect(dispatcher.log.last?.notes.first?.hasPrefix("api failed") == true)
        }
    }

    @Test func cancelInFlightDropsALateAPIResponse() async {
        let loader = ScriptedLoader()
        let store = PageStore(pageID: "home", loader: loader, registry: FlowWidgets.registry)
        let loading = Task { await store.load() }
        await loader.nextCall().respond(Fixture.pageA)
        _ = await loading.value
        let before = store.page

        let dispatcher = ActionDispatcher()
        let presenter = Presenter.testing(clock)
        let task = dispatcher.send(action(#"{"type": "api"}"#), context: context(store: store, presenter: presenter))
        let call = await loader.nextCall()
        #expect(dispatcher.inFlightCount == 1)
        dispatcher.cancelInFlight()
        #expect(call.wasCancelled)
        call.respond(Fixture.favourite)  // the loader ignored the cancellation
        #expect(await task.value)
        #expect(store.page == before)
        #expect(presenter.lastToast == nil)
        #expect(dispatcher.inFlightCount == 0)
        #expect(dispatcher.log.last?.notes == ["api: response dropped, cancelled"])
    }

    @Test func anAPIResponseThatArrivesAfterTeardownIsDropped() async {
        let loader = ScriptedLoader()
        let store = PageStore(pageID: "home", loader: loader, registry: FlowWidgets.registry)
        let loading = Task { await store.load() }
        await loader.nextCall().respond(Fixture.pageA)
        _ = await loading.value
        let before = store.page

        let dispatcher = ActionDispatcher()
        let presenter = Presenter.testing(clock)
        let task = dispatcher.send(action(#"{"type": "api"}"#), context: context(store: store, presenter: presenter))
        let call = await loader.nextCall()
        store.cancelInFlight()  // the page goes away; the round trip is the dispatcher's to cancel
        #expect(!call.wasCancelled)
        call.respond(Fixture.favourite)  // arrives after the teardown
        #expect(await task.value)
        #expect(dispatcher.log.last?.notes == ["api: response dropped, cancelled"])
        #expect(store.page == before)
        #expect(store.lastError == nil)
        #expect(presenter.lastToast == nil)
        #expect(store.inFlightCount == 0)
    }

    @Test func anAPIResponseForAPageThatWasReplacedIsDropped() async {
        let loader = ScriptedLoader()
        let store = PageStore(pageID: "home", loader: loader, registry: FlowWidgets.registry)
        let loading = Task { await store.load() }
        await loader.nextCall().respond(Fixture.pageA)
        _ = await loading.value

        let dispatcher = ActionDispatcher()
        let presenter = Presenter.testing(clock)
        let api = dispatcher.send(action(#"{"type": "api"}"#), context: context(store: store, presenter: presenter))
        let apiCall = await loader.nextCall()
        let refreshing = Task { await store.refresh() }
        await loader.nextCall().respond(Fixture.pageB)
        #expect(await refreshing.value == .applied)
        let refreshed = store.page

        apiCall.respond(Fixture.favourite)
        #expect(await api.value)
        #expect(store.page == refreshed)
        #expect(presenter.lastToast == nil)
        #expect(dispatcher.log.last?.notes == ["api: response dropped, the page it was for has been replaced"])
    }

    @Test func aCompositeHandlerRedispatchesThroughTheWholeChain() async {
        let dispatcher = ActionDispatcher()
        let presenter = Presenter.testing(clock)
        dispatcher.register(ClosureActionHandler(name: "Sequence") { action, context in
            guard action.type == "sequence" else { return false }
            for step in action.raw.value["actions"]?.arrayValue ?? [] {
                guard let object = step.objectValue, let type = object["type"]?.stringValue else { continue }
                await context.redispatch(ActionData(type: type, fields: object))
            }
            return true
        })
        let sequence = action(#"{"type": "sequence", "actions": [{"type": "toast", "message": "One"}, {"type": "dismiss"}, {"type": "nobody"}]}"#)
        #expect(await dispatcher.dispatch(sequence, context: context("btn", presenter: presenter)))
        #expect(dispatcher.log == [
            ActionLogEntry(type: "toast", sourceWidgetID: "btn", handledBy: "ToastActionHandler"),
            ActionLogEntry(type: "dismiss", sourceWidgetID: "btn", handledBy: "DismissActionHandler"),
            ActionLogEntry(type: "nobody", sourceWidgetID: "btn", handledBy: nil),
            ActionLogEntry(type: "sequence", sourceWidgetID: "btn", handledBy: "Sequence"),
        ])
        #expect(presenter.lastToast?.message == "One")
        #expect(presenter.dismissRequested)
        // Outside a dispatch there is nothing to redispatch through.
        #expect(await context().redispatch(action(#"{"type": "toast", "message": "x"}"#)) == false)
    }

    @Test func aRedispatchLoopIsRefusedNotRunForever() async {
        let dispatcher = ActionDispatcher(builtIns: false)
        var runs = 0
        dispatcher.register(ClosureActionHandler(name: "Loop") { action, context in
            guard action.type == "loop" else { return false }
            runs += 1
            await context.redispatch(action)
            return true
        })
        #expect(await dispatcher.dispatch(action(#"{"type": "loop"}"#), context: context()))
        #expect(runs == ActionContext.maxRedispatchDepth + 1)
        #expect(dispatcher.log.first?.handledBy == nil)
        #expect(dispatcher.log.first?.notes.first?.hasPrefix("refused") == true)
        #expect(dispatcher.log.count == ActionContext.maxRedispatchDepth + 2)
    }

    @Test func aNoteFromAContextKeptPastItsDispatchIsDropped() async {
        let dispatcher = ActionDispatcher(builtIns: false)
        var kept: ActionContext?
        dispatcher.register(ClosureActionHandler(name: "Keeper", types: ["keep"]) { _, context in
            context.note("during")
            kept = context
            return true
        })
        await dispatcher.dispatch(action(#"{"type": "keep"}"#), context: context())
        kept?.note("after")
        await dispatcher.dispatch(action(#"{"type": "other"}"#), context: context())
        #expect(dispatcher.log.map(\.notes) == [["during"], []])
    }

    @Test func anEventTheWidgetDoesNotDeclareDoesNothing() async throws {
        let store = await loadedStore()
        let dispatcher = ActionDispatcher()
        let title = try #require(store.page?.sections[0].widgets[0])
        #expect(await dispatcher.dispatch(event: "tap", of: title, context: context(store: store)) == false)
        let card = try #require(store.page?.sections[0].widgets[1])
        #expect(await dispatcher.dispatch(event: "long_press", of: card, context: context(store: store)) == false)
        #expect(dispatcher.log.isEmpty)
    }

    @Test func sendRunsSynchronouslyUntilTheFirstSuspension() async {
        let dispatcher = ActionDispatcher()
        let presenter = Presenter.testing(clock)
        let task = dispatcher.send(action(#"{"type": "toast", "message": "Now"}"#), context: context(presenter: presenter))
        // Shown before `send` returned: a tap's toast appears in the same frame.
        #expect(presenter.lastToast?.message == "Now")
        #expect(dispatcher.inFlightCount == 0)
        #expect(await task.value)
    }
}
