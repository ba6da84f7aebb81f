#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import FlowJSON

/// A large section list decodes on several threads, and the result is the page a single
/// thread would have built, diagnostics and ids included.
///
/// The scan has already indexed the whole document, so every section's extent is known:
/// the list is cut into stretches of about equal index size (a few per thread, so that one
/// heavy stretch does not leave the other threads idle), and each stretch decodes on a
/// context of its own. What a stretch cannot do alone is claim ids in the page's
/// namespaces, since a claim depends on every claim before it in document order: it queues
/// them instead, each with its place among the stretch's diagnostics. As the stretches
/// finish, they are merged in order (by whichever thread finishes the next one): their
/// claims made in the page's ledger, each `duplicate_id` slotted in where a serial decode
/// would have recorded it. Accordion items claim
/// in namespaces of their own and decode entirely on the stretch's thread.
extension PageSchema {
    /// Sections `elements` of a list, decoded on a context of their own.
    ///
    /// `@unchecked Sendable`: a stretch is handed to exactly one worker, and the caller
    /// reads it only after `concurrentPerform` has returned (which orders the memory).
    final class SectionStretch: @unchecked Sendable {
        let elements: Range<Int>
        let context: DecodeContext
        var sections: [Section] = []
        /// The thread that decoded it (``ParallelSectionsRun``), 0 until then.
        var thread: UInt = 0

        init(elements: Range<Int>, parent: DecodeContext) {
            self.elements = elements
            context = DecodeContext(registry: parent.registry, options: parent.options, document: parent.document,
                                    root: parent.currentPath, defersClaims: true, releasesIndex: parent.indexRelease.isActive)
            context.timeline = parent.timeline
        }
    }

    /// The sections of the list `array` and how many elements it has, or nil when it is
    /// small enough (or the options say) to decode on the caller's thread.
    static func decodeSectionsInParallel(_ array: TapeReader, ctx: DecodeContext, base: String, first: Int) -> (sections: [Section], count: Int)? {
        let options = ctx.options
        guard options.threads > 1, !ctx.identity.defersClaims, let document = ctx.document else { return nil }
        let view = array.view
        let start = array.index + 1, end = view.next(array.index)
        guard end - start >= options.parallelMinimumEntries else { return nil }
        let timeline = ctx.timeline, listStart = timeline?.now() ?? 0
        let elements: [Int] = sequence(first: start) { view.next($0) }.prefix { $0 < end }
        guard elements.count >= 2 else { return nil }

        let stretches = cut(elements, end: end, into: min(elements.count, options.threads * 4), parent: ctx)
        // The claims are made as the stretches finish, in order, by whichever thread
        // finishes the next one: only the last stretch's claims wait for every decode.
        // The handoff runs one step at a time, so the caller's context and the merged list
        // have one user at a time.
        let merged = MergedSections(capacity: elements.count)
        nonisolated(unsafe) let caller = ctx
        let listPath = ctx.currentPath.components
        let handoff = InOrderHandoff(count: stretches.count)
        let stretchBytes = timeline?.byteCounts(of: stretches, elements: elements, end: end, view: view) ?? []
        // Read here: the workers run outside the caller's task, where it is not bound.
        let starting = ParallelSectionsRun.stretchStarting
        DispatchQueue.concurrentPerform(iterations: stretches.count) { k in
            let stretch = stretches[k]
            stretch.thread = PipelineTimeline.currentThread()
            starting?(stretch.thread)
            let stretchStart = timeline?.now() ?? 0

            stretch.sections.reserveCapacity(stretch.elements.count)
            TapeSource.lend(document: document, context: stretch.context) { source in
                for j in stretch.elements {
                    if let s = decodeSectionElement(TapeReader(source: source, index: elements[j]), j, ctx: stretch.context, base: base, first: first) {
                        stretch.sections.append(s)
                    }
                }
            }
            timeline?.recordStretch(stretch, k, since: stretchStart, elements: elements, end: end, bytes: stretchBytes[k])
            // Stretches are disjoint runs of the list, and only whole pages inside a run are
            // given back, so this touches nothing another thread reads.
            stretch.context.releaseFinishedEntries()
            handoff.finished(k) { j in
                let claimStart = timeline?.now() ?? 0
                claim(stretches[j], into: &merged.sections, ctx: caller, listPath: listPath)
                timeline?.recordClaims(of: stretches[j], j, since: claimStart)
            }
        }
        precondition(handoff.isComplete, "every stretch is merged")
        timeline?.record("section list", since: listStart, waits: true,
                         ["sections": elements.count, "stretches": stretches.count, "entries": end - start])
        if let observe = ParallelSectionsRun.observer {
            observe(ParallelSectionsRun(sections: elements.count, stretches: stretches.count,
                                        decoded: stretches.filter { $0.thread != 0 }.count,
                                        threads: Set(stretches.map(\.thread)).subtracting([0]).count))
        }
        return (merged.sections, elements.count)
    }

    /// The section list the stretches are merged into, on whichever thread merges.
    /// `@unchecked Sendable`: written only by the handoff's steps, which never overlap.
    private final class MergedSections: @unchecked Sendable {
        var sections: [Section] = []
        init(capacity: Int) { sections.reserveCapacity(capacity) }
    }

    /// `count` stretches of consecutive elements (at least one each), cut where the list's
    /// entries reach each stretch's share.
    private static func cut(_ elements: [Int], end: Int, into count: Int, parent: DecodeContext) -> [SectionStretch] {
        let total = end - elements[0]
        var starts = [0]
        for k in 1..<count {
            let target = elements[0] + total * k / count
            var j = starts[k - 1] + 1
            while j < elements.count - (count - k) && elements[j] < target { j += 1 }
            starts.append(j)
        }
        starts.append(elements.count)
        return (0..<count).map { SectionStretch(elements: starts[$0]..<starts[$0 + 1], parent: parent) }
    }

    /// Makes a stretch's queued claims in the page's ledger, in claiming order, and moves
    /// its sections and diagnostics over: each `duplicate_id` lands where the serial decode
    /// records it (after what the section or widget recorded itself).
    private static func claim(_ stretch: SectionStretch, into sections: inout [Section], ctx: DecodeContext, listPath: [PathComponent]) {
        let recorded = stretch.context.diagnostics
        var queued = stretch.context.identity.deferred.reader()
        var copied = 0
        func next(_ kind: DeferredClaims.Kind) -> Int {
            let claim = queued.next(kind)
            // Most claims follow no diagnostic: an empty append still costs a call.
            if claim.diagnosticMark > copied {
                ctx.record(contentsOf: recorded[copied..<claim.diagnosticMark])
                copied = claim.diagnosticMark
            }
            return claim.position
        }
        let first = sections.count
        sections.append(contentsOf: stretch.sections)
        // The merged list must hold the only reference to each widget array: a rename
        // below would otherwise copy the section's whole array.
        stretch.sections = []
        var sectionIndex = 0
        // Paths are built only for a rename.
        func path(_ below: PathComponent...) -> String { DecodePath.render(listPath + [.index(sectionIndex)] + below) }
        for s in first..<sections.count {
            sectionIndex = next(.section)
            ctx.identity.ledger.sections.claimID(of: &sections[s], at: path(), record: ctx.record)
            if sections[s].header != nil {
                _ = next(.header)
                ctx.identity.ledger.widgets.claimID(of: &sections[s].header!, at: path(.key("header")), record: ctx.record)
            }
            for w in sections[s].widgets.indices {
                let position = next(.widget)
                ctx.identity.ledger.widgets.claimID(of: &sections[s].widgets[w], at: path(.key("widgets"), .index(position)), record: ctx.record)
            }
        }
        precondition(queued.isAtEnd, "every queued claim is made")
        ctx.record(contentsOf: recorded[copied...])
    }
}

/// What one parallel section decode did, for the tests to see that it ran (a decode that
/// quietly stayed on one thread gives the same page, so nothing else would tell): how many
/// stretches the list was cut into, how many of them decoded, and on how many distinct
/// threads. Reported on the decoding task to ``observer`` when one is bound.
package struct ParallelSectionsRun: Sendable, Equatable {
    package var sections: Int
    package var stretches: Int
    package var decoded: Int
    package var threads: Int

    /// Called once per section list decoded in parallel, after its stretches are merged, on
    /// the caller's thread. Bind it with `ParallelSectionsRun.$observer.withValue(…) { … }`
    /// around a decode; unbound (the default) costs one task-local read per such list.
    @TaskLocal package static var observer: (@Sendable (ParallelSectionsRun) -> Void)?

    /// Called as each stretch of a list decoded in parallel starts, on the thread that
    /// decodes it, with that thread's id: a test may hold the first stretch until another
    /// thread has started one, so that "more than one thread takes part" does not depend
    /// on how busy the machine is. Bound like ``observer``, on the caller's task.
    @TaskLocal package static var stretchStarting: (@Sendable (UInt) -> Void)?
}
