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
    /// With `--pages`: the pages measured, each with the widgets its registry lacks a type for.
    public var pages: [PageSet.Page]?

    // MARK: Text

    public func text() -> String {
        var lines: [String] = []
        let header = [Format.pad("benchmark", 36), Format.pad("median", 10, right: true), Format.pad("min", 10, right: true),
                      Format.pad("p90", 10, right: true), Format.pad("max", 10, right: true), Format.pad("MB/s", 8, right: true),
                      Format.pad("widgets/s", 10, right: true), Format.pad("allocs/op", 10, right: true),
                      Format.pad("instr/op", 9, right: true), Format.pad("peak RSS", 10, right: true)].joined(separator: " ")
        lines.append(header)
        lines.append(String(repeating: "─", count: header.count))
        var lastGroup = ""
        for r in results {
            let family = r.group.split(separator: ".").prefix(2).joined(separator: ".")
            if family != lastGroup && !lastGroup.isEmpty { lines.append("") }
            lastGroup = family
            var row = [Format.pad(r.name, 36), Format.pad(Format.duration(r.median), 10, right: true),
                       Format.pad(Format.duration(r.min), 10, right: true), Format.pad(Format.duration(r.p90), 10, right: true),
                       Format.pad(Format.duration(r.max), 10, right: true),
                       Format.pad(r.megabytesPerSecond.map { String(format: "%.1f", $0) } ?? "–", 8, right: true),
                       Format.pad(r.widgetsPerSecond.map { Format.count($0) } ?? "–", 10, right: true),
                       Format.pad(Format.count(r.allocationsPerOp), 10, right: true),
                       Format.pad(instructionText(r.instructions), 9, right: true),
                       Format.pad(r.peakRSS.map(Format.bytes) ?? "–", 10, right: true)].joined(separator: " ")
            if !r.comparisons.isEmpty { row += "   " + r.comparisons.map(\.formatted).joined(separator: ", ") }
            lines.append(row)
        }
        if !scaling.isEmpty {
            lines.append("")
            lines.append("Scaling (cost per call against size: widgets, or for hostile shapes the count they repeat):")
            for s in scaling {
                let verdict = s.breaksLinearTime ? "  FASTER THAN LINEAR (limit \(Scaling.limit))" : ""
                lines.append("  " + Format.pad(s.group, 34) + String(format: "x%.1f per 10x  (exponent %.2f by %@; 1.00 is linear)", s.perTenfold, s.exponent, s.metric) + verdict)
            }
        }
        let memory = results.filter { $0.group.hasPrefix("page.decode") && $0.bytes != nil && $0.rssGrowth != nil }
        if !memory.isEmpty {
            lines.append("")
            lines.append("Memory (resident growth over the first, cold call, its result alive; the input bytes were resident before):")
            for r in memory {
                let input = Double(r.bytes!), growth = Double(r.rssGrowth!)
                lines.append("  " + Format.pad(r.name, 34) + String(format: "+%@ for %@ of input: %.2fx the input (%.2fx counting the input)",
                                                                     Format.bytes(r.rssGrowth!), Format.bytes(r.bytes!), growth / input, (growth + input) / input))
            }
        }
        let lossy = (pages ?? []).filter { !$0.unknownTypes.isEmpty }
        if !lossy.isEmpty {
            lines.append("")
            lines.append("UNKNOWN TYPES: widgets this tool has no type for decode to nothing, and their cost is not measured:")
            for page in lossy {
                lines.append("  " + Format.pad(page.stem, 34) + "\(page.unknownWidgets) widgets: "
                    + page.unknownTypes.map { "\($0.type) ×\($0.widgets)" }.joined(separator: ", "))
            }
            lines.append("  Run the benchmark with the host's own tool (FlowTool.main(registry:) with those types).")
        }
        if !missing.isEmpty {
            lines.append("")
            lines.append("Skipped, input not on this machine: \(missing.joined(separator: ", "))")
        }
        if !instructionsAsked {
            lines.append("")
            lines.append("Instruction counts not measured (--no-instructions).")
        } else if !instructionsAvailable {
            lines.append("")
            lines.append("Instruction counts unavailable: valgrind is not installed here.")
        }
        if let comparison { lines.append(""); lines += comparison.textLines() }
        lines.append("")
        lines.append(String(format: "%d benchmarks in %.0f s%@. Wall times are medians of repeated runs after a warm-up; allocations and instructions are per call and deterministic.",
                            results.count, seconds, quick ? " (--quick)" : ""))
        return lines.joined(separator: "\n")
    }

    private func instructionText(_ i: BenchmarkResult.Instructions) -> String {
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
                + "\(Format.count(r.allocationsPerOp)) | \(instructionText(r.instructions)) | \(r.peakRSS.map(Format.bytes) ?? "") | "
                + r.comparisons.map(\.formatted).joined(separator: "; ") + " |")
        }
        if !scaling.isEmpty {
            lines += ["", "| scaling | per 10x widgets | exponent |", "| --- | ---: | ---: |"]
            for s in scaling { lines.append("| `\(s.group)` | x\(String(format: "%.1f", s.perTenfold)) | \(String(format: "%.2f", s.exponent))\(s.metric == "instructions" ? " (instructions)" : "")\(s.breaksLinearTime ? " **faster than linear**" : "") |") }
        }
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
