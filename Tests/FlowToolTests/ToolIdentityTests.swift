import Foundation
import Testing
import FlowCore
@testable import FlowTool
import FlowWidgets

/// A host's tool speaks as itself, and its measuring sibling is judged by what it was built from.
@Suite struct ToolIdentityTests {
    @Test func helpAndUsageNameTheTool() {
        #expect(FlowTool.toolName(executable: "/x/.build/release/host-flow") == "host-flow")
        #expect(FlowTool.toolName(executable: "/x/.build/release/host-flow-measure") == "host-flow", "the sibling speaks as its caller")
        #expect(FlowTool.toolName(executable: "flow-measure") == "flow")
        #expect(FlowTool.toolName(executable: "") == "flow")
        let help = generalHelp(tool: "host-flow")
        #expect(help.hasPrefix("host-flow: "))
        #expect(help.contains("Usage: host-flow COMMAND") && help.contains("Run 'host-flow COMMAND --help'"))
        #expect(!help.contains("flow COMMAND") || !help.contains(" flow "), "no bare 'flow' left")
        #expect(InspectCommand.spec.help(tool: "host-flow").contains("Usage: host-flow inspect FILE"))
    }

    /// An executable and the object files its SwiftPM link list names, with modification times.
    static func build(objects: [(String, TimeInterval)], executableAge: TimeInterval) throws -> (dir: URL, exe: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flow-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("tool-measure.product"), withIntermediateDirectories: true)
        let now = Date()
        var list: [String] = []
        for (name, age) in objects {
            let path = dir.appendingPathComponent(name).path
            try Data([1]).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-age)], ofItemAtPath: path)
            list.append(path)
        }
        try Data((list.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("tool-measure.product/Objects.LinkFileList"))
        let exe = dir.appendingPathComponent("tool-measure").path
        try Data([1]).write(to: URL(fileURLWithPath: exe))
        try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-executableAge)], ofItemAtPath: exe)
        return (dir, exe)
    }

    @Test func aSiblingIsStaleOnlyWhenSomethingItLinksChangedAfterIt() throws {
        // Linked after every input: current, however much older than its caller it is.
        let current = try Self.build(objects: [("a.o", 600), ("b.o", 500)], executableAge: 400)
        defer { try? FileManager.default.removeItem(at: current.dir) }
        #expect(MeasuringHandOver.newerLinkInput(of: current.exe) == nil)

        // An input rebuilt after the link: stale, and the input is named.
        let stale = try Self.build(objects: [("a.o", 600), ("b.o", 10)], executableAge: 400)
        defer { try? FileManager.default.removeItem(at: stale.dir) }
        #expect(MeasuringHandOver.newerLinkInput(of: stale.exe) == stale.dir.appendingPathComponent("b.o").path)

        // No link list (copied out of its build folder): nothing to judge by.
        try FileManager.default.removeItem(at: stale.dir.appendingPathComponent("tool-measure.product"))
        #expect(MeasuringHandOver.newerLinkInput(of: stale.exe) == nil)
    }

    @Test func aSiblingWithOtherWidgetTypesIsRefused() throws {
        let tool = ToolContext(registry: FlowWidgets.registry, name: "flow")
        setenv(MeasuringHandOver.typesVariable, FlowWidgets.registry.typeNames.joined(separator: ","), 1)
        #expect(throws: Never.self) { try MeasuringHandOver.checkTypes(tool) }
        #expect(ProcessInfo.processInfo.environment[MeasuringHandOver.typesVariable] == nil, "read once, then cleared")

        setenv(MeasuringHandOver.typesVariable, (FlowWidgets.registry.typeNames + ["price_tag"]).joined(separator: ","), 1)
        do {
            try MeasuringHandOver.checkTypes(tool)
            Issue.record("a sibling lacking price_tag was accepted")
        } catch {
            #expect("\(error)".contains("it lacks price_tag"), "\(error)")
        }
        // Not handed over at all (run directly): nothing to compare.
        #expect(throws: Never.self) { try MeasuringHandOver.checkTypes(tool) }
    }
}
