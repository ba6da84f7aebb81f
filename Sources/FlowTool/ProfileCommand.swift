import FlowBenchmarks
import FlowCore
import Foundation

/// `flow profile FILE`: where one page's decode goes.
enum ProfileCommand {
    static let spec = CommandSpec(
        name: "profile",
        summary: "Where one page's decode goes: stages, widget types, heaviest widgets (flow-profile/1).",
        positionals: [("FILE", "The page document.")],
        options: [
            .init(name: "format", valueName: "text|json", help: "Output format (default text)."),
            .init(name: "chart", valueName: "FILE.svg", help: "Also write the profile as an SVG chart."),
            .init(name: "flamegraph", valueName: "FILE.svg", help: "Also write a flame graph of one decode (needs valgrind)."),
            .init(name: "folded", valueName: "FILE", help: "Also write its call stacks, folded (needs valgrind)."),
            .init(name: "speedscope", valueName: "FILE.json", help: "Also write its call stacks in speedscope's format (needs valgrind)."),
            .init(name: "against", valueName: "FILE", help: "With --flamegraph: differential, against an earlier --folded FILE."),
            .init(name: "instructions-of", valueName: "PART", help: "(internal) run one measured part once, for callgrind."),
        ],
        flags: [
            .init(name: "bare-root", help: "The page object itself is at the root."),
            .init(name: "no-instructions", help: "Skip the callgrind instruction counts."),
        ],
        discussion: """
            The decode on one thread, split into stages: scan (bytes to the JSON index), envelope
            (page, sections and widget shells: ids, layout, actions, raw data), content models
            (each widget's registered type decoded from its data) and identity (every id
            claimed, duplicates renamed); encode (writing the page back) is shown apart. Each
            stage is its own median over repeated runs, so their sum and the measured total
            differ by noise: the difference is printed. Per widget type: how many the page keeps,
            the time and allocations its content decoding adds, and the input bytes of its
            widgets. The heaviest widgets are timed one by one.
            Allocations need the allocation counter (flow hands profile over to flow-measure);
            instructions need valgrind, and are skipped with --no-instructions.

            --flamegraph FILE.svg draws where the instructions of one decode go, call stack by
            call stack (callgrind, with the page decoded once through this tool's registry): a
            frame is as wide as its instructions with its callees'. Open it in a browser: hover
            a frame for its count and share, click to zoom, Ctrl-F to highlight the frames a
            regular expression matches and see their share. --folded FILE writes the same stacks
            as text (`frame;frame;frame COUNT` per line), which flamegraph.pl, inferno and
            speedscope read. --speedscope FILE.json writes them in speedscope's own format (one
            sampled profile, each stack weighted by its instructions): open it at
            https://www.speedscope.app or in a local speedscope. --against EARLIER.folded makes
            the flame graph differential: widths are this run's, and a frame is red where its own
            instructions grew since the earlier run, blue where they shrank (hover for before,
            after and the change). --flamegraph, --folded and --speedscope need valgrind
            (apt-get install valgrind).

            Exit status: 0 profiled; 1 the document failed as a whole, a debug build (profile
            measures release builds only), or --flamegraph, --folded or --speedscope without valgrind;
            64 usage; 66 FILE unreadable.
            """
    )

    static func run(_ arguments: ParsedArguments, _ tool: ToolContext) throws -> Int32 {
        let format = try arguments.choice("format", of: ["text", "json"], default: "text")
        let path = arguments.positionals[0]
        let bytes = try readInput(path)
        let options = PageDecodingOptions(bareRoot: arguments.flag("bare-root"))
        let profiler: PageProfiler
        do {
            profiler = try PageProfiler(bytes: bytes, registry: tool.registry, options: options)
        } catch {
            Terminal.err("\(path): the document failed as a whole: \(error)")
            return ExitCode.failure
        }
        if let part = arguments.value("instructions-of") {
            guard let part = PageProfiler.Part(rawValue: part) else {
                throw UsageError(message: "--instructions-of expects one of \(PageProfiler.Part.allCases.map(\.rawValue).joined(separator: ", ")), got '\(part)'")
            }
            profiler.runOnceMeasured(part)
            return ExitCode.success
        }
        // Before anything is measured: a missing valgrind or unreadable --against fails now.
        let stacks = try ProfileStacks(arguments, tool: tool.name)
        #if DEBUG
        Terminal.err("\(tool.name) profile: this is a debug build, and its figures would mean nothing. Run: swift build -c release && .build/release/\(tool.name) profile FILE")
        return ExitCode.failure
        #else
        var settings = PageProfiler.Settings()
        func measured(_ part: PageProfiler.Part) -> [String] {
            [MeasuringHandOver.selfPath, "profile", path, "--instructions-of", part.rawValue] + (options.bareRoot ? ["--bare-root"] : [])
        }
        // The whole decode's call graph also gives its instruction count: one callgrind run for both.
        var graph: CallgrindProfile?
        if !arguments.flag("no-instructions") {
            settings.instructions = { part in
                if let stacks, part == .total {
                    graph = try stacks.callgrind.callGraph(of: measured(part))
                    return graph?.total
                }
                return try Callgrind.find().map { try $0.instructions(of: measured(part)) }
            }
        }
        let profile = try profiler.profile(settings) { Terminal.err($0) }
        if format == "json" { Terminal.outBytes(profile.json + [0x0A]) } else { Terminal.out(profile.text(title: path)) }
        if let chart = arguments.value("chart") {
            try Data(profile.svg(title: path).utf8).write(to: URL(fileURLWithPath: chart))
            Terminal.err("\(tool.name) profile: chart written to \(chart)")
        }
        if let stacks {
            let graph = try graph ?? stacks.callgrind.callGraph(of: measured(.total))
            try stacks.write(graph, page: path, bytes: bytes.count, widgets: profile.widgets, tool: tool.name)
        }
        return ExitCode.success
        #endif
    }
}
