// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "flow-core",
    products: [
        .library(name: "FlowJSON", targets: ["FlowJSON"]),
        .executable(name: "flow", targets: ["flow"]),
    ],
    targets: [
        // bytes -> validated flat index ("tape"); JSONValue; writer; syntax errors.
        .target(name: "FlowJSON"),

        // The command-line tool.
        .executableTarget(name: "flow", dependencies: ["FlowJSON"]),

        .testTarget(name: "FlowJSONTests", dependencies: ["FlowJSON"]),
    ],
    swiftLanguageModes: [.v6]
)
