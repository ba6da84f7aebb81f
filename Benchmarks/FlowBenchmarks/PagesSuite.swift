import FlowCore
import FlowJSON

/// `flow bench --pages`: the benchmarks of a team's own pages, decoding through its registry.
///
/// Per page: the fast path on one thread (`pages.decode`, gated: deterministic allocations
/// and instructions), on every core (`pages.decode.parallel`), the reference path
/// (`pages.decode.reference`, the ratio's other side) and normalize (`pages.normalize`,
/// decode then write back, gated).
public enum PagesSuite {
    /// Pages larger than this are not run under callgrind: a 7 MB page takes minutes there.
    static let instructionCountLimit = 2_000_000

    public static func benchmarks(_ set: PageSet, registry: WidgetRegistry) -> [Benchmark] {
        var oneThread = set.options
        oneThread.threads = 1
        let fast = PageDecoder(registry: registry, options: oneThread)
        var all = set.options
        all.threads = PageDecodingOptions.defaultThreads
        let parallel = PageDecoder(registry: registry, options: all)
        let reference = ReferencePageDecoder(registry: registry, options: set.options)

        return set.pages.flatMap { page -> [Benchmark] in
            let stem = page.stem
            let workload = Workload.pageFile(page.path)
            let counted = page.bytes <= instructionCountLimit
            // Checked again in the worker: the file may have changed since the parent read it.
            let widgets: @Sendable (LoadedWorkload) throws -> Int = { w in
                do { return try fast.decode(w.bytes).page.widgetCount } catch {
                    throw BenchError("\(page.path) no longer decodes as a page: \(error)")
                }
            }
            return [
                Benchmark("pages.decode/\(stem)", "Your page, fast path on one thread", workload: workload, quick: true,
                          countsInstructions: counted,
                          peers: [.init(name: "pages.decode.reference/\(stem)", label: "vs reference path")]) { w in
                    let bytes = w.bytes
                    return Operation(bytes: bytes.count, widgets: try widgets(w)) { try? fast.decode(bytes) }
                },
                Benchmark("pages.decode.parallel/\(stem)",
                          "Your page, fast path on every core (\(PageDecodingOptions.defaultThreads) threads here)",
                          workload: workload, quick: true, gates: false, countsInstructions: false,
                          peers: [.init(name: "pages.decode/\(stem)", label: "vs one thread")]) { w in
                    let bytes = w.bytes
                    return Operation(bytes: bytes.count, widgets: try widgets(w)) { try? parallel.decode(bytes) }
                },
                Benchmark("pages.decode.reference/\(stem)", "Your page, reference path (Foundation JSONDecoder)",
                          workload: workload, quick: true, gates: false, countsInstructions: false) { w in
                    let bytes = w.bytes
                    return Operation(bytes: bytes.count, widgets: try widgets(w)) { try? reference.decode(bytes) }
                },
                Benchmark("pages.normalize/\(stem)", "Your page, normalized: decode on one thread, then write back",
                          workload: workload, quick: true, countsInstructions: counted) { w in
                    let bytes = w.bytes
                    let bareRoot = set.options.bareRoot
                    return Operation(bytes: bytes.count, widgets: try widgets(w)) {
                        (try? fast.decode(bytes)).map { PageEncoder.encode($0.page, bareRoot: bareRoot) }
                    }
                },
            ]
        }
    }
}
