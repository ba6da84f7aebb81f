import FlowJSON

/// One benchmark: a named operation on a named input, measured in a process of its own.
///
/// `prepare` runs in the worker process, outside the measured region: it loads or builds
/// what the operation needs and returns the operation itself, which must do the same work
/// every time it is called (the harness calls it many times).
public struct Benchmark: Sendable {
    /// `group/size`, e.g. `page.decode.fast/10k`.
    public let name: String
    /// What it measures, in a line.
    public let summary: String
    public let workload: Workload
    /// Part of the `--quick` subset that CI runs.
    public let quick: Bool
    /// Whether its deterministic metrics (allocations, instructions) gate CI. Competitors
    /// (Foundation) are measured for the ratio, not gated.
    public let gates: Bool
    /// Whether instruction counts are worth their cost under callgrind (large inputs take
    /// minutes there).
    public let countsInstructions: Bool
    /// The benchmarks this one is compared against, measured in the same run.
    public let peers: [Peer]
    let prepare: @Sendable (LoadedWorkload) throws -> Operation

    public struct Peer: Sendable, Hashable {
        /// The other benchmark's name.
        public let name: String
        /// How the comparison reads: "vs JSONSerialization", "of decode time".
        public let label: String
        /// A speedup reads "27.1x" (the peer's time over this one's); a share reads "3.2%"
        /// (this one's time over the peer's: a part of a whole).
        public let isShare: Bool

        public init(name: String, label: String, isShare: Bool = false) {
            self.name = name
            self.label = label
            self.isShare = isShare
        }
    }

    public var group: String { String(name.split(separator: "/").first ?? Substring(name)) }

    public var size: String { name.split(separator: "/").dropFirst().first.map(String.init) ?? "" }

    public init(_ name: String, _ summary: String, workload: Workload, quick: Bool = false, gates: Bool = true,
                countsInstructions: Bool = true, peers: [Peer] = [], prepare: @escaping @Sendable (LoadedWorkload) throws -> Operation) {
        self.name = name
        self.summary = summary
        self.workload = workload
        self.quick = quick
        self.gates = gates
        self.countsInstructions = countsInstructions
        self.peers = peers
        self.prepare = prepare
    }
}

/// The measured operation and what one call of it processes (for throughput).
///
/// `run` returns what it built; the harness releases it after the clock stops, so a decode
/// is timed without the teardown of its result (and the optimizer cannot drop the work).
public struct Operation {
    public let run: () -> Any?
    public let bytes: Int?
    public let widgets: Int?
    /// The most calls the operation supports, warm-up included (an operation that consumes
    /// its input, like removing widgets from a page, runs out).
    public let maxCalls: Int?

    public init(bytes: Int? = nil, widgets: Int? = nil, maxCalls: Int? = nil, _ run: @escaping () -> Any?) {
        self.run = run
        self.bytes = bytes
        self.widgets = widgets
        self.maxCalls = maxCalls
    }
}
