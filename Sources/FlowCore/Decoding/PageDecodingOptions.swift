#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FlowJSON

/// How a page is decoded: placeholders, a bare root, limits and threads (see
/// <doc:PageContract#Limits-and-hostile-input> and <doc:ImplementationChoices>).
public struct PageDecodingOptions: Sendable, Hashable {
    /// Keep widgets of an unknown type or with malformed data as placeholders instead of
    /// skipping them (the original framework does this in debug builds).
    public var placeholders: Bool
    /// Accept the page object itself at the root (`{ "id": … }`) instead of `{ "page": … }`.
    /// Paths and positional ids still start at `page`.
    public var bareRoot: Bool
    /// Depth and size limits, enforced by the scan.
    public var limits: JSONScanOptions
    /// How many threads the fast path may scan a large document and decode a large section
    /// list on (it overrides `limits.threads`); 1 keeps the decode on the caller's thread.
    /// The page and its diagnostics are the same whatever the value. Registered content decoders then run on several threads at once, as
    /// their `@Sendable` registration allows.
    public var threads: Int
    /// A section list whose index spans fewer entries than this decodes on the caller's
    /// thread alone: handing work to other threads costs more than a small page takes.
    /// (A widget of the generated pages is about 35 entries; the default is ~450 widgets.)
    public var parallelMinimumEntries: Int
    /// How many finished index entries a decode gathers before it gives their memory back
    /// (see `IndexRelease`): 32,768 entries, 256 KB, one system call. Tests set
    /// 1, so that every finished section goes at once and a small page shows whether
    /// anything reads the index it gave back.
    package var indexReleaseRun = 32_768
    /// The aligned stretch given back at a time, a power of two: a memory page (4096 is
    /// raised to the system's page size). Giving back whole 2 MiB huge pages instead
    /// measured no faster and gave back less.
    package var indexReleaseGranule = 4096
    /// The smallest index whose finished sections are given back: 32 MiB (a page of about
    /// 40 MB), where the memory saved matters most. It is not free: giving pages back takes
    /// the kernel's time during the decode (measured: the 100k-widget page, 38.7 MB,
    /// decoded about 9% slower on one thread), and a smaller index reuses memory the
    /// allocator already holds, whose pages would fault in again at the next decode (a
    /// 7.7 MB page decoded 20% slower, repeatedly). Tests set 0.
    package var indexReleaseMinimumBytes = 32 << 20
    /// The smallest document whose atoms share their out-of-line fields and whose long
    /// strings share their storage (see `ExtrasInterner` and `StringCache`): 64 KiB. A
    /// smaller page holds a few hundred of them at most, which weigh less than looking for
    /// a match costs. Tests and oracles set 0.
    package var sharingMinimumBytes = 64 << 10

    public init(placeholders: Bool = false, bareRoot: Bool = false, limits: JSONScanOptions = JSONScanOptions(),
                threads: Int = PageDecodingOptions.defaultThreads, parallelMinimumEntries: Int = 1 << 14) {
        self.placeholders = placeholders
        self.bareRoot = bareRoot
        self.limits = limits
        self.threads = threads
        self.parallelMinimumEntries = parallelMinimumEntries
    }

    /// The machine's active processors, at most 8 (past that, the serial scan and the
    /// merge dominate).
    public static let defaultThreads = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
}
