import FlowWorkloads

/// `flow generate`: a deterministic, realistic page document on stdout.
enum GenerateCommand {
    static let spec = CommandSpec(
        name: "generate",
        summary: "Write a deterministic, realistic page document to stdout (same arguments, same bytes).",
        positionals: [],
        options: [
            .init(name: "widgets", valueName: "N", help: "Widgets in section bodies (required)."),
            .init(name: "seed", valueName: "S", help: "Seed (default 1)."),
            .init(name: "bad-rate", valueName: "R", help: "Share of broken widgets, 0...1 (default 0)."),
            .init(name: "duplicate-rate", valueName: "R", help: "Share of widgets reusing an earlier id, 0...1 (default 0)."),
            .init(name: "sections", valueName: "N", help: "Number of sections (default: one per 40 widgets)."),
            .init(name: "nesting", valueName: "N", help: "Deepest accordion nesting, 0 for none (default 1)."),
            .init(name: "like", valueName: "PAGE", help: "Draw the widgets from PAGE's sections instead (your own types)."),
        ],
        discussion: """
            About 380 bytes per widget: --widgets 20000 gives a page of about 7 MB.

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
        Terminal.outBytes(PageGenerator(options).generate())
        return ExitCode.success
    }
}
