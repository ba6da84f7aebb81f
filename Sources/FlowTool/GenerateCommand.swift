import FlowCore
import FlowWorkloads

/// `flow generate`: a deterministic, realistic page document on stdout.
enum GenerateCommand {
    static let spec = CommandSpec(
        name: "generate",
        summary: "Write a deterministic, realistic page document to stdout (same arguments, same bytes).",
        positionals: [],
        options: [
            .init(name: "widgets", valueName: "N", help: "Widgets in section bodies (required); stderr says what comes on top."),
            .init(name: "seed", valueName: "S", help: "Seed (default 1)."),
            .init(name: "bad-rate", valueName: "R", help: "Share of broken widgets, 0...1 (default 0)."),
            .init(name: "duplicate-rate", valueName: "R", help: "Share of widgets reusing an earlier id, 0...1 (default 0)."),
            .init(name: "sections", valueName: "N", help: "Number of sections (default: one per 40 widgets)."),
            .init(name: "nesting", valueName: "N", help: "Deepest accordion nesting, 0 for none (default 1)."),
            .init(name: "like", valueName: "PAGE", help: "Draw the widgets from PAGE's sections instead (your own types)."),
        ],
        discussion: """
            About 380 bytes per widget: --widgets 20000 gives a page of about 7 MB.

            --widgets counts the widgets of section bodies only. With the built-in mix, stderr then
            says what the page holds on top, from a decode of the output through the tool's types:
            nested widgets (accordion items, at any depth), section headers, and the header and
            footer bar widgets, with the total that Page.widgetCount (and inspect's stats.widgets)
            finds; body widgets broken on purpose (--bad-rate) and dropped by the decode are
            named there. stdout holds the page document alone.

            With --like PAGE, the page is made from one of your own: N widgets drawn (seeded)
            from PAGE's sections, copied as JSON whatever their type, into sections shaped like
            PAGE's; the rest of PAGE is kept. Ids are made unique (~k after the id of the k-th
            widget drawn, and of widgets nested in it). --seed and --sections apply; the other
            knobs are for the built-in mix only.
              flow generate --like pages/home.json --widgets 100000 > home-100k.json
            """
    )

    static func run(_ arguments: ParsedArguments, _ tool: ToolContext) throws -> Int32 {
        guard arguments.value("widgets") != nil else { throw UsageError(message: "--widgets N is required") }
        if let like = arguments.value("like") {
            let knobs = ["bad-rate", "duplicate-rate", "nesting"].filter { arguments.value($0) != nil }
            guard knobs.isEmpty else {
                throw UsageError(message: "--like draws the widgets from PAGE as they are; expected no --\(knobs.joined(separator: ", --")) with it")
            }
            let generator = SampledPageGenerator(
                widgets: try arguments.integer("widgets", default: 0, range: 0...10_000_000),
                seed: UInt64(try arguments.integer("seed", default: 1, range: 0...Int.max)),
                sections: arguments.value("sections") == nil ? nil : try arguments.integer("sections", default: 1, range: 1...1_000_000))
            do {
                Terminal.outBytes(try generator.generate(like: try readInput(like)))
            } catch let error as SampledPageGenerator.Failure {
                throw ToolError(description: "\(like): \(error)")
            }
            return ExitCode.success
        }
        let options = PageGenerator.Options(
            widgets: try arguments.integer("widgets", default: 0, range: 0...10_000_000),
            seed: UInt64(try arguments.integer("seed", default: 1, range: 0...Int.max)),
            badRate: try arguments.double("bad-rate", default: 0, range: 0...1),
            duplicateRate: try arguments.double("duplicate-rate", default: 0, range: 0...1),
            sections: arguments.value("sections") == nil ? nil : try arguments.integer("sections", default: 1, range: 1...1_000_000),
            nesting: try arguments.integer("nesting", default: 1, range: 0...32))
        let bytes = PageGenerator(options).generate()
        Terminal.outBytes(bytes)
        // After the page, so that stdout is the same bytes whatever the decode says.
        do {
            let page = try PageDecoder(registry: tool.registry).decode(bytes).page
            Terminal.err(WidgetBreakdown(page).report(requested: options.widgets, tool: tool.name))
        } catch {
            Terminal.err("\(tool.name) generate: the page written does not decode, so no count of its widgets: \(error)")
        }
        return ExitCode.success
    }
}

/// The widgets of a page by where they sit: what `flow generate --widgets N` counted (the
/// section bodies) and what comes on top, adding up to ``Page/widgetCount``.
struct WidgetBreakdown: Equatable {
    var sectionBodies = 0
    var sections = 0
    /// Widgets held by other widgets (accordion items), at any depth.
    var nested = 0
    var sectionHeaders = 0
    /// The page header's and footer's widgets.
    var bars = 0
    /// ``Page/widgetCount``: the sum of the above.
    var total = 0

    init(_ page: Page) {
        sections = page.sections.count
        sectionBodies = page.sections.reduce(0) { $0 + $1.widgets.count }
        sectionHeaders = page.sections.count { $0.header != nil }
        bars = (page.header?.widgets.count ?? 0) + (page.footer?.widgets.count ?? 0)
        page.forEachWidget { nested += $0.nestedWidgets.count }
        total = page.widgetCount
    }

    /// The lines `generate` writes on stderr; `requested`: the `--widgets` figure.
    func report(requested: Int, tool: String) -> String {
        let dropped = requested - sectionBodies
        let bodies = dropped == 0
            ? "section body widgets (--widgets \(requested)), in \(sections) sections"
            : "section body widgets (of the \(requested) --widgets wrote, \(dropped) broken on purpose and dropped: --bad-rate), in \(sections) sections"
        let rows: [(Int, String)] = [
            (sectionBodies, bodies),
            (nested, "nested widgets (accordion items, at any depth)"),
            (sectionHeaders, "section headers"),
            (bars, "header and footer bar widgets"),
            (total, "widgets in all, decoded (Page.widgetCount, inspect's stats.widgets)"),
        ]
        let width = rows.map { String($0.0).count }.max() ?? 1
        return (["\(tool) generate: --widgets counts section body widgets; the page holds more:"]
                + rows.map { String(repeating: " ", count: 2 + width - String($0.0).count) + "\($0.0)  \($0.1)" })
            .joined(separator: "\n")
    }
}
