import FlowCore
import FlowJSON
import FlowWidgets

/// The invariant checks shared by the tests, the fuzz targets and the benchmarks.
///
/// Each takes input bytes, runs the library on them, and returns what went wrong (empty:
/// all held). They never crash on bad input themselves: a failure is a description, and
/// the caller decides (a test records it, a fuzz target traps on it).
public enum Oracles {
    /// The starter types: the registry every check uses unless it is given a host's.
    public static let registry = FlowWidgets.registry

    /// Decode options a fuzz input can select with its first byte.
    public static func options(selector: UInt8) -> PageDecodingOptions {
        var options = PageDecodingOptions(placeholders: selector & 1 != 0, bareRoot: selector & 2 != 0)
        if selector & 4 != 0 { options.limits.maximumDepth = 8 + Int(selector >> 3) }
        return options
    }

    /// The page oracle: any bytes as a page document.
    /// - never a crash (by running at all);
    /// - when a page comes out: every id present and unique (widgets, sections), the page
    ///   empty exactly when it holds no widget, normalize is a fixed point;
    /// - the fast path gives the same on several threads as on one; both give back the index
    ///   of every section as soon as it is finished (`indexReleaseRun` 1), so a read of a
    ///   given-back entry shows as a page that differs from the reference path's;
    /// - the fast path and the reference path agree exactly (page and diagnostics), on
    ///   every document the reference decoder takes (see ``ReferencePageDecoder``), and
    ///   write the page back to the same bytes: both keep opaque JSON (data, actions,
    ///   tracking, postback) as the slices of the input they received, never rebuilt;
    /// - the page's own API agrees with it (``pageAPI(_:decoder:)``), and on the normalized
    ///   page each widget's stored fingerprint is the one its model gives, and a widget
    ///   written alone decodes back to itself, its content's atoms too (``widgetRoundTrips(_:decoder:)``).
    ///
    /// `registry` is the host's widget types (the starter types by default), so its content
    /// decoders go through the same checks.
    public static func page(_ bytes: [UInt8], options: PageDecodingOptions = PageDecodingOptions(),
                            registry: WidgetRegistry = Oracles.registry) -> [String] {
        var failures: [String] = []
        // On one thread: the decode on several is compared with it below.
        var oneThread = options
        oneThread.threads = 1
        oneThread.indexReleaseRun = 1
        oneThread.indexReleaseMinimumBytes = 0
        oneThread.sharingMinimumBytes = 0
        oneThread.indexReleaseGranule = 4096
        // The reference path's scan of the input, made once: whether it takes the document,
        // where its zeros need respelling, and its decode all read it. (Foundation's
        // decoder has a fixed depth limit of 512, so only default limits compare.)
        let referenceInput = options.limits == PageDecodingOptions().limits ? ReferencePageDecoder.Accepted(bytes) : nil
        let fast: DecodedPage
        do {
            fast = try PageDecoder(registry: registry, options: oneThread).decode(bytes)
        } catch {
            // A document failure; the reference must fail too when it takes the document.
            if let referenceInput, (try? ReferencePageDecoder(registry: registry, options: options).decode(referenceInput)) != nil {
                failures.append("the fast path failed the document (\(error)) but the reference path decoded it")
            }
            return failures
        }
        failures += identity(fast.page)
        failures += pageAPI(fast.page, decoder: PageDecoder(registry: registry, options: oneThread))
        failures += parallelAgreement(bytes, serial: fast, options: options, registry: registry)
        if fast.page.isEmpty != (fast.page.widgetCount == 0) { failures.append("empty flag disagrees with the widget count") }

        let once = PageEncoder.encode(fast.page, bareRoot: options.bareRoot)
        var reparse = options
        reparse.placeholders = false
        if let again = try? PageDecoder(registry: registry, options: reparse).decode(once) {
            let twice = PageEncoder.encode(again.page, bareRoot: options.bareRoot)
            if twice != once && !options.placeholders { failures.append("normalize is not a fixed point") }
            failures += fingerprintAgreement(again.page)
            // With placeholders the normalized document holds widgets the reparse drops, so
            // its diagnostics' positions are not the page's.
            if !options.placeholders { failures += widgetRoundTrips(again, decoder: PageDecoder(registry: registry, options: reparse)) }
        } else if options.limits == PageDecodingOptions().limits {
            failures.append("the normalized page does not decode")
        }

        // Agreement. Zero spelled as Foundation refuses it is the one known divergence: the
        // reference path reads the same document with those zeros respelled.
        if let accepted = referenceInput {
            let respelled = zerosRespelledForFoundation(bytes, document: accepted.document)
            do {
                let decoder = ReferencePageDecoder(registry: registry, options: options)
                let reference = try respelled.map { try decoder.decode($0) } ?? decoder.decode(accepted)
                let f = fast.diagnostics.map(\.key), r = reference.diagnostics.map(\.key)
                if f != r { failures.append("diagnostics differ: fast \(f), reference \(r)") }
                if fast.page != reference.page { failures.append("pages differ between the fast and the reference path") }
                let written = PageEncoder.encode(reference.page, bareRoot: options.bareRoot)
                if written != (respelled == nil ? once : zerosRespelledForFoundation(once) ?? once) {
                    failures.append("the reference path's page writes back other bytes than the fast path's")
                }
            } catch {
                failures.append("the reference path failed the document (\(error)) but the fast path decoded it")
            }
        }
        return failures
    }

    /// The one place the fast path differs from Foundation on purpose (the page contract, "Numbers": zero is
    /// zero however it is spelled): a number literal that is zero but that Foundation's zero
    /// check refuses as a Double or Float (`0e5`, `0.00e2`; see
    /// `JSONNumberParsing.foundationSaysTrueZero`). Returns `bytes` with each such literal's
    /// exponent digits set to `0` (same length, same value, a spelling Foundation takes), or
    /// nil when there is none, so that the reference path can be held to everything else.
    public static func zerosRespelledForFoundation(_ bytes: [UInt8]) -> [UInt8]? {
        guard let document = try? JSONDocument(bytes: bytes) else { return nil }
        return zerosRespelledForFoundation(bytes, document: document)
    }

    /// The same, from `bytes` already scanned into `document`.
    static func zerosRespelledForFoundation(_ bytes: [UInt8], document: JSONDocument) -> [UInt8]? {
        var positions: [Int] = []
        document.withView { view in
            for i in 0..<view.count where view.kind(i) == .number {
                let literal = view.rawBytes(i)
                guard JSONNumberParsing.isZero(literal), !JSONNumberParsing.foundationSaysTrueZero(literal),
                      let marker = literal.firstIndex(where: { $0 | 0x20 == UInt8(ascii: "e") }) else { continue }
                let start = view.offset(i)
                for k in (marker + 1)..<literal.count where literal[k] &- UInt8(ascii: "0") < 10 { positions.append(start + k) }
            }
        }
        guard !positions.isEmpty else { return nil }
        var respelled = bytes
        for p in positions { respelled[p] = UInt8(ascii: "0") }
        return respelled
    }

    /// The decode on several threads (forced, however small the page) gives what the
    /// decode on one gave: the same page, ids, and diagnostics, messages and order included;
    /// and what it records for the profiler counts what it did (``timelineAgreement(_:decoded:)``).
    static func parallelAgreement(_ bytes: [UInt8], serial: DecodedPage, options: PageDecodingOptions,
                                  registry: WidgetRegistry = Oracles.registry) -> [String] {
        // One section decodes on the caller's thread whatever the options: nothing to compare.
        guard serial.page.sections.count >= 2 else { return [] }
        var parallel = options
        parallel.threads = 2
        parallel.parallelMinimumEntries = 0
        parallel.indexReleaseRun = 1
        parallel.indexReleaseMinimumBytes = 0
        parallel.sharingMinimumBytes = 0
        parallel.indexReleaseGranule = 4096
        // Recorded on a timeline, as `flow profile --trace` records it.
        let timeline = PipelineTimeline()
        guard let many = PipelineTimeline.bind(timeline, { try? PageDecoder(registry: registry, options: parallel).decode(bytes) }) else {
            return ["the decode on several threads failed the document; on one thread it did not"]
        }
        var failures = timelineAgreement(timeline.spans, decoded: many)
        if many.diagnostics != serial.diagnostics { failures.append("diagnostics differ on several threads: \(many.diagnostics.map(\.key)) vs \(serial.diagnostics.map(\.key))") }
        if many.page != serial.page { failures.append("pages differ on several threads") }
        if many.page.allWidgets.map(\.id) != serial.page.allWidgets.map(\.id) || many.page.sections.map(\.id) != serial.page.sections.map(\.id) {
            failures.append("ids differ on several threads")
        }
        return failures
    }

    /// The figures a decode records are its own: one `page` span counting the page's
    /// sections and diagnostics, and a `claims` span for each `stretch` of sections decoded
    /// on a thread of its own.
    static func timelineAgreement(_ spans: [PipelineTimeline.Span], decoded: DecodedPage) -> [String] {
        var failures: [String] = []
        let pages = spans.filter { $0.name == "page" }
        if pages.count != 1 || pages[0]["sections"] != decoded.page.sections.count || pages[0]["diagnostics"] != decoded.diagnostics.count {
            failures.append("the timeline's page spans \(pages.map(\.args)) do not count \(decoded.page.sections.count) sections and \(decoded.diagnostics.count) diagnostics")
        }
        let stretches = spans.filter { $0.name == "stretch" }.count, claims = spans.filter { $0.name == "claims" }.count
        if stretches != claims { failures.append("\(stretches) stretch spans but \(claims) claims spans") }
        return failures
    }

    /// Every widget id and every section id present and unique.
    public static func identity(_ page: Page) -> [String] {
        var failures: [String] = []
        var seen = Set<String>()
        for w in page.allWidgets {
            if w.id.isEmpty { failures.append("a widget has an empty id") }
            if !seen.insert(w.id).inserted { failures.append("widget id \(w.id) appears twice") }
        }
        var sections = Set<String>()
        for s in page.sections where !sections.insert(s.id).inserted { failures.append("section id \(s.id) appears twice") }
        return failures
    }
}
