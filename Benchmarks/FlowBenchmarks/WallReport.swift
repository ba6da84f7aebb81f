import FlowJSON
import Foundation

/// What `flow bench --against` found: each benchmark's ratio of head to base wall time, its
/// interval, p-value, rounds and verdict.
public struct WallReport: Sendable {
    /// The base's tool, as given.
    public let base: String
    public let comparisons: [WallComparison]
    /// Benchmarks this build has and the base does not.
    public let notInBase: [String]
    /// Benchmarks whose input is not on this machine.
    public let missing: [String]
    /// Percent either way.
    public let threshold: Double
    public let confidence: Double
    public let maxRounds: Int
    public let planted: InterleavedRunner.PlantedSlowdown?
    public let seconds: Double
    /// Whether each round timed slices in turn on one core (false: a base too old to serve
    /// them, measured in whole runs, one process each).
    public var sliced = true

    public func verdict(_ c: WallComparison) -> WallComparison.Verdict {
        c.verdict(threshold: threshold / 100, confidence: confidence)
    }

    /// The benchmarks the head is slower in: what `--gate-wall` fails on.
    public var slower: [WallComparison] { comparisons.filter { verdict($0) == .slower } }

    func count(_ v: WallComparison.Verdict) -> Int { comparisons.filter { verdict($0) == v }.count }

    var confidenceText: String { Format.percent(confidence * 100) }

    var heading: String {
        "Wall time, this build against \(base): interleaved rounds\(sliced ? " of paired slices" : " of whole runs"), \(confidenceText) intervals, threshold \(Format.percent(threshold)) either way"
    }

    var tally: String {
        let rounds = comparisons.map(\.rounds)
        let span = rounds.min() == rounds.max() ? "\(rounds.max() ?? 0)" : "\(rounds.min() ?? 0) to \(rounds.max() ?? 0)"
        return "\(count(.slower)) slower, \(count(.faster)) faster, \(count(.same)) same, \(count(.unknown)) unknown; \(span) rounds (\(Self.minutes(seconds)))."
    }

    var notes: [String] {
        var lines: [String] = []
        if count(.unknown) > 0 {
            lines.append("Unknown: the interval is still too wide to say; run more rounds (--rounds \(maxRounds * 2)), or on a quieter machine.")
        }
        if let planted {
            lines.append("A \(Format.percent(planted.percent)) slowdown was planted in this build's \(planted.benchmark) (--plant-slowdown).")
        }
        if !notInBase.isEmpty { lines.append("Not in the base, so not compared: \(notInBase.joined(separator: ", ")).") }
        if !missing.isEmpty { lines.append("Input not on this machine: \(missing.joined(separator: ", ")).") }
        return lines
    }

    /// The table's cells for one benchmark: base and head medians, ratio, interval, p, rounds, verdict.
    func cells(_ c: WallComparison) -> [String] {
        let (b, h) = c.medians
        let r = c.ratio(confidence: confidence)
        return [Format.duration(b), Format.duration(h),
                r.map { String(format: "%.3f", $0.estimate) } ?? "-",
                r.map { String(format: "%.3f – %.3f", $0.low, $0.high) } ?? "-",
                Self.p(c.pValue), String(c.rounds), verdict(c).rawValue]
    }

    static let columns = ["base", "head", "head/base", "interval", "p", "rounds", "verdict"]

    public func text() -> String {
        let nameWidth = max(9, comparisons.map(\.name.count).max() ?? 0) + 2
        let rows = comparisons.map { [$0.name] + cells($0) }
        let header = ["benchmark"] + Self.columns.map { $0 == "interval" ? "\(confidenceText) interval" : $0 }
        var widths = header.map(\.count)
        for row in rows { for (k, cell) in row.enumerated() { widths[k] = max(widths[k], cell.count) } }
        widths[0] = nameWidth
        func line(_ row: [String]) -> String {
            row.enumerated().map { k, cell in
                // Names and verdicts read left to right; figures line up on the right.
                k == 0 || k == row.count - 1 ? Format.pad(cell, widths[k]) : Format.pad(cell, widths[k], right: true)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return ([heading, "", line(header)] + rows.map(line) + ["", tally] + notes).joined(separator: "\n")
    }

    public func markdown() -> String {
        var lines = ["**\(heading)**", "",
                     "| benchmark | base | head | head/base | \(confidenceText) interval | p | rounds | verdict |",
                     "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
        for c in comparisons {
            let v = verdict(c)
            let cells = cells(c).enumerated().map { k, cell in k == 6 && (v == .slower || v == .unknown) ? "**\(cell)**" : cell }
            lines.append("| `\(c.name)` | " + cells.joined(separator: " | ") + " |")
        }
        return (lines + ["", tally] + notes.map { "\n" + $0 }).joined(separator: "\n")
    }

    /// JSON (schema "flow-bench-against/1", documented in the README).
    public func json() -> [UInt8] {
        var members = JSONObject()
        members.append("schema", "flow-bench-against/1")
        members.append("base", .string(base))
        members.append("threshold_percent", Report.number(threshold))
        members.append("confidence", Report.number(confidence))
        members.append("max_rounds", Report.number(Double(maxRounds)))
        members.append("seconds", Report.number(seconds))
        members.append("measured", .string(sliced ? "slices" : "whole runs"))
        members.append("benchmarks", .array(comparisons.map { c in
            var o = JSONObject()
            o.append("name", .string(c.name))
            o.append("verdict", .string(verdict(c).rawValue))
            o.append("rounds", Report.number(Double(c.rounds)))
            let (b, h) = c.medians
            o.append("base_median_ns", Report.number(b))
            o.append("head_median_ns", Report.number(h))
            if let r = c.ratio(confidence: confidence) {
                o.append("ratio", Self.ratio(r.estimate))
                o.append("ratio_low", Self.ratio(r.low))
                o.append("ratio_high", Self.ratio(r.high))
            } else {
                o.append("ratio", .null)
                o.append("ratio_low", .null)
                o.append("ratio_high", .null)
            }
            o.append("p_value", JSONNumber(c.pValue).map(JSONValue.number) ?? .null)
            o.append("base_ns", .array(c.base.map(Report.number)))
            o.append("head_ns", .array(c.head.map(Report.number)))
            o.append("round_ratios", .array(c.roundRatios.map(Self.ratio)))
            return .object(o)
        }))
        members.append("not_in_base", .array(notInBase.map { .string($0) }))
        members.append("missing", .array(missing.map { .string($0) }))
        if let planted {
            members.append("planted", .object(["benchmark": .string(planted.benchmark), "percent": Report.number(planted.percent)]))
        }
        return JSONWriter.encode(.object(members))
    }

    /// Ratios to five decimals: a gate reading the JSON sees what the verdict saw.
    static func ratio(_ v: Double) -> JSONValue {
        JSONNumber((v * 100_000).rounded() / 100_000).map(JSONValue.number) ?? .null
    }

    /// 0.0078, 0.31, "<0.0001".
    static func p(_ v: Double) -> String {
        v < 0.0001 ? "<0.0001" : v < 0.01 ? String(format: "%.4f", v) : String(format: "%.2f", v)
    }

    static func minutes(_ s: Double) -> String {
        s < 60 ? String(format: "%.0f s", s) : String(format: "%d min %02d s", Int(s) / 60, Int(s) % 60)
    }
}
