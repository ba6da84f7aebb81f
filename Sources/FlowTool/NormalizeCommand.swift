import FlowCore
import FlowWorkloads

/// `flow normalize FILE`: decode, then write the page back out.
enum NormalizeCommand {
    static let spec = CommandSpec(
        name: "normalize",
        summary: "Decode a page and write it back as compact JSON: what survives, ids resolved, raw data as received.",
        positionals: [("FILE", "The page document ('-' reads stdin).")],
        flags: [.init(name: "bare-root", help: "Read and write the page object itself at the root.")],
        discussion: """
            data, actions, tracking and the postback are written exactly as received (numbers
            unchanged); dropped widgets are gone and every id is resolved, so normalizing the
            output again gives the same bytes. Diagnostics go to stderr, one per line.
            Exit status as inspect: 0 a page came out; 1 the document failed as a whole;
            64 usage; 66 FILE unreadable.
            """
    )

    static func run(_ arguments: ParsedArguments, _ tool: ToolContext) throws -> Int32 {
        let path = arguments.positionals[0]
        let file = try readDocument(path)
        let bareRoot = arguments.flag("bare-root")
        let decoded: DecodedPage
        do {
            decoded = try PageDecoder(registry: tool.registry, options: PageDecodingOptions(bareRoot: bareRoot)).decode(file)
        } catch {
            Terminal.err("\(path): the document failed as a whole: \(error)")
            return ExitCode.failure
        }
        for d in decoded.diagnostics { Terminal.err("\(path): \(d)") }
        Terminal.outBytes(PageEncoder.encode(decoded.page, bareRoot: bareRoot) + [0x0A])
        return ExitCode.success
    }
}
