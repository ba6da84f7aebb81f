import FlowCore
import FlowJSON

/// The headless page store: loads a page through the host's ``PageLoader``, refreshes it,
/// paginates it, applies `api` mutations to it, and keeps per-widget state beside it.
///
/// It is what a page screen holds, minus the views: a renderer shows ``page`` according to
/// ``state`` (and a spinner for ``isRefreshing`` and ``isLoadingNextPage``), and calls
/// ``load()``, ``refresh()`` and ``loadNextPage()`` from its lifecycle, pull to refresh and
/// scroll position. Actions reach it through ``ActionDispatcher`` (`refresh_page`, `api`).
///
/// ## States
///
/// `idle` → ``load()`` → `loading` → `loaded` or `empty` (a page with no widget anywhere), or
/// `failed`. ``page`` is non-nil exactly in `loaded` and `empty`.
///
/// - ``refresh()`` keeps the page shown: the state stays `loaded` (or `empty`) with
///   ``isRefreshing`` set while the loader works. Success replaces the page, resets
///   ``widgetState`` and reports ``lastRefreshDiff``. Failure enters `failed` and drops the
///   page: in the original a refresh goes through the same fetch as a load, and a failed one
///   can enter the failed state; the next ``refresh()`` or ``load()`` starts from `loading`.
/// - ``loadNextPage()`` never blanks a healthy page: a failure (the loader throws, or the
///   next page fails as a whole) leaves the page exactly as it was and sets ``lastError``.
///
/// ## Ordering and cancellation
///
/// Every load and refresh takes a new generation; a response (or failure) whose generation is
/// no longer the newest is dropped, so a slower earlier response never overwrites a newer one
/// (the last request issued wins, and starting one cancels the one it supersedes). A next
/// page and an `api` response are addressed to the document they were asked for: they are
/// dropped when a load, a refresh or a `replace_page` has replaced that document since.
/// ``cancelInFlight()`` cancels the loads in flight and drops whatever still arrives: a
/// response never lands on a page that is gone. Loads run in tasks the store retains; an
/// `api` round trip runs in its caller's task (the dispatcher's, which retains and cancels
/// it), because a task per round trip would cost more than the rest of the runtime's share
/// of it.
///
/// ## Threading
///
/// Main-actor bound, as the UI state it is. Decoding and mutating happen on the main actor
/// too, for simplicity: keeping the page on one actor means it is mutated in place and never
/// copied across, and a mutation costs only the widget list it touches. The price is that a
/// load or refresh decodes on the main actor, linear in the document (tens of milliseconds
/// for a 10,000-widget page: see `page.decode.fast/10k`); `PageDecoder` and `Page` are
/// `Sendable`, so moving that decode off the main actor later changes no API. The loader
/// runs on the main actor until it suspends (see ``PageLoader``).
@MainActor
public final class PageStore {
    /// What a renderer shows.
    public enum State: Sendable, Equatable {
        /// Nothing asked for yet (or the initial load was cancelled).
        case idle
        /// Loading with nothing to show (a first load, or a refresh with no page shown).
        case loading
        /// ``PageStore/page`` is shown.
        case loaded
        /// ``PageStore/page`` has no widget anywhere (the page contract, "The document"): decodable, shown as empty.
        case empty
        /// The last load or refresh failed; no page is shown.
        case failed(PageStoreError)
    }

    /// The id requests carry (see ``PageRequest/pageID``).
    public nonisolated let pageID: String
    /// Decodes pages, next pages, mutation responses and sheets, with the page's registry.
    public nonisolated let decoder: PageDecoder
    public nonisolated let loader: any PageLoader
    /// Apply mutation responses all or nothing (the page contract, "Mutations", transactional mode).
    public var transactionalMutations: Bool
    /// Per-widget UI state: untouched by pagination, reset by a refresh.
    public let widgetState = WidgetStateStore()

    public internal(set) var state: State = .idle
    /// The page shown; non-nil exactly when ``state`` is `loaded` or `empty`.
    public internal(set) var page: Page?
    /// A refresh is on its way while the current page stays shown.
    public internal(set) var isRefreshing = false
    /// The most recent failure of a request that was not dropped; nil once a later one
    /// succeeds. A failed next page or `api` call leaves the page alone and reports here.
    public internal(set) var lastError: PageStoreError?
    /// Diagnostics of the last response that took effect: the page's decode, the next page's
    /// (with its own paths), or an `api` response's (reading it, then applying it).
    public internal(set) var lastDiagnostics: [Diagnostic] = []
    /// What the last successful refresh changed, by stable id (the page contract, "Pagination and refresh"); nil after a load,
    /// or when no page was shown before the refresh.
    public internal(set) var lastRefreshDiff: PageDiff?
    /// What the last `api` response applied.
    public internal(set) var lastMutationOutcome: MutationOutcome?

    // Bookkeeping for dropping what arrives late (see "Ordering and cancellation").

    /// Bumped by `cancelInFlight()`: anything asked for before is dropped on arrival.
    var epoch: UInt64 = 0
    /// Bumped by every load and refresh: only the newest one's response counts.
    var loadGeneration: UInt64 = 0
    /// Bumped whenever `page` is replaced or cleared: next pages and api responses are
    /// addressed to one document.
    var documentGeneration: UInt64 = 0
    /// The next page in flight, if any (cleared when the page it extends goes away).
    var nextPageTicket: UInt64?
    /// The load or refresh in flight, if any, by task id (cancelled when superseded).
    var loadTicket: UInt64?
    var lastTicket: UInt64 = 0
    /// How loader round trips start (see ``TaskStart``).
    let taskStart: TaskStart
    /// Loader round trips in flight, retained so `cancelInFlight()` can cancel them.
    var tasks: [UInt64: Task<[UInt8], any Error>] = [:]

    /// A store for the page `pageID`, loading through `loader` and decoding with `registry`:
    /// the host's widget types, always named (a store that fell back on some default would
    /// drop every widget of the host's own types as `unknown_type`, and show nothing else).
    ///
    /// Nothing is loaded until ``load()`` is called.
    public convenience init(pageID: String, loader: any PageLoader, registry: WidgetRegistry,
                            options: PageDecodingOptions = PageDecodingOptions(), transactionalMutations: Bool = false) {
        self.init(pageID: pageID, loader: loader, registry: registry, options: options,
                  transactionalMutations: transactionalMutations, taskStart: .immediateWhereAvailable)
    }

    /// The same, starting loader round trips as `taskStart` says (the tests select the fallback).
    package init(pageID: String, loader: any PageLoader, registry: WidgetRegistry, options: PageDecodingOptions = PageDecodingOptions(),
                 transactionalMutations: Bool = false, taskStart: TaskStart) {
        self.taskStart = taskStart
        self.pageID = pageID
        self.loader = loader
        self.decoder = PageDecoder(registry: registry, options: options)
        self.transactionalMutations = transactionalMutations
    }

    /// The registry widgets, next pages, mutations and sheets decode with.
    public nonisolated var registry: WidgetRegistry { decoder.registry }

    /// A next page exists and none is on its way.
    public var canLoadNextPage: Bool { page?.pagination?.hasMore == true && nextPageTicket == nil }

    /// A next page is on its way.
    public var isLoadingNextPage: Bool { nextPageTicket != nil }

    /// Loads, refreshes and next pages not finished yet (cancelled ones included until their
    /// loader returns).
    public var inFlightCount: Int { tasks.count }

    /// Cancels every load, refresh and next page in flight, and drops whatever any request —
    /// `api` round trips included — still returns: call it when the page goes away (with
    /// ``ActionDispatcher/cancelInFlight()``, which cancels the `api` round trips themselves).
    ///
    /// The store stays usable. A load that was under way leaves the state `idle`; a refresh
    /// leaves the page shown as it was.
    public func cancelInFlight() {
        epoch &+= 1
        for task in tasks.values { task.cancel() }
        loadTicket = nil
        nextPageTicket = nil
        isRefreshing = false
        if state == .loading { state = .idle }
    }

    // MARK: Internals shared by the facets

    func makeTicket() -> UInt64 {
        lastTicket &+= 1
        return lastTicket
    }

    /// One loader round trip for a load, refresh or next page, in a task the store retains.
    ///
    /// Those are awaited by tasks the store does not own (a view's lifecycle task, pull to
    /// refresh), so the store keeps a handle of its own: ``cancelInFlight()`` and a
    /// superseding load can then stop the host's work, not just drop its result. The task
    /// starts immediately on the main actor where the OS has `Task.immediate` (see
    /// ``TaskStart``), so a loader that answers without suspending costs no hop; cancelling
    /// the awaiting task cancels it as well.
    func fetch(_ kind: PageRequest.Kind, ticket: UInt64) async -> Result<[UInt8], any Error> {
        let request = PageRequest(pageID: pageID, kind: kind)
        let loader = self.loader
        let task = taskStart.start { @MainActor in try await loader.load(request) }
        tasks[ticket] = task
        defer { tasks[ticket] = nil }
        return await withTaskCancellationHandler {
            // `value`, not `result`: awaiting `result` hops off the main actor even when the
            // task is already done, and a loader answering from memory should cost no hop.
            do { return .success(try await task.value) } catch { return .failure(error) }
        } onCancel: {
            task.cancel()
        }
    }

    /// Shows `newPage` (or nothing) as a new document: widget state resets, and next pages
    /// and `api` responses asked for the old one will be dropped.
    func replaceDocument(with newPage: Page?) {
        page = newPage
        documentGeneration &+= 1
        nextPageTicket = nil
        widgetState.reset()
        if let newPage { state = newPage.hasAnyWidget ? .loaded : .empty }
    }

    /// Whether a page is shown (`page != nil`, without reading, and so copying, the page).
    var showsPage: Bool {
        switch state {
        case .loaded, .empty: true
        case .idle, .loading, .failed: false
        }
    }

    /// After a change in place: `empty` and `loaded` follow the widgets.
    func updateEmptiness() {
        // Not `guard let page`: that copies the page (a retain per field) on every mutation.
        guard let hasWidgets = page?.hasAnyWidget else { return }
        state = hasWidgets ? .loaded : .empty
    }
}

extension Page {
    /// Whether any widget is on the page (header, section headers and bodies, footer).
    ///
    /// - Complexity: O(1) for a page whose first region holds a widget; O(sections) at
    ///   worst (``Page/isEmpty`` counts every section).
    var hasAnyWidget: Bool {
        if header?.widgets.isEmpty == false || footer?.widgets.isEmpty == false { return true }
        for s in sections where s.header != nil || !s.widgets.isEmpty { return true }
        return false
    }
}
