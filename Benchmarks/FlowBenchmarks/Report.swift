import Foundation
import FlowJSON

/// Everything one `flow bench` run measured, and its renderings.
public struct Report: Sendable {
    public var results: [BenchmarkResult]
    public var scaling: [Scaling]
    public var quick: Bool
    /// Benchmarks selected but skipped for want of their input (../shared absent).
    public var missing: [String]
    public var seconds: Double
    public var instructionsAvailable: Bool
    /// False with --no-instructions.
    public var instructionsAsked = true
    public var comparison: BaselineComparison?
    /// With `--repeat-counts`: every gated count measured again elsewhere.
    public var repeatCheck: RepeatCheck?
    /// With `--pages`: the pages measured, each with the widgets its registry lacks a type for.
    public var pages: [PageSet.Page]?

    // MARK: Text

    /// The report for a terminal `width` columns wide (the table's columns are dropped, least
    /// needed first, until a row fits; comparisons go on a line of their own; prose wraps).
    public func text(width: Int = 100) -> String {
        var lines: [String] = []
        let nameWidth = Swift.min(36, Swift.max(9, results.map(\.name.count).max() ?? 9))
        let columns = Self.tableColumns.filter { $0.priority <= Self.priorityFitting(width - nameWidth) }
        let header = ([Format.pad("benchmark", nameWidth)] + columns.map { Format.pad($0.title, $0.width, right: true) }).joined(separator: " ")
        lines.append(header)
        lines.append(String(repeating: "─", count: header.count))
        var lastGroup = ""
        for r in results {
            let family = r.group.split(separator: ".").prefix(2).joined(separator: ".")
            if family != lastGroup && !lastGroup.isEmpty { lines.append("") }
            lastGroup = family
            let name = r.name.count > nameWidth ? String(r.name.prefix(nameWidth - 1)) + "…" : r.name
            lines.append(([Format.pad(name, nameWidth)] + columns.map { Format.pad($0.value(r), $0.width, right: true) }).joined(separator: " "))
            if !r.comparisons.isEmpty {
                lines += Self.wrap(r.comparisons.map(\.formatted).joined(separator: ", "), width: width, indent: "    ↳ ", continuation: "      ")
            }
        }
        if columns.count < Self.tableColumns.count {
            let dropped = Self.tableColumns.filter { c in !columns.contains { $0.title == c.title } }.map(\.title)
            lines.append("")
            lines += Self.wrap("Columns left out at \(width) columns: \(dropped.joined(separator: ", ")) (a wider terminal, COLUMNS=N, or --format markdown or json shows them).", width: width)
        }
        if !scaling.isEmpty {
            lines.append("")
            lines += Self.wrap("Scaling (cost per call against size: widgets, or for hostile shapes the count they repeat; exponent 1.00 is linear):", width: width)
            let groupWidth = Swift.min(34, scaling.map(\.group.count).max() ?? 0)
            for s in scaling {
                let verdict = s.breaksLinearTime ? "  FASTER THAN LINEAR (limit \(Scaling.limit))" : ""
                lines.append("  " + Format.pad(s.group, groupWidth) + String(format: " x%.1f per 10x, exponent %.2f (%@)", s.perTenfold, s.exponent, s.metric) + verdict)
            }
        }
        let decodes = results.filter { $0.group.hasPrefix("page.decode") && $0.bytes != nil }
        lines += Self.block(
            "Memory (resident growth over the first, cold call, its result alive, as a multiple of the input, which was resident before):",
            decodes.compactMap { r in
                r.rssGrowth.map { growth in
                    let input = Double(r.bytes!)
                    return (r.name, String(format: "+%@ for %@: %.2fx, %.2fx with input",
                                           Format.bytes(growth), Format.bytes(r.bytes!), Double(growth) / input, (Double(growth) + input) / input))
                }
            }, width: width)
        lines += Self.block(
            "Retained (heap a warm decode leaves in use while its page is alive: the model, and the bytes of the document its raw parts are ranges of):",
            decodes.compactMap { r in
                guard let retained = r.retainedBytes, let perWidget = r.retainedBytesPerWidget else { return nil }
                return (r.name, String(format: "%@: %.0f B per widget, %.2fx the input", Format.bytes(retained), perWidget, Double(retained) / Double(r.bytes!)))
            }, width: width)
        let lossy = (pages ?? []).filter { !$0.unknownTypes.isEmpty }
        if !lossy.isEmpty {
            lines.append("")
            lines += Self.wrap("UNKNOWN TYPES: widgets this tool has no type for decode to nothing, and their cost is not measured:", width: width)
            for page in lossy {
                lines += Self.wrap("\(page.stem): \(page.unknownWidgets) widget\(page.unknownWidgets == 1 ? "" : "s"): " + page.unknownTypes.map { "\($0.type) ×\($0.widgets)" }.joined(separator: ", "),
                                   width: width, indent: "  ", continuation: "    ")
            }
            lines += Self.wrap("Run the benchmark with the host's own tool (FlowTool.main(registry:) with those types).", width: width, indent: "  ", continuation: "  ")
        }
        if !missing.isEmpty {
            lines.append("")
            lines += Self.wrap("Skipped, input not on this machine: \(missing.joined(separator: ", "))", width: width)
        }
        if !instructionsAsked {
            lines.append("")
            lines.append("Instruction counts not measured (--no-instructions).")
        } else if !instructionsAvailable {
            lines.append("")
            lines.append("Instruction counts unavailable: valgrind is not installed here.")
        }
        if let repeatCheck {
            lines.append("")
            for line in repeatCheck.textLines() {
                let indent = String(line.prefix { $0 == " " })
                lines += Self.wrap(String(line.dropFirst(indent.count)), width: width, indent: indent, continuation: indent + "    ")
            }
        }
        if let comparison {
            lines.append("")
            for line in comparison.textLines() {
                let indent = String(line.prefix { $0 == " " })
                lines += Self.wrap(String(line.dropFirst(indent.count)), width: width, indent: indent, continuation: indent + "    ")
            }
        }
        lines.append("")
        lines += Self.wrap(String(format: "%d benchmarks in %.0f s%@. Wall times are medians of repeated runs after a warm-up; allocations and instructions are per call and deterministic.",
                                  results.count, seconds, quick ? " (--quick)" : ""), width: width)
        return lines.joined(separator: "\n")
    }

    /// A column of the text table: the lower its priority, the narrower the terminal it
    /// stays in (1: always).
    struct Column: Sendable {
        let title: String
        let width: Int
        let priority: Int
        let value: @Sendable (BenchmarkResult) -> String
    }

    static let tableColumns: [Column] = [
        Column(title: "median", width: 10, priority: 1) { Format.duration($0.median) },
        Column(title: "min", width: 10, priority: 5) { Format.duration($0.min) },
        Column(title: "p90", width: 10, priority: 3) { Format.duration($0.p90) },
        Column(title: "max", width: 10, priority: 5) { Format.duration($0.max) },
        Column(title: "MB/s", width: 8, priority: 1) { $0.megabytesPerSecond.map { String(format: "%.1f", $0) } ?? "–" },
        Column(title: "widgets/s", width: 10, priority: 2) { $0.widgetsPerSecond.map { Format.count($0) } ?? "–" },
        Column(title: "allocs/op", width: 10, priority: 1) { Format.count($0.allocationsPerOp) },
        Column(title: "instr/op", width: 9, priority: 1) { Report.instructionText($0.instructions) },
        Column(title: "peak RSS", width: 10, priority: 4) { $0.peakRSS.map(Format.bytes) ?? "–" },
    ]

    /// The highest priority whose columns (and all of lower priority) fit in `room` columns
    /// beside the name; 1 at least.
    static func priorityFitting(_ room: Int) -> Int {
        var fitting = 1
        for priority in 1...5 {
            let used = tableColumns.filter { $0.priority <= priority }.reduce(0) { $0 + $1.width + 1 }
            if used <= room { fitting = priority }
        }
        return fitting
    }

    /// `text` wrapped at spaces to `width` columns: the first line after `indent`, the rest
    /// after `continuation`.
    /// A titled block, after a blank line, of one line per benchmark with the names aligned;
    /// nothing when there are no rows.
    static func block(_ title: String, _ rows: [(name: String, text: String)], width: Int) -> [String] {
        guard !rows.isEmpty else { return [] }
        let nameWidth = rows.map(\.name.count).max() ?? 0
        return [""] + wrap(title, width: width) + rows.map { "  " + Format.pad($0.name, nameWidth) + " " + $0.text }
    }

    static func wrap(_ text: String, width: Int, indent: String = "", continuation: String = "") -> [String] {
        var lines: [String] = []
        var line = indent
        var lineHasWord = false
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if lineHasWord && line.count + 1 + word.count > width {
                lines.append(line)
                line = continuation
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }

    static func instructionText(_ i: BenchmarkResult.Instructions) -> String {
        switch i {
        case .measured(let v): Format.count(v)
        case .unavailable: "n/a"
        case .skipped: "–"
        }
    }

    // MARK: Markdown

    public func markdown() -> String {
        var lines = ["### flow bench\(quick ? " --quick" : "")", "",
                     "| benchmark | median | p90 | MB/s | widgets/s | allocs/op | instr/op | peak RSS | compared |",
                     "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
        for r in results {
            lines.append("| `\(r.name)` | \(Format.duration(r.median)) | \(Format.duration(r.p90)) | "
                + "\(r.megabytesPerSecond.map { String(format: "%.1f", $0) } ?? "") | \(r.widgetsPerSecond.map { Format.count($0) } ?? "") | "
                + "\(Format.count(r.allocationsPerOp)) | \(Report.instructionText(r.instructions)) | \(r.peakRSS.map(Format.bytes) ?? "") | "
                + r.comparisons.map(\.formatted).joined(separator: "; ") + " |")
        }
        if !scaling.isEmpty {
            lines += ["", "| scaling | per 10x widgets | exponent |", "| --- | ---: | ---: |"]
            for s in scaling { lines.append("| `\(s.group)` | x\(String(format: "%.1f", s.perTenfold)) | \(String(format: "%.2f", s.exponent))\(s.metric == "instructions" ? " (instructions)" : "")\(s.breaksLinearTime ? " **faster than linear**" : "") |") }
        }
        if let repeatCheck { lines += ["", repeatCheck.markdownLine()] }
        if let comparison { lines += ["", comparison.markdownLine()] }
        return lines.joined(separator: "\n")
    }

    // MARK: JSON (schema "flow-bench/1", documented in the README)

    public func json() -> [UInt8] {
        var members = JSONObject()
        members.append("schema", "flow-bench/1")
        members.append("quick", .bool(quick))
        members.append("seconds", Self.number(seconds))
        members.append("instructions_available", .bool(instructionsAvailable))
        members.append("benchmarks", .array(results.map(Self.json)))
        members.append("scaling", .array(scaling.map { s in
            .object(["group": .string(s.group), "exponent": Self.number(s.exponent), "per_10x": Self.number(s.perTenfold),
                     "metric": .string(s.metric), "breaks_linear_time": .bool(s.breaksLinearTime),
                     "points": .array(s.points.map { .object(["widgets": Self.number(Double($0.widgets)), "median_ns": Self.number($0.median)]) })])
        }))
        members.append("missing", .array(missing.map { .string($0) }))
        if let pages {
            members.append("pages", .array(pages.map { page in
                var types = JSONObject()
                for t in page.unknownTypes { types.append(t.type, Self.number(Double(t.widgets))) }
                return .object(["name": .string(page.stem), "path": .string(page.path), "bytes": Self.number(Double(page.bytes)),
                                "unknown_widgets": Self.number(Double(page.unknownWidgets)), "unknown_types": .object(types)])
            }))
        }
        members.append("comparison", comparison?.json ?? .null)
        if let repeatCheck { members.append("repeat_check", repeatCheck.json) }
        return JSONWriter.encode(.object(members))
    }

    static func number(_ v: Double) -> JSONValue {
        guard let n = JSONNumber((v * 1000).rounded() / 1000) else { return .null }
        return .number(n)
    }

    static func json(_ r: BenchmarkResult) -> JSONValue {
        var o = JSONObject()
        o.append("name", .string(r.name))
        o.append("group", .string(r.group))
        o.append("size", .string(r.size))
        o.append("summary", .string(r.summary))
        o.append("gates", .bool(r.gates))
        o.append("iterations", number(Double(r.iterations)))
        o.append("wall_ns", .object(["min": number(r.min), "median": number(r.median), "p90": number(r.p90), "max": number(r.max)]))
        o.append("bytes", r.bytes.map { number(Double($0)) } ?? .null)
        o.append("widgets", r.widgets.map { number(Double($0)) } ?? .null)
        o.append("mb_per_s", r.megabytesPerSecond.map(number) ?? .null)
        o.append("widgets_per_s", r.widgetsPerSecond.map(number) ?? .null)
        o.append("allocations_per_op", number(r.allocationsPerOp))
        o.append("peak_rss_bytes", r.peakRSS.map { number(Double($0)) } ?? .null)
        o.append("rss_growth_bytes", r.rssGrowth.map { number(Double($0)) } ?? .null)
        o.append("retained_bytes", r.retainedBytes.map { number(Double($0)) } ?? .null)
        o.append("retained_bytes_per_widget", r.retainedBytesPerWidget.map(number) ?? .null)
        switch r.instructions {
        case .measured(let v):
            o.append("instructions_per_op", number(v))
            o.append("instructions_status", "measured")
        case .unavailable:
            o.append("instructions_per_op", .null)
            o.append("instructions_status", "unavailable")
        case .skipped(let why):
            o.append("instructions_per_op", .null)
            o.append("instructions_status", .string("skipped: \(why)"))
        }
        o.append("compared", .array(r.comparisons.map { c in
            .object(["peer": .string(c.peer), "label": .string(c.label), "kind": .string(c.isShare ? "share" : "speedup"), "value": number(c.value)])
        }))
        return .object(o)
    }
}
