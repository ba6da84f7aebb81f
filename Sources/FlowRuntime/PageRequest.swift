import FlowCore
import FlowJSON

/// What a ``PageStore`` asks its host ``PageLoader`` for: a kind of request and the page id.
///
/// The runtime performs no HTTP of its own; the loader turns a request into bytes however
/// the host likes (a URL per page id, a cache, a fixture).
public struct PageRequest: Sendable, Equatable, CustomStringConvertible {
    /// Why the store is asking.
    public enum Kind: Sendable, Equatable {
        /// The first load of the page (and a retry after a failed one).
        case initial
        /// A reload of the page already shown (pull to refresh, `refresh_page`): a host may
        /// want to bypass its caches for it.
        case refresh
        /// The next page of a paginated page. `postback` is the page's `pagination.postback`
        /// exactly as received (its bytes unchanged, numbers past 2^53 included); nil when the
        /// page sent none.
        case nextPage(postback: RawJSON?)
        /// An `api` action: the whole action object, as received. The answer is a mutation
        /// response (the page contract, "Mutations").
        case action(ActionData)
    }

    /// The id the store was created for (not the id the document declares: the host names
    /// what it loads).
    public var pageID: String
    public var kind: Kind

    public init(pageID: String, kind: Kind) {
        self.pageID = pageID
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .initial: "initial load of \(pageID)"
        case .refresh: "refresh of \(pageID)"
        case .nextPage(let postback): "next page of \(pageID) (postback \(postback.map(\.description) ?? "none"))"
        case .action(let action): "\(action.type) action on \(pageID)"
        }
    }
}
