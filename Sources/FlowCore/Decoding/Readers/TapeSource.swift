#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlowJSON

/// What every reader of one decode shares: the document, a view of it, the decode context.
///
/// Readers are two words and a generation, passed in registers, and copied for every
/// field a model reads: a counted reference in each would add a retain and a release to
/// every field read. So readers point at their source without counting,
/// and the source makes that sound instead of a convention:
/// - sources are never freed: a decode borrows one from a pool (``lend(document:context:_:)``)
///   and gives it back, so a reader's pointer always points at a live object;
/// - each loan has a generation, which the readers made during it carry; a reader kept
///   past its decode (a host's model may store one) finds another generation on its source
///   and stops at a `precondition`, never reading memory that is gone. While the loan
///   lasts, the source holds its document, and the view points into the document's own
///   storage (see ``JSONDocument``).
@usableFromInline
final class TapeSource: @unchecked Sendable {
    // Written only when a loan opens or closes, by the thread the loan belongs to; read by
    // every reader access. `@exclusivity(unchecked)`: no access overlaps another, and the
    // dynamic checks the compiler would make on each read double the cost of a decode.
    /// Valid while the loan of ``generation`` lasts.
    @usableFromInline @exclusivity(unchecked) private(set) var view: JSONTapeView
    @usableFromInline @exclusivity(unchecked) private(set) var generation: UInt64 = 0
    @exclusivity(unchecked) private(set) var document: JSONDocument
    @exclusivity(unchecked) private(set) var context: DecodeContext?
    /// The source of `{}` for widgets without `data`, made on first use during this loan.
    @exclusivity(unchecked) private var emptyObject: TapeSource?

    private init(document: JSONDocument) {
        self.document = document
        self.view = document.retainedView
    }

    /// Lends a source over `document` for `context` to `body`, and takes it back when
    /// `body` returns: readers made from it are valid until then.
    static func lend<R, E: Error>(document: JSONDocument, context: DecodeContext, _ body: (TapeSource) throws(E) -> R) throws(E) -> R {
        let source = SourcePool.shared.take() ?? TapeSource(document: document)
        source.open(document, context)
        defer {
            source.close()
            SourcePool.shared.give(source)
        }
        return try body(source)
    }

    private func open(_ document: JSONDocument, _ context: DecodeContext) {
        self.document = document
        self.context = context
        view = document.retainedView
        generation = SourcePool.shared.nextGeneration()
    }

    private func close() {
        if let emptyObject {
            emptyObject.close()
            SourcePool.shared.give(emptyObject)
            self.emptyObject = nil
        }
        generation = 0  // no loan: no reader matches
        document = Self.emptyDocument
        view = Self.emptyDocument.retainedView
        context = nil
    }

    /// A source over `{}` for the same context and loan as this one.
    func emptyObjectSource() -> TapeSource {
        if let emptyObject { return emptyObject }
        let source = SourcePool.shared.take() ?? TapeSource(document: Self.emptyDocument)
        source.open(Self.emptyDocument, context!)
        emptyObject = source
        return source
    }

    /// `{}`: what a widget without `data` decodes from, and what an idle source holds.
    static let emptyDocument = try! JSONDocument("{}")
}

/// A reader's pointer to its source, checked on every use: the source is never freed (see
/// ``TapeSource``), and a `precondition` stops a reader whose decode has returned.
@usableFromInline
struct SourceRef {
    @usableFromInline unowned(unsafe) let object: TapeSource
    @usableFromInline let loan: UInt64

    init(_ source: TapeSource) {
        object = source
        loan = source.generation
    }

    @inlinable @inline(__always)
    var source: TapeSource {
        precondition(object.generation == loan, "a reader of a FlowJSON document was used after the decode that made it returned")
        return object
    }
}

/// The sources not on loan, and the generation counter. A lock guards both: a decode
/// takes one or two sources, a parallel one a few per thread, so it is rarely contended.
final class SourcePool: @unchecked Sendable {
    static let shared = SourcePool()

    private var idle: [TapeSource] = []
    private var generation: UInt64 = 0
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    private init() { pthread_mutex_init(lock, nil) }

    func take() -> TapeSource? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return idle.popLast()
    }

    func give(_ source: TapeSource) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        idle.append(source)
    }

    /// A generation no loan had before (never 0, the mark of an idle source).
    func nextGeneration() -> UInt64 {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        generation += 1
        return generation
    }
}
