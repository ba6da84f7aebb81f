import Foundation
import Testing
import FlowCore
import FlowWidgets
import FlowWorkloads

/// `flow generate --widgets N`: stdout is the page document alone, byte for byte what
/// `PageGenerator` writes; stderr says what `--widgets` counted and what comes on top, in
/// figures a decode of stdout confirms.
@Suite struct GenerateCommandTests {
    /// Runs the `flow` executable built beside the test bundle: status, stdout bytes, stderr.
    static func flow(_ arguments: [String]) throws -> (status: Int32, out: [UInt8], err: String) {
        try FlowProcess.run(arguments)
    }

    /// The figures of stderr's rows, in order: bodies, nested, section headers, bars, total.
    static func figures(_ stderr: String) -> [Int] {
        stderr.split(separator: "\n").dropFirst().compactMap { line in
            line.split(separator: " ").first.flatMap { Int($0) }
        }
    }

    @Test(arguments: [
        (widgets: 7, seed: 1, nesting: 1, badRate: 0.0),
        (widgets: 400, seed: 5, nesting: 3, badRate: 0.0),
        (widgets: 3000, seed: 9, nesting: 2, badRate: 0.05),
    ])
    func stderrCountsWhatADecodeOfStdoutFinds(_ size: (widgets: Int, seed: Int, nesting: Int, badRate: Double)) throws {
        let result = try Self.flow(["generate", "--widgets", "\(size.widgets)", "--seed", "\(size.seed)",
                                    "--nesting", "\(size.nesting)", "--bad-rate", "\(size.badRate)"])
        #expect(result.status == 0, "\(result.err)")
        let expected = PageGenerator(.init(widgets: size.widgets, seed: UInt64(size.seed), badRate: size.badRate,
                                           nesting: size.nesting)).generate()
        #expect(result.out == expected, "stdout is the page document, byte for byte")

        let page = try PageDecoder(registry: FlowWidgets.registry).decode(result.out).page
        let bodies = page.sections.reduce(0) { $0 + $1.widgets.count }
        var nested = 0
        page.forEachWidget { nested += $0.nestedWidgets.count }
        let headers = page.sections.filter { $0.header != nil }.count
        let bars = (page.header?.widgets.count ?? 0) + (page.footer?.widgets.count ?? 0)
        #expect(Self.figures(result.err) == [bodies, nested, headers, bars, page.widgetCount], "\(result.err)")
        #expect(bodies + nested + headers + bars == page.widgetCount, "the rows add up to the total")
        #expect(headers == page.sections.count && bars == 2, "every generated section has a header; one widget per bar")
        if size.nesting > 1 { #expect(nested > 0, "accordions nest") }

        let lines = result.err.split(separator: "\n").map(String.init)
        #expect(lines.first == "flow generate: --widgets counts section body widgets; the page holds more:")
        if size.badRate == 0 {
            #expect(bodies == size.widgets)
            #expect(lines[1].hasSuffix("section body widgets (--widgets \(size.widgets)), in \(page.sections.count) sections"), "\(lines[1])")
        } else {
            #expect(bodies < size.widgets, "some broken widgets are dropped")
            #expect(lines[1].contains("of the \(size.widgets) --widgets wrote, \(size.widgets - bodies) broken on purpose and dropped"), "\(lines[1])")
        }
    }

    @Test func helpSaysWhatWidgetsCounts() throws {
        let help = try Self.flow(["generate", "--help"])
        let text = String(decoding: help.out, as: UTF8.self) + help.err
        #expect(text.contains("Widgets in section bodies (required); stderr says what comes on top."), "\(text)")
        #expect(text.contains("--widgets counts the widgets of section bodies only"), "\(text)")
    }
}
