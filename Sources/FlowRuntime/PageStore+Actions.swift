import FlowCore
import FlowJSON

/// What an `api` round trip came to (see ``PageStore/performAPI(_:)``).
public struct APIResult: Sendable {
    public var outcome: RequestOutcome
    /// The response's `toast` object as received, when the response took effect.
    public var toast: RawJSON?
    /// What applying the mutations did; nil when the response did not take effect, or when
    /// no page was shown to apply them to.
    public var mutations: MutationOutcome?

    public init(outcome: RequestOutcome, toast: RawJSON? = nil, mutations: MutationOutcome? = nil) {
        self.outcome = outcome
        self.toast = toast
        self.mutations = mutations
    }
}

extension PageStore {
    /// Sends an `api` action through the loader (a `.action` request carrying the whole action
    /// object) and applies the mutations it answers with to the page, in place (the page contract, "Mutations").
    ///
    /// - The response is read with `PageDecoder/decodeMutations(_:)` and applied with
    ///   `PageDecoder/apply(_:to:transactional:)` (transactional when
    ///   ``transactionalMutations`` is set). ``lastDiagnostics`` gets the response's
    ///   diagnostics, then the application's; ``lastMutationOutcome`` the outcome.
    /// - A `replace_page` that took effect starts a new page life: widget state resets, and a
    ///   next page or `api` response asked for the old page will be dropped.
    /// - The response's toast is returned, not shown: showing it is the presenter's business
    ///   (``APIActionHandler`` does).
    /// - A failure (the loader throws, or the response root is not an object) leaves the page
    ///   as it was and sets ``lastError``.
    /// - It runs in the calling task: cancelling that task (``ActionDispatcher/cancelInFlight()``
    ///   for a dispatch started with ``ActionDispatcher/send(_:context:)``) cancels the
    ///   loader's work. Dropped on arrival, toast and all, when that task was cancelled, when
    ///   ``cancelInFlight()`` ran meanwhile, or when the page it was sent from has been
    ///   replaced (its mutations address that document's ids).
    /// - With no page shown (none loaded yet, or it failed), the request is still sent (the
    ///   server's side effect is the point) and the toast returned; there is nothing to apply
    ///   the mutations to.
    ///
    /// - Complexity: O(response) to read it; a `replace_widget` or `remove_widget` then
    ///   costs O(its target's list), whatever the size of the page.
    @discardableResult
    public func performAPI(_ action: ActionData) async -> APIResult {
        let epoch = self.epoch
        let document = documentGeneration
        let kind = PageRequest.Kind.action(action)

        // In the caller's task, not one of the store's: whoever started the round trip (the
        // dispatcher) retains and cancels it, and a retained task would cost more than the rest
        // of the runtime's share of a round trip. `cancelInFlight()` still drops the response.
        let result: Result<[UInt8], any Error>
        do {
            result = .success(try await loader.load(PageRequest(pageID: pageID, kind: kind)))
        } catch {
            result = .failure(error)
        }

        guard epoch == self.epoch, !Task.isCancelled else { return APIResult(outcome: .cancelled) }
        guard document == documentGeneration else { return APIResult(outcome: .superseded) }

        let request = PageRequest(pageID: pageID, kind: kind)
        let response: MutationResponse
        switch result {
        case .failure(let error):
            let failure = PageStoreError(request: request, reason: .loader(error))
            lastError = failure
            return APIResult(outcome: .failed(failure))
        case .success(let bytes):
            do { response = try decoder.decodeMutations(bytes) } catch {
                let failure = PageStoreError(request: request, reason: .document(error))
                lastError = failure
                return APIResult(outcome: .failed(failure))
            }
        }
        lastError = nil
        guard showsPage else {
            lastDiagnostics = response.diagnostics
            return APIResult(outcome: .applied, toast: response.toast)
        }
        let outcome = decoder.apply(response, to: &page!, transactional: transactionalMutations)
        lastDiagnostics = response.diagnostics.isEmpty
            ? outcome.diagnostics : response.diagnostics + outcome.diagnostics
        lastMutationOutcome = outcome
        if outcome.committed && response.replacesPage {
            replaceDocument(with: page)
            lastRefreshDiff = nil
        } else if response.kinds.contains(where: { $0 != .replaceWidget }) {
            // Replacing widgets never changes how many there are; anything else may.
            updateEmptiness()
        }
        return APIResult(outcome: .applied, toast: response.toast, mutations: outcome)
    }
}
