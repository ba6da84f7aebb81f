import FlowCore

extension PageStore {
    /// Loads the next page and appends its sections (the page contract, "Pagination and refresh"), echoing the page's
    /// `pagination.postback` exactly as received.
    ///
    /// Asks only when a page is shown whose pagination says `has_more: true`, and only one
    /// next page at a time (a second call while one is on its way is `.skipped`: it would ask
    /// for the same postback). The response goes through `PageDecoder/append(nextPage:to:)`
    /// in place: the next page's sections join the end, its pagination replaces the page's,
    /// nothing already shown changes, and ``widgetState`` is untouched.
    ///
    /// A failure — the loader throws, or the next page fails as a whole — leaves the page
    /// exactly as it was (its pagination included, so the same call retries) and sets
    /// ``lastError``; the state does not change. A response that arrives after the page was
    /// replaced (a load, a refresh, a `replace_page`) or after ``cancelInFlight()`` is dropped.
    ///
    /// - Complexity: O(size of the next page), whatever the size of the page.
    @discardableResult
    public func loadNextPage() async -> RequestOutcome {
        guard page != nil, let pagination = page?.pagination, pagination.hasMore, nextPageTicket == nil else {
            return .skipped
        }
        let ticket = makeTicket()
        nextPageTicket = ticket
        let epoch = self.epoch
        let kind = PageRequest.Kind.nextPage(postback: pagination.postback)

        let result = await fetch(kind, ticket: ticket)

        guard epoch == self.epoch else { return .cancelled }
        // Cleared when the page it extends was replaced.
        guard nextPageTicket == ticket else { return .superseded }
        nextPageTicket = nil
        if Task.isCancelled { return .cancelled }

        let request = PageRequest(pageID: pageID, kind: kind)
        switch result {
        case .failure(let error):
            let failure = PageStoreError(request: request, reason: .loader(error))
            lastError = failure
            return .failed(failure)
        case .success(let bytes):
            do {
                // `page` is the document the request was for (the ticket survived).
                lastDiagnostics = try decoder.append(nextPage: bytes, to: &page!)
            } catch {
                let failure = PageStoreError(request: request, reason: .document(error))
                lastError = failure
                return .failed(failure)
            }
            lastError = nil
            updateEmptiness()
            return .applied
        }
    }
}
