// swift-tools-version:6.0
// The fuzz targets of flow-core: their own package, because an instrumented build is fit
// for nothing else and executables without a `main` would break a plain `swift build` of
// the root package. Build one with lib.sh's flags (sanitizers, coverage, .build/fuzz)
//
//     source lib.sh; swift build "${FUZZ_BUILD_FLAGS[@]}" --product fuzz-json
//
// or let `./fuzz.sh json` do it (README.md). The oracles live in FlowWorkloads and the
// targets on their pages (pages.manifest, read when a binary starts) in FlowFuzzTargets, so
// `swift test` in the root package replays the corpus through exactly these checks.
import Foundation
import PackageDescription

/// One executable per oracle: `fuzz-<name>` runs `FuzzTarget.<name>` of FlowWorkloads. To add
/// one: its oracle and `FuzzTarget` in a new file of Sources/FlowWorkloads, a line in
/// `FuzzTargets.all(pages:)`, a folder `Sources/fuzz-<name>/` holding the entry point (copy another),
/// and its name here.
let fuzzTargets = ["json", "page", "one-bad-widget", "mutation", "merge-diff", "decodable"]

/// The positive control, `fuzz-canary` (`FuzzTarget.canary`: planted crashes, one armed by
/// FLOW_CANARY): built by Fuzz/canaries.sh only, so not in the list above, which CI fuzzes
/// and OSS-Fuzz builds.
let checkTargets = ["canary"]

// A path dependency's identity is its folder's name, which is the clone's name: not fixed.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "flow-core-fuzz",
    // flow-core's own platforms: a package cannot support older ones than its dependencies.
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: (fuzzTargets + checkTargets).map { .executable(name: "fuzz-\($0)", targets: ["fuzz-\($0)"]) },
    dependencies: [.package(path: "..")],
    // Each runs an oracle through FuzzHarness (FlowWorkloads), as a host's own target does,
    // on the pages FlowFuzzTargets reads at start: from FLOW_FUZZ_PAGES, else fuzz-<name>.pages/
    // beside the binary (oss-fuzz/build.sh puts them there for runners without this tree),
    // else the checkout. A missing page stops the binary, naming it and where it looked.
    targets: [
        // libFuzzer's LLVMFuzzerMutate, declared for the envelope mutator's byte fallback.
        .target(name: "CLibFuzzer", path: "Sources/CLibFuzzer"),
    ] + (fuzzTargets + checkTargets).map { name in
        .executableTarget(
            name: "fuzz-\(name)",
            dependencies: ["CLibFuzzer", .product(name: "FlowWorkloads", package: root), .product(name: "FlowFuzzTargets", package: root)],
            path: "Sources/fuzz-\(name)",
            // No `main`: libFuzzer brings its own.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    },
    swiftLanguageModes: [.v6]
)
