// The README's Swift examples, compiled and run. Each region between `// snippet: NAME` and
// `// end` is shown in README.md under `<!-- snippet: NAME -->`, dedented;
// `ReadmeSnippetTests` checks the two stay equal. Public API only: this is what a host sees.
import FlowCore
import FlowRuntime
import FlowWidgets
import FlowWorkloads
import Testing

// snippet: content-type
/// A host's own widget type: any `Decodable & Sendable` struct.
struct PriceTag: Decodable, Sendable, Equatable {
    let amount: Double
    let currency: String
    let label: String?
}
// end

/// A page with a host type, a starter type and a type nobody registered.
let cartPage = Array(#"""
    {"page": {"id": "cart",
      "sections": [{"id": "items", "widgets": [
        {"type": "title_block", "id": "heading", "data": {"title": "Your cart"}},
        {"type": "price_tag", "id": "total", "data": {"amount": 42.5, "currency": "EUR"}},
        {"type": "hologram", "id": "promo"}]}],
      "pagination": {"has_more": true, "postback": {"cursor": 9007199254740993}}}}
    """#.utf8)

/// The second page of the cart.
let cartNextPage = Array(#"""
    {"page": {"sections": [{"id": "more", "widgets": [
        {"type": "title_block", "data": {"title": "You may also like"}}]}],
      "pagination": {"has_more": false}}}
    """#.utf8)

/// What an `api` action's request answers.
let favouriteResponse = Array(#"""
    {"mutations": [
        {"kind": "replace_widget", "id": "heading", "widget": {"type": "title_block", "data": {"title": "Saved"}}},
        {"kind": "remove_widget", "id": "total"}],
     "toast": {"message": "Added to favourites"}}
    """#.utf8)

@Suite struct ReadmeSnippets {
    @Test func registerDecodeAndReadBack() throws {
        let bytes = cartPage
        // snippet: decode
        var registry = FlowWidgets.registry                  // the starter widget types
        registry.register(PriceTag.self, as: "price_tag")    // one call per type of your own

        let decoder = PageDecoder(registry: registry)        // options: placeholders, bare root, limits, threads
        let decoded = try decoder.decode(bytes)              // throws only when the document fails as a whole
        let page = decoded.page                              // what survived, every id present and unique
        for diagnostic in decoded.diagnostics {              // why the rest did not: kind, path, type, message
            print(diagnostic)                                // unknown_type page.sections.0.widgets.2 (hologram): …
        }
        let tag = page.sections[0].widgets[1].model(as: PriceTag.self)   // your model, or nil for another type
        // end
        #expect(tag == PriceTag(amount: 42.5, currency: "EUR", label: nil))
        #expect(page.sections[0].widgets.map(\.id) == ["heading", "total"])
        #expect(decoded.diagnostics.map(\.kind) == [.unknownType])
        #expect(decoded.diagnostics.first?.path == "page.sections.0.widgets.2")
        #expect(page.sections[0].widgets[0].model(as: PriceTag.self) == nil)
    }

    @Test func lookUpByID() throws {
        var registry = FlowWidgets.registry
        registry.register(PriceTag.self, as: "price_tag")
        let decoder = PageDecoder(registry: registry)
        let pageBytes = cartPage
        // snippet: lookup
        let page = try decoder.decode(pageBytes).page
        if let total = page.widget(id: "total"),                    // wherever it lives: bars, headers, bodies
           let price = total.model(as: PriceTag.self) {
            print("\(price.amount) \(price.currency)")              // 42.5 EUR
        }
        // end
        #expect(page.widget(id: "total")?.model(as: PriceTag.self)?.amount == 42.5)
        #expect(page.widget(id: "promo") == nil)
    }

    @Test func applyMutations() throws {
        var registry = FlowWidgets.registry
        registry.register(PriceTag.self, as: "price_tag")
        let decoder = PageDecoder(registry: registry)
        var page = try decoder.decode(cartPage).page
        let responseBytes = favouriteResponse
        // snippet: mutations
        let response = try decoder.decodeMutations(responseBytes)             // an `api` action's answer
        let outcome = decoder.apply(response, to: &page, transactional: true)  // all or nothing
        if outcome.committed {
            print("\(outcome.applied) applied; toast: \(response.toast?.description ?? "none")")
        }
        // end
        #expect(outcome.committed)
        #expect(outcome.applied == 2)
        #expect(outcome.diagnostics.isEmpty)
        #expect(page.widget(id: "total") == nil)
        #expect(page.widget(id: "heading")?.model(as: TitleBlock.self)?.title.text == "Saved")
        #expect(response.toast != nil)
    }

    @Test func appendNextPageAndDiffARefresh() throws {
        let decoder = PageDecoder(registry: FlowWidgets.registry)
        var page = try decoder.decode(cartPage).page
        let nextPageBytes = cartNextPage
        // snippet: next-page
        if page.pagination?.hasMore == true {
            // Send page.pagination?.postback back exactly as received; append what comes back.
            let diagnostics = try decoder.append(nextPage: nextPageBytes, to: &page)
            print(page.sections.map(\.id), diagnostics.count)   // ["items", "more"] 0
        }
        // end
        #expect(page.sections.map(\.id) == ["items", "more"])
        #expect(page.pagination?.hasMore == false)

        let old = try decoder.decode(cartPage).page
        let refreshedBytes = Array(#"""
            {"page": {"id": "cart", "sections": [{"id": "items", "widgets": [
                {"type": "title_block", "id": "heading", "data": {"title": "Your cart (2)"}}]}]}}
            """#.utf8)
        // snippet: refresh-diff
        let new = try decoder.decode(refreshedBytes).page
        let diff = PageDiff(old: old, new: new)       // by stable id: what a renderer animates
        for change in diff.widgets.updated { print("update", change.id, "at", change.place.index) }
        for change in diff.widgets.removed { print("remove", change.id) }
        // end
        #expect(diff.widgets.updated.map(\.id) == ["heading"])
        #expect(diff.widgets.removed.map(\.id).isEmpty)   // the unregistered widget was never on the page
        #expect(!diff.isEmpty)
    }

    @Test func buildAWidget() throws {
        let decoder = PageDecoder(registry: FlowWidgets.registry)
        var page = try decoder.decode(cartPage).page
        // snippet: build-widget
        let element = #"{"id": "notice", "type": "title_block", "data": {"title": "Prices updated"}}"#
        let (notice, _) = try decoder.decodeWidget(Array(element.utf8), path: "page.sections.0.widgets.0")
        if let notice {
            page.sections[0].widgets.insert(notice, at: 0)          // content decoded from its data
            page.sections[0].widgets[1].replaceContent(with: notice) // type, data and content as one
        }
        // end
        let again = try decoder.decode(PageEncoder.encode(page)).page
        #expect(again == page)
        #expect(page.sections[0].widgets[1].model(as: TitleBlock.self)?.title.text == "Prices updated")
    }

    @Test func encode() throws {
        let decoder = PageDecoder(registry: FlowWidgets.registry)
        let page = try decoder.decode(cartPage).page
        // snippet: encode
        let bytes = PageEncoder.encode(page)           // {"page": …}: data, actions, tracking as received
        let again = try decoder.decode(bytes).page     // decoding it gives the same page back
        // end
        #expect(again == page)
        #expect(String(decoding: bytes, as: UTF8.self).contains("9007199254740993"))
    }

    @Test func oracles() {
        var registry = FlowWidgets.registry
        registry.register(PriceTag.self, as: "price_tag")
        // snippet: oracles
        // Fast and reference paths agree, ids are unique, encoding is a fixed point, threads change nothing:
        #expect(Oracles.page(cartPage, registry: registry) == [])
        #expect(Oracles.mergeDiff(cartPage, cartNextPage, registry: registry) == [])
        #expect(Oracles.mutation(page: cartPage, response: favouriteResponse, registry: registry) == [])
        // One widget replaced by bad bytes (page 0, slot 1): nothing else on the page moves.
        let base = OneBadWidget.basePage(source: "cart.json", text: String(decoding: cartPage, as: UTF8.self))
        let input = [0, 1, 0] + Array(#"{"type": "price_tag", "data": {"amount": "free"}}"#.utf8)
        #expect(Oracles.oneBadWidget(input, pages: [base], registry: registry) == [])
        // end
    }

    @Test @MainActor func runtime() async throws {
        let cartPageBytes = cartPage
        let nextPageBytes = cartNextPage
        // snippet: runtime
        // Where pages come from: your networking, behind one async function.
        let loader = PageLoaderClosure { request in
            switch request.kind {
            case .initial, .refresh: return cartPageBytes
            case .nextPage: return nextPageBytes
            case .action: return Array(#"{"mutations": []}"#.utf8)
            }
        }
        let store = PageStore(pageID: "cart", loader: loader, registry: FlowWidgets.registry)
        _ = await store.load()                                  // .applied; store.state is .loaded
        _ = await store.loadNextPage()                          // appends it: pagination said there is more

        // The built-ins (toast, dismiss, refresh_page, open_bottom_sheet, api) plus your own,
        // asked first: the first handler that returns true consumes the action.
        let dispatcher = ActionDispatcher()
        dispatcher.register(ClosureActionHandler(name: "deeplinks", types: ["deeplink"]) { action, context in
            context.note("would open \(action.raw)")            // your router here
            return true
        })
        let presenter = Presenter()                             // records what a UI would show
        let context = ActionContext(sourceWidgetID: "heading", store: store, presenter: presenter)
        _ = await dispatcher.dispatch(ActionData(type: "deeplink"), context: context)
        _ = await dispatcher.dispatch(ActionData(type: "toast", fields: ["message": "Hi"]), context: context)
        _ = await dispatcher.dispatch(ActionData(type: "hologram"), context: context)  // nobody's: logged
        for entry in dispatcher.log { print(entry) }            // type, source widget, handler, notes
        // end
        #expect(store.state == .loaded)
        #expect(dispatcher.log.map(\.handledBy) == ["deeplinks", "ToastActionHandler", nil])
        #expect(dispatcher.log.map(\.sourceWidgetID) == ["heading", "heading", "heading"])
        #expect(dispatcher.log.first?.notes.count == 1)
        #expect(presenter.lastToast?.message == "Hi")
        #expect(store.page?.sections.map(\.id) == ["items", "more"])
        #expect(!store.canLoadNextPage)
    }
}
