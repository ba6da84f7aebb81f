// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "flow-core",
    products: [
        .library(name: "FlowJSON", targets: ["FlowJSON"]),
        .library(name: "FlowCore", targets: ["FlowCore"]),
        .library(name: "FlowWidgets", targets: ["FlowWidgets"]),
        .library(name: "FlowWorkloads", targets: ["FlowWorkloads"]),
        .library(name: "FlowRuntime", targets: ["FlowRuntime"]),
        .executable(name: "flow", targets: ["flow"]),
    ],
    targets: [
        // bytes -> validated flat index ("tape"); JSONValue; writer; syntax errors.
        .target(name: "FlowJSON", dependencies: ["CFlowSIMD"]),
        // The scanner's sixteen-bytes-at-a-time byte classification (inline C: SSE2 on x86-64).
        .target(name: "CFlowSIMD"),

        // Page model, widget registry, lossy decoder (fast and reference paths), diagnostics,
        // identity, encoder.
        .target(name: "FlowCore", dependencies: ["FlowJSON"]),
        // The starter widget content models (no views).
        .target(name: "FlowWidgets", dependencies: ["FlowCore"]),
        .target(name: "FlowRuntime", dependencies: ["FlowCore", "FlowJSON", "FlowWidgets"]),

        // Deterministic workloads, corpus loading, and the invariant checks (oracles) shared by
        // tests, fuzz targets and benchmarks.
        .target(name: "FlowWorkloads", dependencies: ["FlowJSON", "FlowCore", "FlowWidgets"]),

        // The benchmark harness and suites, and the allocation counter they rely on (it wraps
        // malloc and friends in the executable that links it: the flow tool).
        .target(name: "CAllocationCounter", path: "Benchmarks/CAllocationCounter"),
        .target(
            name: "FlowBenchmarks",
            dependencies: ["FlowJSON", "FlowCore", "FlowWidgets", "FlowWorkloads", "FlowRuntime", "CAllocationCounter"],
            path: "Benchmarks/FlowBenchmarks"),

        // The command-line tool.
        .executableTarget(name: "flow", dependencies: ["FlowJSON", "FlowCore", "FlowWidgets", "FlowWorkloads", "FlowBenchmarks"]),

        .testTarget(name: "FlowJSONTests", dependencies: ["FlowJSON", "CFlowSIMD"]),
        .testTarget(name: "FlowCoreTests", dependencies: ["FlowCore", "FlowWidgets", "FlowWorkloads"]),
        .testTarget(name: "FlowWorkloadsTests", dependencies: ["FlowWorkloads", "FlowCore", "FlowJSON", "FlowWidgets"]),
        .testTarget(name: "FlowRuntimeTests", dependencies: ["FlowRuntime", "FlowCore", "FlowWidgets", "FlowJSON"]),
        // History, trend and the gate; the command-line tests run the flow executable that
        // `swift test` builds beside the test bundle.
        .testTarget(name: "FlowBenchmarksTests", dependencies: ["FlowBenchmarks", "FlowJSON"]),
    ],
    swiftLanguageModes: [.v6]
)
