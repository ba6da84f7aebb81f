// swift-tools-version:6.0
// A host of flow-core, as a team would set one up: its own widget type (`price_tag`), its
// own pages, and its own `flow` tool (every command, decoding through its registry), plus a
// fuzz target for its types. See README.md.
import Foundation
import PackageDescription

// A path dependency's package identity is its folder's name (here the clone's, which is not
// fixed: flow-core, or a worktree's name). In your own package write the name you cloned it
// as: .package(path: "../flow-core") and package: "flow-core".
let flowCore = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
let core = flowCore.lastPathComponent.lowercased()

let package = Package(
    name: "host-example",
    // flow-core's own platforms: a package cannot support older ones than its dependencies.
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .executable(name: "host-flow", targets: ["host-flow"]),
        .executable(name: "host-flow-measure", targets: ["host-flow-measure"]),
        .executable(name: "fuzz-price-tag", targets: ["fuzz-price-tag"]),
    ],
    dependencies: [.package(path: flowCore.path)],
    targets: [
        // The host's content models and its registry: the starter types plus price_tag.
        .target(name: "HostWidgets", dependencies: [
            .product(name: "FlowCore", package: core), .product(name: "FlowWidgets", package: core),
        ]),
        // The host's tool: inspect, normalize, merge, mutate, diff, generate, bench, profile.
        .executableTarget(name: "host-flow", dependencies: ["HostWidgets", .product(name: "FlowTool", package: core)]),
        // The same tool with the counting malloc linked in: bench and profile run here
        // (host-flow hands them over), so the other commands run on the plain allocator.
        .executableTarget(name: "host-flow-measure", dependencies: [
            "HostWidgets", .product(name: "FlowTool", package: core), .product(name: "FlowAllocationCounter", package: core),
        ]),
        // libFuzzer entry points for the host's types (build with Fuzz/lib.sh's flags, README).
        .executableTarget(
            name: "fuzz-price-tag",
            dependencies: ["HostWidgets", .product(name: "FlowWorkloads", package: core)],
            // The entry points are functions, not top-level code; libFuzzer brings the main.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
    ],
    swiftLanguageModes: [.v6]
)
