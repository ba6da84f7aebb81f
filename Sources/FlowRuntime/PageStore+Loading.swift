import FlowCore

extension PageStore {
    /// Loads the page from scratch (a `.initial` request): the first load, and the retry
    /// after a failure.
    ///
    /// The state becomes `loading` and any page shown goes away at once (to reload a shown
    /// page without blanking it, use ``refresh()``). Success shows the page (`loaded`, or
    /// `empty` when it holds no widget) with widget state reset; failure enters `failed`.
    ///
    /// - Returns: `.applied`, `.failed`, or `.superseded` / `.cancelled` when a newer load or
    ///   ``cancelInFlight()`` got in first (the response was dropped).
    /// - Complexity: O(document) to decode it, on the main actor.
    @discardableResult
    public func load() async -> RequestOutcome {
        // Clearing the page is a new document: next pages and api responses for the old one drop.
        replaceDocument(with: nil)
        state = .loading
        isRefreshing = false
        return await runLoad(.initial)
    }

    /// Reloads the page (a `.refresh` request), keeping the current one shown meanwhile.
    ///
    /// With a page shown, the state stays `loaded` (or `empty`) and ``isRefreshing`` is set
    /// until the response arrives; with none, the state is `loading`. Success replaces the
    /// page, resets ``widgetState`` and sets ``lastRefreshDiff`` (old page to new, by id).
    /// Failure enters `failed` and drops the page, following the original, where a refresh
    /// shares the load's fetch and a failed one can enter the failed state (a host that would
    /// rather keep the stale page shows it from its own copy).
    ///
    /// A refresh started while another load or refresh is in flight supersedes it: the
    /// earlier one is cancelled, and its response is dropped whenever it arrives.
    ///
    /// - Complexity: O(document) to decode it, plus the diff (linear for realistic pages).
    @discardableResult
    public func refresh() async -> RequestOutcome {
        if showsPage { isRefreshing = true } else { state = .loading }
        return await runLoad(.refresh)
    }

    /// A load or refresh: one generation, dropped unless it is still the newest.
    private func runLoad(_ kind: PageRequest.Kind) async -> RequestOutcome {
        loadGeneration &+= 1
        let generation = loadGeneration
        let epoch = self.epoch
        // The load this one supersedes is useless now: stop the host's work on it.
        if let previous = loadTicket { tasks[previous]?.cancel() }
        let ticket = makeTicket()
        loadTicket = ticket

        let result = await fetch(kind, ticket: ticket)

        guard epoch == self.epoch else { return .cancelled }
        guard generation == loadGeneration else { return .superseded }
        loadTicket = nil
        if Task.isCancelled {
            // The caller gave up on the newest load: settle as if it had not been asked for.
            isRefreshing = false
            if state == .loading { state = .idle }
            return .cancelled
        }
        isRefreshing = false

        let request = PageRequest(pageID: pageID, kind: kind)
        let decoded: DecodedPage
        switch result {
        case .failure(let error):
            return fail(PageStoreError(request: request, reason: .loader(error)))
        case .success(let bytes):
            do { decoded = try decoder.decode(bytes) } catch {
                return fail(PageStoreError(request: request, reason: .document(error)))
            }
        }
        let old = page
        lastRefreshDiff = kind == .refresh ? old.map { PageDiff(old: $0, new: decoded.page) } : nil
        replaceDocument(with: decoded.page)
        lastDiagnostics = decoded.diagnostics
        lastMutationOutcome = nil
        lastError = nil
        return .applied
    }

    /// A load or refresh failed: the failed state, no page. (The page contract leaves what a
    /// failed refresh shows to the app; the store enters the failed state.)
    private func fail(_ error: PageStoreError) -> RequestOutcome {
        replaceDocument(with: nil)
        state = .failed(error)
        lastError = error
        lastRefreshDiff = nil
        return .failed(error)
    }
}
