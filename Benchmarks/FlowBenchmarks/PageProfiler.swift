#if canImport(Glibc)
import Glibc
#endif
import CBenchSupport
import FlowCore
import FlowJSON

/// `flow profile`: where one page's decode goes, measured in this process.
///
/// The decode runs on one thread (as the gated benchmarks), so allocation counts are
/// deterministic. Stages are measured by difference, each its own median:
/// - scan: bytes to the JSON index;
/// - content models: the full decode minus the decode with every registered type's content
///   skipped (a `Decodable` that reads nothing);
/// - identity: claiming every id of the decoded page on its own (the decoder claims them as
///   it goes; the standalone claim is the same work in one place);
/// - envelope: the decode with content skipped, minus identity: the page, its sections and
///   the widget shells (ids, layout, actions, raw data, diagnostics).
/// Their sum equals scan + decode, which is what the total (the decode from bytes) does;
/// they differ only by the noise of separately measured medians.
public final class PageProfiler {
    /// The parts measured, each runnable once under callgrind (`--instructions-of`).
    public enum Part: String, CaseIterable, Sendable {
        case total, scan, decode, skeleton, identity, encode
    }

    public struct Settings {
        /// How long each part is repeated for (its median is reported).
        public var minTime = 0.25
        public var minRuns = 5
        public var maxRuns = 201
        /// Heaviest widgets listed (and timed one by one).
        public var heaviest = 10
        /// The instruction count of one run of a part, when valgrind can give it.
        public var instructions: ((Part) throws -> Double?)?
        public init() {}
    }

    let bytes: [UInt8]
    let registry: WidgetRegistry
    let options: PageDecodingOptions
    let document: JSONDocument
    let decoded: DecodedPage
    let widgets: [WidgetSpan]

    /// Checks the document is a page (it throws when it fails as a whole) and indexes its widgets.
    public init(bytes: [UInt8], registry: WidgetRegistry, options: PageDecodingOptions) throws {
        var oneThread = options
        oneThread.threads = 1
        self.bytes = bytes
        self.registry = registry
        self.options = oneThread
        decoded = try PageDecoder(registry: registry, options: oneThread).decode(bytes)
        var scan = oneThread.limits
        scan.threads = 1
        document = try JSONDocument(bytes: bytes, options: scan)
        widgets = WidgetSpan.all(in: document, bareRoot: options.bareRoot)
    }

    /// A registry where each of `types` decodes its content as nothing.
    func skipping(_ types: [String]) -> WidgetRegistry {
        var r = registry
        for t in types { r.register(SkippedContent.self, as: t) }
        return r
    }

    /// The operation one part measures.
    func operation(_ part: Part) -> () -> Any? {
        let bytes = bytes, document = document, options = options
        switch part {
        case .total:
            let decoder = PageDecoder(registry: registry, options: options)
            return { try? decoder.decode(bytes) }
        case .scan:
            var scan = options.limits
            scan.threads = 1
            return { try? JSONDocument(bytes: bytes, options: scan) }
        case .decode:
            let decoder = PageDecoder(registry: registry, options: options)
            return { try? decoder.decode(document) }
        case .skeleton:
            let decoder = PageDecoder(registry: skipping(registry.typeNames), options: options)
            return { try? decoder.decode(document) }
        case .identity:
            let page = decoded.page
            let ids = page.allWidgets.map(\.id), sections = page.sections.map(\.id)
            return { IdentityLedger.claiming(widgetIDs: ids, sectionIDs: sections) }
        case .encode:
            let page = decoded.page, bareRoot = options.bareRoot
            return { PageEncoder.encode(page, bareRoot: bareRoot) }
        }
    }

    /// One run of `part` inside `flow_bench_measured`, for callgrind's `--toggle-collect`.
    public func runOnceMeasured(_ part: Part) {
        let run = operation(part)
        _ = run()  // warm-up outside the counted region
        var kept: Any?
        let box = Unmanaged.passRetained(OperationBox { kept = run() })
        flow_run_measured({ context in Unmanaged<OperationBox>.fromOpaque(context!).takeUnretainedValue().body() }, box.toOpaque())
        box.release()
        kept = nil
        _ = kept
    }

    /// Time (median ns) and allocations of one call of `run`.
    struct Measured {
        var ns: Double
        var allocations: Double?
    }

    static func measure(_ settings: Settings, _ run: () -> Any?) -> Measured {
        var made = run()  // warm-up: lazily built state is not the operation's cost
        made = nil
        var times: [Double] = []
        let counting = flow_allocation_counter_is_active() != 0
        var allocations: UInt64 = 0
        let start = Worker.now()
        while times.count < settings.maxRuns {
            let a0 = flow_allocation_count()
            let t0 = Worker.now()
            made = run()
            let t1 = Worker.now()
            allocations = flow_allocation_count() - a0
            made = nil  // released outside the timed region
            times.append(Double(t1 - t0))
            if times.count >= settings.minRuns && Double(t1 - start) / 1e9 >= settings.minTime { break }
        }
        _ = made
        times.sort()
        return Measured(ns: times[times.count / 2], allocations: counting ? Double(allocations) : nil)
    }

    /// Measures every stage, every registered type's content, and the heaviest widgets.
    public func profile(_ settings: Settings = Settings(), log: (String) -> Void = { _ in }) throws -> PageProfile {
        var measured: [Part: Measured] = [:]
        var instructions: [Part: Double] = [:]
        for part in Part.allCases {
            log("flow profile: measuring \(part.rawValue) …")
            measured[part] = Self.measure(settings, operation(part))
            if let count = settings.instructions { instructions[part] = try count(part) }
        }
        func stage(_ name: String, _ ns: Double, _ allocations: Double?, _ instructions: Double?) -> PageProfile.Stage {
            PageProfile.Stage(name: name, ns: ns, allocations: allocations, instructions: instructions)
        }
        func minus(_ a: Double?, _ b: Double?) -> Double? { a.flatMap { a in b.map { a - $0 } } }
        let m = { (p: Part) in measured[p]! }
        let i = { (p: Part) in instructions[p] }
        let stages = [
            stage("scan", m(.scan).ns, m(.scan).allocations, i(.scan)),
            stage("envelope", m(.skeleton).ns - m(.identity).ns, minus(m(.skeleton).allocations, m(.identity).allocations),
                  minus(i(.skeleton), i(.identity))),
            stage("content models", m(.decode).ns - m(.skeleton).ns, minus(m(.decode).allocations, m(.skeleton).allocations),
                  minus(i(.decode), i(.skeleton))),
            stage("identity", m(.identity).ns, m(.identity).allocations, i(.identity)),
        ]

        // Per type: what skipping that type's content alone saves.
        let decodeAll = m(.decode)
        var kept: [String: Int] = [:]
        for w in decoded.page.allWidgets { kept[w.type, default: 0] += 1 }
        var inputBytes: [String: Int] = [:]
        for w in widgets { inputBytes[w.type, default: 0] += w.bytes }
        let registered = Set(registry.typeNames)
        var types: [PageProfile.TypeCost] = []
        for name in Set(kept.keys).union(inputBytes.keys).sorted() {
            var cost = PageProfile.TypeCost(type: name, count: kept[name] ?? 0, ns: nil, allocations: nil, bytes: inputBytes[name] ?? 0)
            if registered.contains(name) && cost.count > 0 {
                log("flow profile: measuring the content of \(name) …")
                let decoder = PageDecoder(registry: skipping([name]), options: options)
                let document = document
                let without = Self.measure(settings) { try? decoder.decode(document) }
                cost.ns = max(0, decodeAll.ns - without.ns)
                cost.allocations = minus(decodeAll.allocations, without.allocations)
            }
            types.append(cost)
        }
        types.sort { ($0.ns ?? -1, $0.bytes) > ($1.ns ?? -1, $1.bytes) }

        var heaviest: [PageProfile.Heavy] = []
        let decoder = PageDecoder(registry: registry, options: options)
        for w in widgets.sorted(by: { ($0.bytes, $1.path) > ($1.bytes, $0.path) }).prefix(settings.heaviest) {
            let alone = Array(#"{"page":{"sections":[{"widgets":["#.utf8) + bytes[w.range] + Array("]}]}}".utf8)
            let kept = ((try? decoder.decode(alone))?.page.widgetCount ?? 0) == 1
            let time = Self.measure(settings) { try? decoder.decode(alone) }
            heaviest.append(PageProfile.Heavy(path: w.path, type: w.type, bytes: w.bytes, ns: time.ns, kept: kept))
        }

        return PageProfile(
            bytes: bytes.count, widgets: decoded.page.widgetCount, totalNs: m(.total).ns,
            totalAllocations: m(.total).allocations, totalInstructions: i(.total),
            stages: stages, encode: stage("encode", m(.encode).ns, m(.encode).allocations, i(.encode)),
            types: types, heaviest: heaviest)
    }
}

/// A content model that reads nothing: the profile's way to take one type's content
/// decoding out of the decode and see what that saves. On the library's own route (as the
/// starter types), so that only the reading is taken out: its box is allocated as theirs is.
struct SkippedContent: FlowDecodable {
    init<R: ValueReader>(from reader: R) throws {}
    init(from decoder: any Decoder) throws {}
}
