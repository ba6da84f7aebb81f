// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "flow-core",
    // What apps support: every product builds for these (a check in .ci/run fails when code in
    // Sources/ calls an API the toolchain marks available only later, outside `if #available`).
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "FlowJSON", targets: ["FlowJSON"]),
        .library(name: "FlowCore", targets: ["FlowCore"]),
        .library(name: "FlowWidgets", targets: ["FlowWidgets"]),
        .library(name: "FlowWorkloads", targets: ["FlowWorkloads"]),
        // flow-core's own fuzz targets on its fuzz pages (Fuzz/pages.manifest, read at start):
        // for its fuzz executables (Fuzz/, a package of its own) and tests. Hosts fuzz with
        // FlowWorkloads alone.
        .library(name: "FlowFuzzTargets", targets: ["FlowFuzzTargets"]),
        .library(name: "FlowRuntime", targets: ["FlowRuntime"]),
        // The tool as a library: a host's own `flow` is `FlowTool.main(registry:)`.
        .library(name: "FlowTool", targets: ["FlowTool"]),
        // The benchmark harness and suites (FlowTool's `bench` and `profile` run them).
        .library(name: "FlowBenchmarks", targets: ["FlowBenchmarks"]),
        // The counting malloc: linking it into an executable makes every process of that
        // executable count its allocations, so only a tool that measures links it.
        .library(name: "FlowAllocationCounter", targets: ["CAllocationCounter"]),
        .executable(name: "flow", targets: ["flow"]),
        .executable(name: "flow-measure", targets: ["flow-measure"]),
    ],
    targets: [
        // bytes -> validated flat index ("tape"); JSONValue; writer; syntax errors.
        .target(name: "FlowJSON", dependencies: ["CFlowSIMD", "CFlowAtomics"]),
        // The scanner's sixteen-bytes-at-a-time byte classification (inline C: SSE2 on x86-64).
        .target(name: "CFlowSIMD"),
        // Relaxed atomic loads and adds (inline C), for process-wide counters.
        .target(name: "CFlowAtomics"),

        // Page model, widget registry, lossy decoder (fast and reference paths), diagnostics,
        // identity, encoder.
        .target(name: "FlowCore", dependencies: ["FlowJSON"]),
        // The starter widget content models (no views).
        .target(name: "FlowWidgets", dependencies: ["FlowCore"]),
        .target(name: "FlowRuntime", dependencies: ["FlowCore", "FlowJSON"]),

        // Deterministic workloads, corpus loading, and the invariant checks (oracles) shared by
        // tests, fuzz targets and benchmarks.
        .target(name: "FlowWorkloads", dependencies: ["FlowJSON", "FlowCore", "FlowWidgets"]),
        // The built-in fuzz targets on the pages they name by index: Fuzz/pages.manifest and
        // the files it lists, read when the process starts from FLOW_FUZZ_PAGES, else
        // <binary>.pages/ beside the binary (what Fuzz/oss-fuzz/build.sh leaves), else the checkout.
        .target(name: "FlowFuzzTargets", dependencies: ["FlowWorkloads"]),

        // The allocation counter: malloc and friends wrapped, in the executable that links it.
        .target(name: "CAllocationCounter", path: "Benchmarks/CAllocationCounter"),
        // The harness's reading of the counts, whether or not the counter is linked (weak
        // references: zero and "not active" without it). Header-only, see BenchSupport.h.
        .systemLibrary(name: "CBenchSupport", path: "Benchmarks/CBenchSupport"),
        .target(
            name: "FlowBenchmarks",
            dependencies: ["FlowJSON", "FlowCore", "FlowWidgets", "FlowWorkloads", "FlowRuntime", "CBenchSupport"],
            path: "Benchmarks/FlowBenchmarks"),

        // The command-line tool as a library, taking the host's registry.
        .target(name: "FlowTool", dependencies: ["FlowJSON", "FlowCore", "FlowWorkloads", "FlowBenchmarks", "CBenchSupport"]),
        // `flow`: the tool with the starter types, on the plain allocator (validate, inspect and
        // the rest pay nothing for counting); `bench` and `profile` hand over to flow-measure.
        .executableTarget(name: "flow", dependencies: ["FlowTool", "FlowWidgets"]),
        // The same tool with the allocation counter linked in: the process that measures.
        .executableTarget(name: "flow-measure", dependencies: ["FlowTool", "FlowWidgets", "CAllocationCounter"]),

        .testTarget(name: "FlowJSONTests", dependencies: ["FlowJSON", "CFlowSIMD"]),
        // The core in its own terms: no FlowTool, so no test here depends on the tool's output format
        // (the tool's goldens are FlowToolTests').
        .testTarget(name: "FlowCoreTests", dependencies: ["FlowCore", "FlowWidgets", "FlowWorkloads"]),
        .testTarget(name: "FlowWorkloadsTests", dependencies: ["FlowWorkloads", "FlowFuzzTargets", "FlowCore", "FlowJSON", "FlowWidgets"]),
        .testTarget(name: "FlowToolTests", dependencies: ["FlowTool", "FlowBenchmarks", "FlowCore", "FlowWorkloads", "FlowWidgets"]),
        .testTarget(name: "FlowRuntimeTests", dependencies: ["FlowRuntime", "FlowCore", "FlowWidgets", "FlowJSON"]),
        // History, trend and the gate; the command-line tests run the flow executable that
        // `swift test` builds beside the test bundle.
        .testTarget(name: "FlowBenchmarksTests", dependencies: ["FlowBenchmarks", "FlowJSON"]),
        // The README's code: its Swift snippets compiled and run (public API only), and the host
        // files it shows compared with Benchmarks/HostExample's.
        .testTarget(name: "FlowDocsTests", dependencies: ["FlowCore", "FlowWidgets", "FlowRuntime", "FlowWorkloads"]),
    ],
    swiftLanguageModes: [.v6]
)
