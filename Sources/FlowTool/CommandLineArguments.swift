/// A small, strict argument parser: `--name value`, `--name=value`, boolean `--flag`,
/// positionals, `--` to end options, `-h`/`--help` anywhere. Anything unknown is a usage
/// error that names it (exit 64), never silently ignored.
struct CommandSpec: Sendable {
    struct Option: Sendable {
        var name: String
        var valueName: String
        var help: String
    }

    struct Flag: Sendable {
        var name: String
        var help: String
    }

    var name: String
    var summary: String
    var positionals: [(name: String, help: String)]
    /// Any number of further arguments after the positionals (`flow bench --pages PATH...`).
    var rest: (name: String, help: String)? = nil
    var options: [Option] = []
    var flags: [Flag] = []
    var discussion: String = ""

    func usageLine(tool: String) -> String {
        var parts = [tool, name]
        parts += positionals.map { $0.name }
        if let rest { parts.append("[\(rest.name)...]") }
        parts += options.map { "[--\($0.name) \($0.valueName)]" }
        parts += flags.map { "[--\($0.name)]" }
        return parts.joined(separator: " ")
    }

    func help(tool: String) -> String {
        var lines = ["\(summary)", "", "Usage: \(usageLine(tool: tool))"]
        if !positionals.isEmpty || rest != nil {
            lines.append("")
            lines.append("Arguments:")
            for p in positionals { lines.append("  " + p.name.padding(to: 22) + p.help) }
            if let rest { lines.append("  " + (rest.name + "...").padding(to: 22) + rest.help) }
        }
        if !options.isEmpty || !flags.isEmpty {
            lines.append("")
            lines.append("Options:")
            for o in options { lines.append("  " + "--\(o.name) \(o.valueName)".padding(to: 22) + o.help) }
            for f in flags { lines.append("  " + "--\(f.name)".padding(to: 22) + f.help) }
            lines.append("  " + "-h, --help".padding(to: 22) + "Show this help.")
        }
        if !discussion.isEmpty {
            lines.append("")
            lines.append(discussion)
        }
        return lines.joined(separator: "\n")
    }
}

struct UsageError: Error {
    var message: String
}

struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var wantsHelp = false

    func value(_ name: String) -> String? { values[name] }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// An integer option, with a usage error that says what was wrong.
    func integer(_ name: String, default fallback: Int, range: ClosedRange<Int> = Int.min...Int.max) throws(UsageError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let v = Int(text), range.contains(v) else {
            throw UsageError(message: "--\(name) expects an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return v
    }

    /// A number option (e.g. a rate in 0...1).
    func double(_ name: String, default fallback: Double, range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let text = values[name] else { return fallback }
        guard let v = Double(text), v.isFinite, range.contains(v) else {
            throw UsageError(message: "--\(name) expects a number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return v
    }

    /// An option restricted to a fixed set of words.
    func choice(_ name: String, of allowed: [String], default fallback: String) throws(UsageError) -> String {
        guard let text = values[name] else { return fallback }
        guard allowed.contains(text) else {
            throw UsageError(message: "--\(name) expects one of \(allowed.joined(separator: ", ")), got '\(text)'")
        }
        return text
    }
}

extension CommandSpec {
    /// Whether `name` is one of this command's options or flags, or help.
    func isOption(_ name: Substring) -> Bool {
        name == "help" || options.contains { $0.name == name } || flags.contains { $0.name == name }
    }

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var i = 0
        var optionsEnded = false
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if optionsEnded || !arg.hasPrefix("-") || arg == "-" {
                parsed.positionals.append(arg)
                continue
            }
            if arg == "--" { optionsEnded = true; continue }
            if arg == "-h" || arg == "--help" { parsed.wantsHelp = true; continue }
            guard arg.hasPrefix("--") else {
                throw UsageError(message: "unknown option '\(arg)'")
            }
            var name = String(arg.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if flags.contains(where: { $0.name == name }) {
                guard inlineValue == nil else { throw UsageError(message: "--\(name) takes no value") }
                parsed.flags.insert(name)
            } else if let option = options.first(where: { $0.name == name }) {
                if let inlineValue {
                    parsed.values[name] = inlineValue
                } else {
                    guard i < arguments.count else {
                        throw UsageError(message: "--\(name) expects a value (\(option.valueName))")
                    }
                    // `--trace --threads 2`: the value was forgotten, not meant to be "--threads".
                    let next = arguments[i]
                    if next.hasPrefix("--"), isOption(next.dropFirst(2).prefix { $0 != "=" }) {
                        throw UsageError(message: "--\(name) expects a value (\(option.valueName)), got the option '\(next)'")
                    }
                    parsed.values[name] = arguments[i]
                    i += 1
                }
            } else {
                let known = options.map(\.name) + flags.map(\.name)
                let suggestion = known.min { editDistance($0, name) < editDistance($1, name) }
                    .flatMap { editDistance($0, name) <= 3 ? " (did you mean --\($0)?)" : nil } ?? ""
                throw UsageError(message: "unknown option '--\(name)'\(suggestion)")
            }
        }
        if parsed.wantsHelp { return parsed }
        if parsed.positionals.count < positionals.count || (rest == nil && parsed.positionals.count > positionals.count) {
            let expected = positionals.map(\.name).joined(separator: " ")
            throw UsageError(message: parsed.positionals.count < positionals.count
                ? "missing argument: expected \(expected.isEmpty ? "no arguments" : expected)"
                : "too many arguments: expected \(expected.isEmpty ? "none" : expected), got \(parsed.positionals.joined(separator: " "))")
        }
        return parsed
    }
}

private func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var row = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var previous = row[0]
        row[0] = i
        for j in 1...max(b.count, 1) where !b.isEmpty {
            let current = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
            previous = current
        }
    }
    return row[b.count]
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
