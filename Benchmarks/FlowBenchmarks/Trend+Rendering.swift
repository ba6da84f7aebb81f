import Foundation
import FlowJSON

/// The trend as text for a terminal, markdown for a pull request or a job summary, and JSON
/// (schema `flow-bench-trend/1`, documented in the README) for dashboards.
extension Trend {
    // MARK: Shared phrases

    func label(_ run: Int) -> String { runs[run].label }

    var thresholdSentence: String {
        let gating = "allocations \(Format.percent(thresholds.allocations)) and instructions \(Format.percent(thresholds.instructions)) gate"
        return gateWall ? "Thresholds: \(gating), wall \(Format.percent(thresholds.wall)) too."
            : "Thresholds: \(gating); wall time is informational (--gate-wall gates it at \(Format.percent(thresholds.wall)))."
    }

    func stepText(_ s: Step) -> String {
        "\(s.benchmark)  \(s.metric.rawValue) \(Format.change(s.change)) at \(label(s.to)) (from \(label(s.from))): "
            + "\(Format.exact(s.before)) -> \(Format.exact(s.after))" + (s.environmentChanged ? "  [toolchain or machine changed]" : "")
    }

    /// The run the latest was compared with (the one before it).
    var previousLabel: String? { runs.count >= 2 ? runs[runs.count - 2].label : nil }

    func wallSpreadText(_ s: Series) -> String {
        guard let spread = s.wallSpread else { return "–" }
        guard s.points(.wall).count >= 2, spread.median > 0 else { return "one run" }
        return "\(Format.duration(spread.min))–\(Format.duration(spread.max)) (±\(String(format: "%.0f", (spread.max - spread.min) / spread.median * 50))%)"
    }

    func changeText(_ v: Double?) -> String { v.map(Format.change) ?? "–" }

    func driftText(_ d: Drift) -> String {
        "\(d.benchmark)  \(d.metric.rawValue) \(Format.change(d.change)) from \(label(d.from)) to \(label(d.to)): "
            + "\(Format.exact(d.before)) -> \(Format.exact(d.after))"
    }

    // MARK: Text

    public func text() -> String {
        guard let latest else { return "No runs." }
        var lines = ["flow bench trend: \(runs.count) run\(runs.count == 1 ? "" : "s"), \(runs[0].label) (\(runs[0].date)) to \(latest.label) (\(latest.date))"
            + (earlierRuns > 0 ? "; \(earlierRuns) earlier outside the window" : "") + ".", thresholdSentence, ""]
        let header = [Format.pad("benchmark", 36), Format.pad("runs", 4, right: true), Format.pad("instr/op", 10, right: true),
                      Format.pad("latest", 9, right: true), Format.pad("drift", 9, right: true), Format.pad("allocs/op", 10, right: true),
                      Format.pad("latest", 9, right: true), Format.pad("drift", 9, right: true), Format.pad("wall median", 11, right: true),
                      "  wall spread over the runs"].joined(separator: " ")
        lines.append(header)
        lines.append(String(repeating: "─", count: header.count))
        for s in series {
            let runCount = Set(Metric.allCases.flatMap { s.points($0).map(\.run) }).count
            lines.append([Format.pad(s.name + (s.gates ? "" : " (not gated)"), 36), Format.pad(String(runCount), 4, right: true),
                          Format.pad(s.points(.instructions).last.map { Format.count($0.value) } ?? "–", 10, right: true),
                          Format.pad(changeText(latestChange(s, .instructions)), 9, right: true),
                          Format.pad(changeText(s.drift(.instructions)), 9, right: true),
                          Format.pad(s.points(.allocations).last.map { Format.count($0.value) } ?? "–", 10, right: true),
                          Format.pad(changeText(latestChange(s, .allocations)), 9, right: true),
                          Format.pad(changeText(s.drift(.allocations)), 9, right: true),
                          Format.pad(s.points(.wall).last.map { Format.duration($0.value) } ?? "–", 11, right: true),
                          "  " + wallSpreadText(s)].joined(separator: " "))
        }
        lines.append("")
        if steps.isEmpty {
            lines.append("No step change past the threshold in the window.")
        } else {
            lines.append("Step changes past the threshold (\(steps.count)):")
            for s in steps { lines.append("  " + stepText(s)) }
        }
        if !drifts.isEmpty {
            lines.append("")
            lines.append("Drift past the threshold from the first run of the window to the last (\(drifts.count)):")
            for d in drifts { lines.append("  " + driftText(d)) }
        }
        lines.append("")
        lines.append(verdict)
        for s in regressions { lines.append("  REGRESSION  " + stepText(s)) }
        return lines.joined(separator: "\n")
    }

    var verdict: String {
        guard let latest else { return "No runs." }
        guard let previous = previousLabel else { return "Latest run \(latest.label): the only run, nothing to compare with." }
        return regressed
            ? "Latest run \(latest.label) against \(previous): REGRESSED (\(regressions.count) metric\(regressions.count == 1 ? "" : "s") past the threshold)."
            : "Latest run \(latest.label) against \(previous): no regression."
    }

    // MARK: Markdown

    public func markdown() -> String {
        guard let latest else { return "### flow bench trend\n\nNo runs." }
        var lines = ["### flow bench trend", "",
                     "\(runs.count) run\(runs.count == 1 ? "" : "s"), `\(runs[0].label)` → `\(latest.label)`"
                         + (earlierRuns > 0 ? " (\(earlierRuns) earlier outside the window)" : "") + ". " + thresholdSentence, ""]
        if let previous = previousLabel {
            if regressed {
                lines.append("**Latest run `\(latest.label)`: \(regressions.count) regression(s)** against `\(previous)`:")
                for s in regressions {
                    lines.append("- `\(s.benchmark)` \(s.metric.rawValue) **\(Format.change(s.change))** (\(Format.exact(s.before)) → \(Format.exact(s.after)))"
                        + (s.environmentChanged ? ", toolchain or machine changed" : ""))
                }
            } else {
                lines.append("**Latest run `\(latest.label)`: no regression** against `\(previous)`.")
            }
        } else {
            lines.append("**Latest run `\(latest.label)`:** the only run, nothing to compare with.")
        }
        lines += ["", "| benchmark | instr/op | Δ latest | drift | allocs/op | Δ latest | drift | wall median | wall spread |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for s in series {
            lines.append("| `\(s.name)`\(s.gates ? "" : " (not gated)") | \(s.points(.instructions).last.map { Format.count($0.value) } ?? "–") | "
                + "\(changeText(latestChange(s, .instructions))) | \(changeText(s.drift(.instructions))) | "
                + "\(s.points(.allocations).last.map { Format.count($0.value) } ?? "–") | \(changeText(latestChange(s, .allocations))) | "
                + "\(changeText(s.drift(.allocations))) | \(s.points(.wall).last.map { Format.duration($0.value) } ?? "–") | \(wallSpreadText(s)) |")
        }
        lines.append("")
        if steps.isEmpty {
            lines.append("No step change past the threshold in the window.")
        } else {
            lines.append("<details><summary>Step changes past the threshold (\(steps.count))</summary>")
            lines.append("")
            for s in steps { lines.append("- " + stepText(s).replacingOccurrences(of: "->", with: "→")) }
            lines.append("")
            lines.append("</details>")
        }
        if !drifts.isEmpty {
            lines.append("")
            lines.append("**Drift past the threshold** over the window: "
                + drifts.map { "`\($0.benchmark)` \($0.metric.rawValue) \(Format.change($0.change))" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    // MARK: JSON

    public func json() -> [UInt8] {
        func number(_ v: Double?) -> JSONValue { v.map(Report.number) ?? .null }
        func step(_ s: Step) -> JSONValue {
            .object(["benchmark": .string(s.benchmark), "metric": .string(s.metric.key), "from": .string(label(s.from)),
                     "to": .string(label(s.to)), "before": number(s.before), "after": number(s.after),
                     "change_pct": number(s.change * 100), "environment_changed": .bool(s.environmentChanged)])
        }
        var o = JSONObject()
        o.append("schema", "flow-bench-trend/1")
        o.append("runs", .array(runs.map { r in
            .object(["label": .string(r.label), "date": .string(r.date), "quick": .bool(r.quick), "toolchain": .string(r.toolchain),
                     "machine": .object(["cpu": .string(r.machine.cpu), "cores": number(Double(r.machine.cores)), "os": .string(r.machine.os)])])
        }))
        o.append("earlier_runs", number(Double(earlierRuns)))
        o.append("thresholds_pct", .object(["allocations": number(thresholds.allocations), "instructions": number(thresholds.instructions),
                                            "wall": number(thresholds.wall)]))
        o.append("gate_wall", .bool(gateWall))
        o.append("benchmarks", .array(series.map { s in
            var b = JSONObject()
            b.append("name", .string(s.name))
            b.append("gates", .bool(s.gates))
            for m in Metric.allCases {
                let p = s.points(m)
                var mo = JSONObject()
                mo.append("values", .array(p.map { .object(["run": .string(label($0.run)), "value": number($0.value)]) }))
                mo.append("latest_change_pct", number(latestChange(s, m).map { $0 * 100 }))
                mo.append("drift_pct", number(s.drift(m).map { $0 * 100 }))
                if m == .wall, let spread = s.wallSpread {
                    mo.append("min", number(spread.min))
                    mo.append("median", number(spread.median))
                    mo.append("max", number(spread.max))
                }
                b.append(m.key, .object(mo))
            }
            return .object(b)
        }))
        o.append("steps", .array(steps.map(step)))
        o.append("drifts", .array(drifts.map { d in
            .object(["benchmark": .string(d.benchmark), "metric": .string(d.metric.key), "from": .string(label(d.from)),
                     "to": .string(label(d.to)), "before": number(d.before), "after": number(d.after), "change_pct": number(d.change * 100)])
        }))
        o.append("regressions", .array(regressions.map(step)))
        o.append("regressed", .bool(regressed))
        return JSONWriter.encode(.object(o))
    }
}

extension Format {
    /// A figure in full, to the thousandth: 13110867 -> "13,110,867"; 1761.988 -> "1,761.988".
    static func exact(_ v: Double) -> String {
        guard v.isFinite, abs(v) < 1e12 else { return String(v) }
        let thousandths = Int64((abs(v) * 1000).rounded())
        let fraction = thousandths % 1000 == 0 ? "" : String(format: ".%03lld", thousandths % 1000)
        var digits = String(thousandths / 1000)
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(digits, at: 0)
        return (v < 0 && thousandths > 0 ? "-" : "") + groups.joined(separator: ",") + fraction
    }
}
