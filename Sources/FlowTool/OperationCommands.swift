import FlowCore
import FlowJSON
import FlowWorkloads

/// Decodes a page file for an operation, or reports why it failed as a whole.
private func decodePage(_ path: String, format: String, _ tool: ToolContext) throws -> DecodedPage? {
    let file = try readDocument(path)
    do {
        return try PageDecoder(registry: tool.registry).decode(file)
    } catch {
        report(error, path: path, format: format)
        return nil
    }
}

private func report(_ error: PageDecodingError, path: String, format: String) {
    if format == "json" { Terminal.outBytes(error.json + [0x0A]) } else { Terminal.err("\(path): the document failed as a whole: \(error)") }
}

/// `flow merge PAGE NEXT`: pagination.
enum MergeCommand {
    static let spec = CommandSpec(
        name: "merge",
        summary: "Append a next page (pagination) and show the result in the inspect shape.",
        positionals: [("PAGE", "The page document."), ("NEXT", "The next page document.")],
        options: [.init(name: "format", valueName: "text|json", help: "Output format (default text).")],
        discussion: """
            The next page's sections are appended (ids continuing the page's positions), its
            pagination replaces the page's, its nav, header and footer are ignored. Diagnostics
            list decoding PAGE, then decoding NEXT (paths in NEXT: page.sections.J…).
            Exit status: 0 merged; 1 PAGE or NEXT failed as a whole; 64 usage; 66 unreadable.
            """
    )

    static func run(_ arguments: ParsedArguments, _ tool: ToolContext) throws -> Int32 {
        let format = try arguments.choice("format", of: ["text", "json"], default: "text")
        guard let decoded = try decodePage(arguments.positionals[0], format: format, tool) else { return ExitCode.failure }
        let next = try readInput(arguments.positionals[1])
        var page = decoded.page
        let nextDiagnostics: [Diagnostic]
        do {
            nextDiagnostics = try PageDecoder(registry: tool.registry).append(nextPage: next, to: &page)
        } catch {
            report(error, path: arguments.positionals[1], format: format)
            return ExitCode.failure
        }
        let report = InspectReport(page: page, diagnostics: decoded.diagnostics + nextDiagnostics, bytes: next.count)
        if format == "json" { Terminal.outBytes(report.json) } else { Terminal.out(report.text(title: "merged")) }
        return ExitCode.success
    }
}

/// `flow mutate PAGE RESPONSE`: an api response's mutations.
enum MutateCommand {
    static let spec = CommandSpec(
        name: "mutate",
        summary: "Apply an api response's mutations and show the result in the inspect shape, plus the toast.",
        positionals: [("PAGE", "The page document."), ("RESPONSE", "The api response ({\"mutations\": [...], \"toast\": {...}}).")],
        options: [.init(name: "format", valueName: "text|json", help: "Output format (default text).")],
        flags: [.init(name: "transactional", help: "Apply all mutations or none.")],
        discussion: """
            Diagnostics list decoding PAGE, reading RESPONSE (unknown_mutation at mutations.I),
            then applying it (mutation_target_missing, and what the brought-in widgets and
            sections recorded). The JSON output adds "toast": the response's toast object, or null,
            and "committed": false when --transactional left the page untouched.
            Exit status: 0 done; 1 PAGE or RESPONSE failed as a whole; 64 usage; 66 unreadable.
            """
    )

    static func run(_ arguments: ParsedArguments, _ tool: ToolContext) throws -> Int32 {
        let format = try arguments.choice("format", of: ["text", "json"], default: "text")
        guard let decoded = try decodePage(arguments.positionals[0], format: format, tool) else { return ExitCode.failure }
        let bytes = try readInput(arguments.positionals[1])
        let decoder = PageDecoder(registry: tool.registry)
        let response: MutationResponse
        do { response = try decoder.decodeMutations(bytes) } catch {
            report(error, path: arguments.positionals[1], format: format)
            return ExitCode.failure
        }
        var page = decoded.page
        let outcome = decoder.apply(response, to: &page, transactional: arguments.flag("transactional"))
        let report = InspectReport(page: page, diagnostics: decoded.diagnostics + response.diagnostics + outcome.diagnostics, bytes: bytes.count)
        if format == "json" {
            Terminal.outBytes(report.mutationJSON(toast: response.toast, committed: outcome.committed))
        } else {
            Terminal.out(report.text(title: "mutated"))
            Terminal.out("\napplied \(outcome.applied), failed \(outcome.failed)" + (arguments.flag("transactional") ? (outcome.committed ? ", committed" : ", rolled back: page unchanged") : ""))
            Terminal.out("toast: " + (response.toast?.description ?? "none"))
        }
        return ExitCode.success
    }
}

/// `flow diff OLD NEW`: the refresh changeset.
enum DiffCommand {
    static let spec = CommandSpec(
        name: "diff",
        summary: "The changeset between two versions of a page, by stable id (what a refresh animates).",
        positionals: [("OLD", "The page before."), ("NEW", "The page after.")],
        options: [.init(name: "format", valueName: "text|json", help: "Output format (default text).")],
        discussion: """
            JSON: {"sections": {"inserted", "removed", "moved", "updated"}, "widgets": {…},
            "nav_changed", "header_changed", "footer_changed"}. Section entries are
            {"id", "index"} (moves {"id", "from", "to"}); widget entries are {"id", "section",
            "index"} (moves {"id", "from": {"section", "index"}, "to": {…}}); inserted and updated
            give new positions, removed gives old ones.
            Exit status: 0 done; 1 OLD or NEW failed as a whole; 64 usage; 66 unreadable.
            """
    )

    static func run(_ arguments: ParsedArguments, _ tool: ToolContext) throws -> Int32 {
        let format = try arguments.choice("format", of: ["text", "json"], default: "text")
        guard let old = try decodePage(arguments.positionals[0], format: format, tool),
              let new = try decodePage(arguments.positionals[1], format: format, tool)
        else { return ExitCode.failure }
        let diff = PageDiff(old: old.page, new: new.page)
        if format == "json" { Terminal.outBytes(diff.json + [0x0A]) } else { Terminal.out(diff.text) }
        return ExitCode.success
    }
}
