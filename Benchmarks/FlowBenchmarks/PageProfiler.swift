#if canImport(Glibc)
import Glibc
#endif
import CBenchSupport
import FlowCore
import FlowJSON

/// `flow profile`: where one page's decode goes, measured in this process.
///
/// The decode runs on one thread (as the gated benchmarks), so allocation counts are
/// deterministic. The operations run in rounds (each once per round), and stages are
/// medians over the rounds, of a time or of a difference within a round:
/// - scan: bytes to the JSON index;
/// - content models: the full decode minus the decode with every registered type's content
///   skipped (a `Decodable` that reads nothing);
/// - identity: claiming every id of the decoded page on its own (the decoder claims them as
///   it goes; the standalone claim is the same work in one place);
/// - envelope: the decode with content skipped, minus identity: the page, its sections and
///   the widget shells (ids, layout, actions, raw data, diagnostics).
/// Their sum is scan + decode, the work the total (the decode from bytes) does; it differs
/// from the total only by the noise of separately taken medians.
public final class PageProfiler {
    /// The parts measured, each runnable once under callgrind (`--instructions-of`).
    public enum Part: String, CaseIterable, Sendable {
        case total, scan, decode, skeleton, identity, encode
    }

    public struct Settings {
        /// How long each group of operations (the stages; the types; one heavy widget) is
        /// repeated for, in rounds; medians over the rounds are reported.
        public var minTime = 1.0
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

    /// Runs every operation once per round, round after round, until `settings.minTime` has
    /// passed (and at least `minRuns` rounds): a burst of load on a shared machine then
    /// falls on every operation alike, and differences are taken within a round. Returns
    /// each operation's times by round, and its allocations in the last round (nil without
    /// the counter).
    static func rounds(_ settings: Settings, _ operations: [() -> Any?]) -> (times: [[Double]], allocations: [Double?]) {
        for run in operations { _ = run() }  // warm-up: lazily built state is not the operations' cost
        let counting = flow_allocation_counter_is_active() != 0
        var times = Array(repeating: [Double](), count: operations.count)
        var allocations = Array(repeating: Double?.none, count: operations.count)
        let start = Worker.now()
        var round = 0
        while round < settings.maxRuns {
            for (k, run) in operations.enumerated() {
                let a0 = flow_allocation_count()
                let t0 = Worker.now()
                var made = run()
                let t1 = Worker.now()
                let a1 = flow_allocation_count()
                made = nil  // released outside the timed region
                _ = made
                times[k].append(Double(t1 - t0))
                if counting { allocations[k] = Double(a1 - a0) }
            }
            round += 1
            if round >= settings.minRuns && Double(Worker.now() - start) / 1e9 >= settings.minTime { break }
        }
        return (times, allocations)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// The median over rounds of `a - b` (both timed in the same round).
    static func pairedDifference(_ a: [Double], _ b: [Double]) -> Double {
        median(zip(a, b).map { $0 - $1 })
    }

    /// Measures every stage, every registered type's content, and the heaviest widgets.
    public func profile(_ settings: Settings = Settings(), log: (String) -> Void = { _ in }) throws -> PageProfile {
        log("flow profile: measuring the stages …")
        let parts = Part.allCases
        let (times, allocations) = Self.rounds(settings, parts.map(operation))
        var instructions: [Part: Double] = [:]
        if let count = settings.instructions {
            for part in parts {
                log("flow profile: counting the instructions of \(part.rawValue) …")
                instructions[part] = try count(part)
            }
        }
        func t(_ p: Part) -> [Double] { times[parts.firstIndex(of: p)!] }
        func a(_ p: Part) -> Double? { allocations[parts.firstIndex(of: p)!] }
        func i(_ p: Part) -> Double? { instructions[p] }
        func minus(_ x: Double?, _ y: Double?) -> Double? { x.flatMap { x in y.map { x - $0 } } }
        func stage(_ name: String, _ ns: Double, _ allocations: Double?, _ instructions: Double?) -> PageProfile.Stage {
            PageProfile.Stage(name: name, ns: ns, allocations: allocations, instructions: instructions)
        }
        let stages = [
            stage("scan", Self.median(t(.scan)), a(.scan), i(.scan)),
            stage("envelope", Self.pairedDifference(t(.skeleton), t(.identity)), minus(a(.skeleton), a(.identity)),
                  minus(i(.skeleton), i(.identity))),
            stage("content models", Self.pairedDifference(t(.decode), t(.skeleton)), minus(a(.decode), a(.skeleton)),
                  minus(i(.decode), i(.skeleton))),
            stage("identity", Self.median(t(.identity)), a(.identity), i(.identity)),
        ]

        // Per type: what skipping that type's content alone saves, against the full decode in
        // the same round.
        var kept: [String: Int] = [:]
        // At every depth, so that the types' counts add up to the page's widgets.
        decoded.page.forEachWidget { kept[$0.type, default: 0] += 1 }
        var inputBytes: [String: Int] = [:]
        for w in widgets { inputBytes[w.type, default: 0] += w.bytes }
        let registered = Set(registry.typeNames)
        let names = Set(kept.keys).union(inputBytes.keys).sorted()
        let timed = names.filter { registered.contains($0) && (kept[$0] ?? 0) > 0 }
        log("flow profile: measuring the content of \(timed.count) widget types …")
        let document = document, options = options
        let withoutEach: [() -> Any?] = timed.map { name in
            let decoder = PageDecoder(registry: skipping([name]), options: options)
            return { try? decoder.decode(document) }
        }
        let (typeTimes, typeAllocations) = Self.rounds(settings, [operation(.decode)] + withoutEach)
        var types = names.map { name in
            PageProfile.TypeCost(type: name, count: kept[name] ?? 0, ns: nil, allocations: nil, bytes: inputBytes[name] ?? 0)
        }
        for (k, name) in timed.enumerated() {
            let n = names.firstIndex(of: name)!
            types[n].ns = max(0, Self.pairedDifference(typeTimes[0], typeTimes[k + 1]))
            types[n].allocations = minus(typeAllocations[0], typeAllocations[k + 1])
        }
        types.sort { ($0.ns ?? -1, $0.bytes) > ($1.ns ?? -1, $1.bytes) }

        var heaviest: [PageProfile.Heavy] = []
        let decoder = PageDecoder(registry: registry, options: options)
        // A widget alone takes microseconds: a tenth of the time gives thousands of rounds.
        var alone = settings
        alone.minTime = settings.minTime / 10
        for w in widgets.sorted(by: { ($0.bytes, $1.path) > ($1.bytes, $0.path) }).prefix(settings.heaviest) {
            let page = Array(#"{"page":{"sections":[{"widgets":["#.utf8) + bytes[w.range] + Array("]}]}}".utf8)
            let kept = ((try? decoder.decode(page))?.page.widgetCount ?? 0) == 1
            let time = Self.median(Self.rounds(alone, [{ try? decoder.decode(page) }]).times[0])
            heaviest.append(PageProfile.Heavy(path: w.path, type: w.type, bytes: w.bytes, ns: time, kept: kept))
        }

        return PageProfile(
            bytes: bytes.count, widgets: decoded.page.widgetCount, totalNs: Self.median(t(.total)),
            totalAllocations: a(.total), totalInstructions: i(.total),
            stages: stages, encode: stage("encode", Self.median(t(.encode)), a(.encode), i(.encode)),
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
