#if canImport(Glibc)
import Glibc
#endif
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import FlowBenchmarks
import FlowTool
import FlowWidgets
import FlowWorkloads

/// `flow profile --flamegraph/--folded/--against`: reading callgrind's call graph, folding it
/// into stacks that add up to its total, naming frames, and drawing the (differential) SVG.
@Suite struct FlameGraphTests {
    /// A small callgrind profile as `--separate-callers=2` writes one: names compressed
    /// (`(id) name` once, `(id)` after), a callee told apart by its caller chain, relative
    /// positions, an object for a callee (`cob`), and a call's inclusive cost on the line after
    /// `calls=`. main runs 10 itself and calls work (100 inclusive) and libc's memcpy (40);
    /// work runs 60 itself and calls memcpy (40).
    static let fixture = """
        # callgrind format
        version: 1
        positions: line
        events: Ir
        summary: 150

        ob=(1) /build/flow-measure
        fl=(1) main.swift
        fn=(1) main
        10 6
        +2 4
        cfn=(2) work'main
        calls=1 20
        12 100
        cob=(2) /lib/libc.so.6
        cfn=(3) memcpy'main
        calls=2 0
        14 40

        fn=(2)
        20 60
        cob=(2)
        cfn=(4) memcpy'work'main
        calls=1 0
        21 40

        ob=(2)
        fl=(2) ???
        fn=(3)
        0 40
        fn=(4)
        0 40
        """

    @Test func callgrindNamesAreReadWithCompressionAndCallerChains() throws {
        let profile = try CallgrindProfile(parsing: Self.fixture)
        #expect(profile.total == 150)
        #expect(profile.functions.map(\.name) == ["main", "work'main", "memcpy'main", "memcpy'work'main"])
        #expect(profile.functions.map(\.symbol) == ["main", "work", "memcpy", "memcpy"])
        #expect(profile.functions.map(\.object) == ["/build/flow-measure", "/build/flow-measure", "/lib/libc.so.6", "/lib/libc.so.6"])
        #expect(profile.functions.map(\.selfCost) == [10, 60, 40, 40], "a call's cost line is not the caller's own")
        #expect(profile.functions[0].calls == [1: 100, 2: 40])
        #expect(profile.functions[1].calls == [3: 40])
    }

    @Test func aProfileWithoutItsTotalIsRefused() {
        #expect(throws: CallgrindProfile.FormatError.self) { try CallgrindProfile(parsing: "events: Ir\nfn=(1) main\n1 5\n") }
    }

    @Test func foldingSplitsByCallerAndAddsUpToTheTotalExactly() throws {
        let profile = try CallgrindProfile(parsing: Self.fixture)
        let stacks = FoldedStacks(profile, names: ["main", "work", "memcpy", "memcpy"])
        #expect(stacks.counts == ["main": 10, "main;work": 60, "main;memcpy": 40, "main;work;memcpy": 40])
        #expect(stacks.total == Int(profile.total))
    }

    /// A profile in the format's plain form (names written out, not compressed): each
    /// function's own instructions, then each call's inclusive ones.
    static func profile(total: Int, own: KeyValuePairs<String, Int>, calls: [(caller: String, callee: String, cost: Int)]) throws -> CallgrindProfile {
        var lines = ["events: Ir", "summary: \(total)"]
        for (name, cost) in own { lines += ["fn=\(name)", "1 \(cost)"] }
        for call in calls { lines += ["fn=\(call.caller)", "cfn=\(call.callee)", "calls=1 0", "1 \(call.cost)"] }
        return try CallgrindProfile(parsing: lines.joined(separator: "\n"))
    }

    @Test func stacksStartAtTheMeasuredRegion() throws {
        let profile = try Self.profile(total: 30, own: ["main": 0, "flow_bench_measured": 5, "decode": 25],
                                       calls: [("main", "flow_bench_measured", 30), ("flow_bench_measured", "decode", 25)])
        let stacks = FoldedStacks(profile, names: profile.functions.map(\.symbol))
        #expect(stacks.counts == ["flow_bench_measured": 5, "flow_bench_measured;decode": 25])
    }

    @Test func recursionBeyondTheSeparatedLevelsKeepsTheSum() throws {
        // main calls a, a calls b, b calls a back (a cycle callgrind did not separate): a runs
        // 10 in each of its two activations, b 50. The cycle is not followed around.
        let profile = try Self.profile(total: 70, own: ["main": 0, "a": 20, "b": 50],
                                       calls: [("main", "a", 70), ("a", "b", 60), ("b", "a", 10)])
        let stacks = FoldedStacks(profile, names: profile.functions.map(\.symbol))
        #expect(stacks.total == 70)
        #expect(Set(stacks.counts.keys) == ["main;a", "main;a;b"])
    }

    @Test func foldedTextRoundTripsAndBadLinesAreNamed() throws {
        let stacks = FoldedStacks(counts: ["main;work": 60, "main": 10])
        #expect(stacks.text == "main 10\nmain;work 60\n")
        #expect(try FoldedStacks(parsing: stacks.text) == stacks)
        #expect(try FoldedStacks(parsing: "a;b c 3\n\na;b c 2\n").counts == ["a;b c": 5], "spaces in frames; repeats add up")
        #expect(throws: FoldedStacks.FormatError.self) { try FoldedStacks(parsing: "main 10\nmain;work\n") }
    }

    @Test func withoutTheDemanglerFramesAreNamedFromTheSymbol() {
        #expect(FrameNames.minimal("$s8FlowCore11PageDecoderV6decodeyAA0B0VSays5UInt8VGKF") == "FlowCore.PageDecoder.decode")
        #expect(FrameNames.minimal("malloc") == nil)
        #expect(FrameNames.module(of: "$s8FlowJSON11JSONScannerV3runyyF") == "FlowJSON")
        #expect(FrameNames.module(of: "$sSa6appendyyxnF") == "Swift")
        #expect(FrameNames.qualify("closure #1 in PageDecoder.decode(_:)", module: "FlowCore") == "closure #1 in FlowCore.PageDecoder.decode(_:)")
        #expect(FrameNames.qualify("specialized static PageSchema.decodeWidget<A>(_:)", module: "FlowCore") == "specialized static FlowCore.PageSchema.decodeWidget<A>(_:)")
        #expect(FrameNames.qualify("Array.append(_:)", module: "Swift") == "Swift.Array.append(_:)")
        #expect(FrameNames.readable([(symbol: "malloc", object: "/lib/x86_64-linux-gnu/libc.so.6"), (symbol: "a;b", object: "")])
                == ["libc.so.6`malloc", "a,b"], "C symbols by their object; no ; inside a frame")
    }

    @Test(.enabled(if: Self.demangler != nil, "swift-demangle is not on PATH"))
    func swiftSymbolsAreDemangledAndQualifiedByModule() {
        let names = FrameNames.readable([(symbol: "$s8FlowCore11PageDecoderV6decodeyAA0B0VSays5UInt8VGKF", object: "/x/flow"),
                                         (symbol: "$sSa6appendyyxnF", object: "/x/libswiftCore.so")])
        #expect(names == ["FlowCore.PageDecoder.decode(_:)", "Swift.Array.append(_:)"])
    }

    static var demangler: String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swift-demangle" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    // MARK: The SVG

    static let graph = FlameGraphSVG(title: "flow profile home.json: 12.0 kB, 30 widgets, commit abc1234", subtitle: "One decode")

    @Test func theFlameGraphIsWellFormedWithTitleFramesAndScript() throws {
        let stacks = FoldedStacks(counts: ["main": 10, "main;work": 60, "main;memcpy": 40, "main;work;memcpy": 40, "main;tiny": 1])
        let svg = Self.graph.svg(stacks)
        let elements = try Self.elements(svg)
        #expect(elements["svg"] == 1 && elements["script"] == 1 && elements["style"] == 1)
        #expect(elements["rect", default: 0] >= 6, "a background and a frame each for all, main, work, memcpy ×2 (tiny is too thin)")
        #expect(svg.contains(">flow profile home.json: 12.0 kB, 30 widgets, commit abc1234</text>"))
        #expect(svg.contains("<title>work\n100 instructions, 66.23%</title>"))
        #expect(svg.contains("Ctrl-F") && svg.contains("function zoom(") && svg.contains("Matched"))
    }

    @Test func narrowFramesShowTheFunctionFirst() {
        #expect(FlameGraphSVG.shortName("specialized static FlowCore.PageSchema.decodeWidget<A>(_:)") == "PageSchema.decodeWidget<A>(_:)")
        #expect(FlameGraphSVG.shortName("libc.so.6`malloc") == "malloc")
        #expect(FlameGraphSVG.shortName("closure #1 in FlowCore.X.y()") == "closure #1 in FlowCore.X.y()")
        #expect(FlameGraphSVG.label("specialized static FlowCore.PageSchema.decodeWidget<A>(_:)", width: 220) == "PageSchema.decodeWidget<A>(_:)")
        #expect(FlameGraphSVG.label("FlowCore.PageDecoder.decode(_:)", width: 60) == "PageDe..")
        #expect(FlameGraphSVG.label("FlowCore.PageDecoder.decode(_:)", width: 20) == "")
    }

    @Test func differentialFramesAreRedWhereTheyGrewBlueWhereTheyShrank() throws {
        let before = FoldedStacks(counts: ["main": 10, "main;grew": 100, "main;shrank": 100, "main;same": 50])
        let after = FoldedStacks(counts: ["main": 10, "main;grew": 200, "main;shrank": 50, "main;same": 50])
        let svg = Self.graph.svg(after, before: before)
        _ = try Self.elements(svg)
        func fill(_ frame: String) -> String? {
            guard let start = svg.range(of: "<title>\(frame)\n") else { return nil }
            let rest = svg[start.upperBound...]
            guard let f = rest.range(of: "fill=\"") else { return nil }
            return String(rest[f.upperBound...].prefix { $0 != "\"" })
        }
        #expect(fill("grew")?.hasPrefix("rgb(255,") == true, "\(fill("grew") ?? "no frame")")
        #expect(fill("shrank")?.hasSuffix(",255)") == true, "\(fill("shrank") ?? "no frame")")
        #expect(fill("same") == "rgb(238,238,238)")
        #expect(svg.contains("before: 100, after: 200, delta: +100 (+100.0%)"))
        #expect(!svg.contains("stacks this run lacks"))
        let gone = Self.graph.svg(after, before: FoldedStacks(counts: before.counts.merging(["main;gone": 7]) { $1 }))
        #expect(gone.contains("7 earlier instructions on stacks this run lacks"))
        #expect(FlameGraphSVG.differentialColour(1).fill == "rgb(255,20,20)" && FlameGraphSVG.differentialColour(-1).fill == "rgb(20,20,255)")
    }

    /// Element counts, parsing the SVG as XML (a parse error fails the test).
    static func elements(_ svg: String) throws -> [String: Int] {
        final class Counter: NSObject, XMLParserDelegate {
            var counts: [String: Int] = [:]
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
                counts[name, default: 0] += 1
            }
        }
        let parser = XMLParser(data: Data(svg.utf8))
        let counter = Counter()
        parser.delegate = counter
        #expect(parser.parse(), "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?") at line \(parser.lineNumber)")
        return counter.counts
    }

    // MARK: The command

    /// The executables `swift test` built beside the test bundle.
    static func page() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flame-\(UUID().uuidString).json").path
        try Data(PageGenerator(PageGenerator.Options(widgets: 120, seed: 5)).generate()).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func againstWithoutAFlameGraphIsAUsageError() throws {
        let page = try Self.page()
        defer { try? FileManager.default.removeItem(atPath: page) }
        #expect(FlowTool.run(arguments: ["profile", page, "--against", "old.folded"], registry: FlowWidgets.registry) == 64)
    }

    @Test func withoutValgrindOnPathTheErrorSaysWhatToInstall() throws {
        let page = try Self.page()
        defer { try? FileManager.default.removeItem(atPath: page) }
        let run = try FlowProcess.run(["profile", page, "--flamegraph", "/tmp/never-written.svg"], environment: ["PATH": "/nonexistent"])
        #expect(run.status == 1)
        #expect(run.err.contains("apt-get install valgrind"), "\(run.err)")
    }

    /// Valgrind cannot run a sanitized executable (the ASan and TSan runs of the tests).
    static var sanitized: Bool {
        let me = dlopen(nil, RTLD_NOW)
        return dlsym(me, "__asan_init") != nil || dlsym(me, "__tsan_init") != nil
    }

    /// In CI a missing valgrind fails this test rather than skipping it.
    static let runs = !sanitized && (Callgrind.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil)

    @Test(.enabled(if: runs, "valgrind is not installed (or this is a sanitized build, which valgrind cannot run): no real callgrind run to fold"))
    func aRealDecodeFoldsToCallgrindsTotal() throws {
        let callgrind = try #require(Callgrind.find(), "valgrind is not installed (apt-get install valgrind)")
        let page = try Self.page()
        defer { try? FileManager.default.removeItem(atPath: page) }
        // The debug flow-measure runs the decode once inside the measured region (the part
        // `flow profile` hands over with); the test bundle itself does not run under valgrind.
        let graph = try callgrind.callGraph(of: [FlowProcess.executable("flow-measure"), "profile", page, "--instructions-of", "total"])
        let stacks = FoldedStacks(graph, names: FrameNames.readable(graph.functions.map { ($0.symbol, $0.object) }))
        #expect(graph.total > 0)
        #expect(abs(Double(stacks.total) - graph.total) <= 0.01 * graph.total, "folded \(stacks.total) against callgrind's \(graph.total)")
        #expect(stacks.counts.keys.allSatisfy { $0.hasPrefix("flow-measure`flow_bench_measured") }, "stacks start at the measured region")
        #expect(stacks.counts.keys.contains { $0.contains("FlowCore.PageDecoder.decode") })
    }

    /// The words before a demangled name, each shape of them, repeated and mixed.
    @Test func leadingWordsAreSkippedWhateverTheirShape() {
        func lead(_ name: String, compilationOnly: Bool = false) -> String {
            String(name.prefix(FrameNames.leadingWordsLength(Substring(name), compilationOnly: compilationOnly)))
        }
        #expect(lead("closure #12 in implicit closure #1 in PageSchema.decode(_:)") == "closure #12 in implicit closure #1 in ")
        #expect(lead("specialized partial apply for static Foo.bar()") == "specialized partial apply for static ")
        #expect(lead("outlined copy of outlined destroy of Widget") == "outlined copy of outlined destroy of ")
        #expect(lead("default argument 0 of Foo.init(x:)") == "default argument 0 of ")
        #expect(lead("reabstraction thunk helper for closure #1 in f()") == "reabstraction thunk helper for closure #1 in ")
        #expect(lead("closure # in f()") == "", "a closure needs its number")
        #expect(lead("outlined of x") == "", "and an outlined copy its words")
        #expect(lead("PageDecoder.decode(_:)") == "")
        #expect(lead("specialized closure #1 in f()", compilationOnly: true) == "specialized ")
    }
}
