import FlowJSON

/// `flow validate FILE`: the strict RFC 8259 check.
enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate",
        summary: "Check that FILE is strict RFC 8259 JSON.",
        positionals: [("FILE", "The document to check ('-' reads stdin).")],
        options: [
            .init(name: "max-depth", valueName: "N", help: "Deepest nesting accepted (default 512)."),
        ],
        discussion: """
            Exit status: 0 valid; 1 invalid, with one line on stderr giving the byte offset,
            line, column and reason; 64 on a usage error; 66 when FILE cannot be read.
            Strings are decoded too, so a \\u escape naming a lone surrogate is invalid.
            """
    )

    static func run(_ arguments: ParsedArguments, _ tool: ToolContext) throws -> Int32 {
        let path = arguments.positionals[0]
        let depth = try arguments.integer("max-depth", default: 512, range: 1...JSONScanOptions.depthCeiling)
        let bytes = try readInput(path)
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONSyntaxError) in
                try JSONDocument.validate(buffer, options: JSONScanOptions(maximumDepth: depth))
            }
        }
        if case .failure(let error) = result {
            Terminal.err("\(path): invalid JSON at \(error)")
            return ExitCode.failure
        }
        return ExitCode.success
    }
}
