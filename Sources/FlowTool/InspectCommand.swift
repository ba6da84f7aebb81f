import FlowCore
import FlowJSON
import FlowWorkloads

/// `flow inspect FILE`: what the app will show, drop, and why.
enum InspectCommand {
    static let spec = CommandSpec(
        name: "inspect",
        summary: "Decode a page with the tool's widget types and show what survives and why the rest did not.",
        positionals: [("FILE", "The page document ('-' reads stdin).")],
        options: [.init(name: "format", valueName: "text|json", help: "Output format (default text).")],
        flags: [
            .init(name: "placeholders", help: "Keep unknown and malformed widgets as placeholders."),
            .init(name: "bare-root", help: "Accept the page object itself at the root."),
        ],
        discussion: """
            Exit status: 0 when a page came out (diagnostics or not); 1 when the document failed
            as a whole (not JSON, root not an object, no page object, a limit crossed);
            64 on a usage error; 66 when FILE cannot be read.
            """
    )

    static func run(_ arguments: ParsedArguments, _ tool: ToolContext) throws -> Int32 {
        let format = try arguments.choice("format", of: ["text", "json"], default: "text")
        let path = arguments.positionals[0]
        let file = try readDocument(path)
        let byteCount = file.count
        let options = PageDecodingOptions(placeholders: arguments.flag("placeholders"), bareRoot: arguments.flag("bare-root"))
        let decoded: DecodedPage
        do {
            decoded = try PageDecoder(registry: tool.registry, options: options).decode(file)
        } catch {
            if format == "json" {
                Terminal.outBytes(error.json + [0x0A])
            } else {
                Terminal.err("\(path): the document failed as a whole: \(error)")
            }
            return ExitCode.failure
        }
        let report = InspectReport(page: decoded.page, diagnostics: decoded.diagnostics, bytes: byteCount, placeholdersKept: options.placeholders)
        if format == "json" {
            Terminal.outBytes(report.json)
        } else {
            Terminal.out(report.text(title: path))
        }
        return ExitCode.success
    }
}
