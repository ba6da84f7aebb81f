import FlowCore

/// Why a request of a ``PageStore`` failed: the loader threw, or the bytes it returned failed
/// as a whole document (the page contract, "The document": not JSON, no `page` object, a limit crossed; for an action,
/// a response root that is not an object).
///
/// A document that merely degrades (dropped widgets, unknown types) is not an error: its
/// diagnostics land in ``PageStore/lastDiagnostics``.
public struct PageStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable {
        /// What the loader threw (`CancellationError` included).
        case loader(any Error)
        /// The document failed as a whole.
        case document(PageDecodingError)
    }

    /// The request that failed.
    public var request: PageRequest
    public var reason: Reason

    public init(request: PageRequest, reason: Reason) {
        self.request = request
        self.reason = reason
    }

    /// Whether the loader's bytes arrived but did not make a document.
    public var isDocumentFailure: Bool { if case .document = reason { true } else { false } }

    public var description: String {
        switch reason {
        case .loader(let error): "\(request): the loader failed: \(error)"
        case .document(let error): "\(request): the document failed as a whole: \(error)"
        }
    }

    /// Same request, same failure as described (errors themselves are not `Equatable`).
    public static func == (a: PageStoreError, b: PageStoreError) -> Bool {
        a.request == b.request && a.description == b.description
    }
}
