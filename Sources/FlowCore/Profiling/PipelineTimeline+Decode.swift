import FlowJSON

// The page decode's spans, with their counts (see `PipelineTimeline`): the decode's hooks
// are one line each, and what a span carries is said here.
extension PipelineTimeline {
    /// The page: everything after the scan, on the caller's thread.
    func recordPage(_ page: Page, since start: UInt64, ctx: DecodeContext) {
        let end = now()
        // The widgets at any depth are counted by the caller once the decode has returned
        // (`annotate`): a walk of 100,000 widgets here would lengthen the call.
        record("page", from: start, to: end, ["sections": page.sections.count, "diagnostics": ctx.diagnostics.count])
    }

    /// Stretch `k` of a section list decoded in parallel, on the thread that decoded it:
    /// its sections (the first one's place in the list, how many), the widgets they kept, the
    /// index entries it spans. `elements` are the list's element entries, `end` the list's end.
    func recordStretch(_ stretch: PageSchema.SectionStretch, _ k: Int, since start: UInt64, elements: [Int], end listEnd: Int, bytes: Int) {
        let end = now()
        let first = elements[stretch.elements.lowerBound]
        let last = stretch.elements.upperBound < elements.count ? elements[stretch.elements.upperBound] : listEnd
        let widgets = stretch.sections.reduce(0) { $0 + $1.widgets.count + ($1.header == nil ? 0 : 1) }
        record("stretch", from: start, to: end, ["stretch": k, "first section": stretch.elements.lowerBound,
                                         "sections": stretch.elements.count, "widgets": widgets,
                                         "entries": last - first, "bytes": bytes])
    }

    /// The claims of stretch `k`, made in the page's ledger in order by the thread that
    /// merged it: how many ids it claimed.
    func recordClaims(of stretch: PageSchema.SectionStretch, _ k: Int, since start: UInt64) {
        record("claims", since: start, ["stretch": k, "ids": stretch.context.identity.deferred.count,
                                        "sections": stretch.elements.count])
    }

    /// The document bytes each stretch spans, read before any stretch decodes (a stretch
    /// gives back its part of the index as it goes).
    func byteCounts(of stretches: [PageSchema.SectionStretch], elements: [Int], end: Int, view: JSONTapeView) -> [Int] {
        let endOffset = end < view.count ? view.offset(end) : view.bytes.count
        return stretches.map { stretch in
            let from = view.offset(elements[stretch.elements.lowerBound])
            let to = stretch.elements.upperBound < elements.count ? view.offset(elements[stretch.elements.upperBound]) : endOffset
            return max(0, to - from)
        }
    }
}
