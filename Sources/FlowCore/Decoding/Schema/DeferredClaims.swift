/// The claims in the page's namespaces that a section-list worker queued for the caller
/// to make (see `PageSchema.decodeSectionsInParallel`), with what the caller needs to
/// make each as the serial decode would: where it stands among the worker's diagnostics,
/// and the position of its element (for the path of a `duplicate_id`).
///
/// Kept sparse, because a large page queues one claim per widget: the caller walks the
/// decoded sections in claiming order (a section, its header, its widgets), so it knows
/// each claim's kind, and it can guess the rest: no diagnostic since the previous claim,
/// and the element after the previous one in its list. Only a claim that breaks the
/// guess (a diagnostic was recorded, an element was dropped) takes a note. Both sides
/// guess with the same ``Expectation``.
struct DeferredClaims {
    enum Kind { case section, header, widget }

    private struct Note {
        let ordinal: Int
        let diagnosticMark: Int
        let position: Int
    }

    /// What the next claim of a kind is assumed to be, given the claims before it.
    private struct Expectation {
        var diagnosticMark = 0
        var section = -1
        var widget = -1

        func guess(_ kind: Kind) -> (diagnosticMark: Int, position: Int) {
            switch kind {
            case .section: (diagnosticMark, section + 1)
            case .header: (diagnosticMark, -1)
            case .widget: (diagnosticMark, widget + 1)
            }
        }

        mutating func settle(_ kind: Kind, diagnosticMark: Int, position: Int) {
            self.diagnosticMark = diagnosticMark
            switch kind {
            case .section: section = position; widget = -1
            case .header: break
            case .widget: widget = position
            }
        }
    }

    private var notes: [Note] = []
    private(set) var count = 0
    private var expected = Expectation()

    /// Queues a claim: `position` is its element's index in its list (-1 for a header).
    mutating func append(_ kind: Kind, diagnosticMark: Int, position: Int) {
        if expected.guess(kind) != (diagnosticMark, position) {
            notes.append(Note(ordinal: count, diagnosticMark: diagnosticMark, position: position))
        }
        expected.settle(kind, diagnosticMark: diagnosticMark, position: position)
        count += 1
    }

    /// Reads the claims back in the order they were queued.
    struct Reader {
        fileprivate let claims: DeferredClaims
        private var ordinal = 0
        private var noted = 0
        private var expected = Expectation()

        fileprivate init(claims: DeferredClaims) { self.claims = claims }

        /// The next claim, which the caller knows to be of `kind`.
        mutating func next(_ kind: Kind) -> (diagnosticMark: Int, position: Int) {
            precondition(ordinal < claims.count, "more claims read back than were queued")
            var claim = expected.guess(kind)
            if noted < claims.notes.count && claims.notes[noted].ordinal == ordinal {
                claim = (claims.notes[noted].diagnosticMark, claims.notes[noted].position)
                noted += 1
            }
            expected.settle(kind, diagnosticMark: claim.diagnosticMark, position: claim.position)
            ordinal += 1
            return claim
        }

        var isAtEnd: Bool { ordinal == claims.count }
    }

    func reader() -> Reader { Reader(claims: self) }
}
