import FlowJSON

/// Giving back the index of what a decode has finished, so that the index and the model of
/// a large page are never whole in memory together.
///
/// Only a decode that made its document itself releases (a document a caller passed in
/// stays whole, since the caller may read it again), and only until a host's `Decodable`
/// keeps the tape decoder it was given (a decoder may be stored and read later): from then
/// on nothing more is given back. Finished entries are gathered while they are contiguous
/// and given back in runs of `PageDecodingOptions.indexReleaseRun` entries, so that a page
/// of small sections makes few system calls.
struct IndexRelease {
    /// Whether finished entries are given back.
    private(set) var isActive: Bool
    private let run: Int
    private let granule: Int
    /// Finished entries not given back yet.
    private var finished: Range<Int>?

    init(active: Bool, options: PageDecodingOptions) {
        isActive = active
        run = options.indexReleaseRun
        granule = options.indexReleaseGranule
    }

    /// Nothing of the index is given back from now on: a reader of it may outlive the decode.
    mutating func pin() {
        isActive = false
        finished = nil
    }

    /// The decode will not read `entries` (a section it has finished) of `document` again.
    /// A release is recorded on `timeline` when the decode is traced.
    mutating func doneWith(_ entries: Range<Int>, in document: JSONDocument, timeline: PipelineTimeline?) {
        guard isActive else { return }
        if let pending = finished, pending.upperBound == entries.lowerBound {
            finished = pending.lowerBound..<entries.upperBound
        } else {
            releaseFinished(in: document, timeline: timeline)
            finished = entries
        }
        if finished!.count >= run { releaseFinished(in: document, timeline: timeline, keepingTail: true) }
    }

    /// Gives back the finished entries gathered so far, in whole aligned stretches;
    /// `keepingTail` carries what is left past the last one into the next run (a decode
    /// going on in order), else it is dropped (a stretch of sections at its end).
    mutating func releaseFinished(in document: JSONDocument, timeline: PipelineTimeline?, keepingTail: Bool = false) {
        guard let entries = finished else { return }
        finished = nil
        guard isActive else { return }
        let start = timeline?.now() ?? 0
        let released = document.releaseIndexMemory(entries, granule: granule)
        timeline?.record("index release", since: start, ["entries": entries.count, "bytes": entries.count * 8])
        if keepingTail && released < entries.upperBound { finished = released..<entries.upperBound }
    }
}
