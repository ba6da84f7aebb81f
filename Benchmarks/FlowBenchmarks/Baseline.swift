import Foundation
import FlowJSON

/// A saved run to compare against (`--save-baseline`, `--baseline`).
///
/// Allocations and instructions per call are deterministic, so they gate: a rise past the
/// threshold is a regression. So does memory, so that it cannot creep back: the heap a page
/// decode leaves in use while its page is alive (retained bytes, counted by the allocator),
/// and how far resident memory rises over the cold decode of the largest page the run
/// decodes, as a multiple of that page's size (the same in every run of the same build).
/// Both gate at the allocations threshold. Wall time on a shared two-core machine is not
/// deterministic, so it is reported and gates only when asked (`--gate-wall`).
public struct Baseline: Sendable {
    public struct Entry: Sendable {
        public var allocations: Double
        public var instructions: Double?
        public var wallMedian: Double
        /// Retained heap bytes per call; page decodes only.
        public var retained: Double?
        /// Resident growth over the cold call as a multiple of the input; the largest page
        /// decode of the run only.
        public var growthRatio: Double?
    }

    /// Whether a benchmark's retained bytes are kept and gated: the page decodes, whose
    /// result is the model an app holds on screen.
    static func gatesRetained(_ name: String) -> Bool { name.hasPrefix("page.decode.") }

    /// The benchmark whose resident growth is kept and gated: the page decode of the
    /// largest input in `report` (ties: the first), where a change in what decoding holds
    /// shows most.
    static func growthGated(in report: Report) -> BenchmarkResult? {
        report.results.filter { gatesRetained($0.name) && $0.gates && $0.growthRatio != nil }
            .max { ($0.bytes ?? 0) < ($1.bytes ?? 0) }
    }

    public var entries: [String: Entry]

    public init(_ report: Report) {
        var entries: [String: Entry] = [:]
        let growthGated = Self.growthGated(in: report)?.name
        for r in report.results where r.gates {
            entries[r.name] = Entry(allocations: r.allocationsPerOp, instructions: r.instructions.value, wallMedian: r.median,
                                    retained: Self.gatesRetained(r.name) ? r.retainedBytes.map(Double.init) : nil,
                                    growthRatio: r.name == growthGated ? r.growthRatio : nil)
        }
        self.entries = entries
    }

    public func json() -> [UInt8] {
        var list = JSONObject()
        for name in entries.keys.sorted() {
            let e = entries[name]!
            var entry: JSONObject = [
                "allocations_per_op": Report.number(e.allocations),
                "instructions_per_op": e.instructions.map(Report.number) ?? .null,
                "wall_median_ns": Report.number(e.wallMedian),
            ]
            if let retained = e.retained { entry.append("retained_bytes_per_op", Report.number(retained)) }
            if let growth = e.growthRatio { entry.append("rss_growth_ratio", Report.number((growth * 1000).rounded() / 1000)) }
            list.append(name, .object(entry))
        }
        // One benchmark per line, so a refreshed baseline reads well in a diff.
        var text = "{\n  \"schema\": \"flow-bench-baseline/1\",\n  \"benchmarks\": {\n"
        text += list.members.map { m in
            "    " + String(decoding: JSONWriter.encode(.string(m.key)), as: UTF8.self) + ": " + String(decoding: JSONWriter.encode(m.value), as: UTF8.self)
        }.joined(separator: ",\n")
        text += "\n  }\n}\n"
        return Array(text.utf8)
    }

    public init(bytes: [UInt8]) throws {
        let value: JSONValue
        do { value = try JSONValue(parsing: bytes) } catch { throw BenchError("baseline is not valid JSON: \(error)") }
        guard value["schema"]?.stringValue == "flow-bench-baseline/1", let list = value["benchmarks"]?.objectValue else {
            throw BenchError("baseline: expected {\"schema\": \"flow-bench-baseline/1\", \"benchmarks\": {…}}")
        }
        var entries: [String: Entry] = [:]
        for m in list {
            guard let a = m.value["allocations_per_op"]?.numberValue?.doubleValue,
                  let w = m.value["wall_median_ns"]?.numberValue?.doubleValue
            else { throw BenchError("baseline: entry \(m.key) lacks allocations_per_op or wall_median_ns") }
            entries[m.key] = Entry(allocations: a, instructions: m.value["instructions_per_op"]?.numberValue?.doubleValue, wallMedian: w,
                                   retained: m.value["retained_bytes_per_op"]?.numberValue?.doubleValue,
                                   growthRatio: m.value["rss_growth_ratio"]?.numberValue?.doubleValue)
        }
        self.entries = entries
    }

    /// Compares a run with this baseline, one threshold for every metric.
    public func compare(_ report: Report, thresholdPercent: Double, gateWall: Bool) -> BaselineComparison {
        compare(report, thresholds: GateThresholds(uniform: thresholdPercent), gateWall: gateWall)
    }

    /// Compares a run with this baseline, each metric against its own threshold.
    public func compare(_ report: Report, thresholds: GateThresholds, gateWall: Bool) -> BaselineComparison {
        var comparison = BaselineComparison(thresholds: thresholds, gateWall: gateWall)
        for r in report.results {
            guard let e = entries[r.name] else { continue }
            comparison.compared += 1
            func check(_ metric: String, _ now: Double?, _ then: Double?, gates: Bool, thresholdPercent: Double) {
                guard let now, let then, then > 0 || now > 0 else { return }
                let limit = thresholdPercent / 100
                let change = then == 0 ? 1 : (now - then) / then
                let finding = BaselineComparison.Finding(benchmark: r.name, metric: metric, baseline: then, current: now, change: change)
                if change > limit {
                    if gates { comparison.regressions.append(finding) } else { comparison.notices.append(finding) }
                } else if change < -limit && gates {
                    comparison.improvements.append(finding)
                }
            }
            check("allocations/op", r.allocationsPerOp, e.allocations, gates: true, thresholdPercent: thresholds.allocations)
            check("instructions/op", r.instructions.value, e.instructions, gates: true, thresholdPercent: thresholds.instructions)
            check("wall median", r.median, e.wallMedian, gates: gateWall, thresholdPercent: thresholds.wall)
            check("retained bytes", r.retainedBytes.map(Double.init), e.retained, gates: true, thresholdPercent: thresholds.allocations)
            check("resident growth / input", r.growthRatio, e.growthRatio, gates: true, thresholdPercent: thresholds.allocations)
        }
        return comparison
    }
}

public struct BaselineComparison: Sendable {
    public struct Finding: Sendable {
        public let benchmark: String
        public let metric: String
        public let baseline: Double
        public let current: Double
        public let change: Double

        var text: String {
            // A multiple of the input reads as one ("2.031x"); the rest are counts.
            let isRatio = metric.hasSuffix("/ input")
            func show(_ v: Double) -> String { isRatio ? String(format: "%.3fx", v) : Format.count(v) }
            return String(format: "%@  %@: %@ -> %@ (%+.1f%%)", benchmark, metric, show(baseline), show(current), change * 100)
        }
    }

    public let thresholds: GateThresholds
    public let gateWall: Bool
    /// The gating metrics' threshold (the larger of allocations' and instructions').
    public var thresholdPercent: Double { max(thresholds.allocations, thresholds.instructions) }
    public var compared = 0
    /// Past the threshold on a gating metric: the run fails (exit 2).
    public var regressions: [Finding] = []
    /// Past the threshold on wall time without --gate-wall: reported, not failed.
    public var notices: [Finding] = []
    /// Better than the baseline past the threshold: time to refresh it.
    public var improvements: [Finding] = []

    public var failed: Bool { !regressions.isEmpty }

    func textLines() -> [String] {
        var lines = ["Baseline: \(compared) benchmarks compared, thresholds \(thresholds.summary(wall: gateWall)) (allocations and instructions gate"
                     + (gateWall ? ", wall time too)." : "; wall time is reported only).")]
        if regressions.isEmpty { lines.append("  no regression") }
        for f in regressions { lines.append("  REGRESSION  " + f.text) }
        for f in notices { lines.append("  slower (wall, not gated)  " + f.text) }
        for f in improvements { lines.append("  improved  " + f.text) }
        if !improvements.isEmpty { lines.append("  Improvements past the threshold: refresh the baseline (flow bench --quick --save-baseline FILE).") }
        return lines
    }

    func markdownLine() -> String {
        if regressions.isEmpty {
            return "**Baseline:** no regression past \(thresholds.summary(wall: gateWall)) (\(compared) compared, \(improvements.count) improved)."
        }
        return "**Baseline: \(regressions.count) regression(s)** past \(thresholds.summary(wall: gateWall)): " + regressions.map { "`\($0.benchmark)` \($0.metric) \(String(format: "%+.1f%%", $0.change * 100))" }.joined(separator: ", ")
    }

    var json: JSONValue {
        func list(_ findings: [Finding]) -> JSONValue {
            .array(findings.map { f in
                .object(["benchmark": .string(f.benchmark), "metric": .string(f.metric), "baseline": Report.number(f.baseline),
                         "current": Report.number(f.current), "change_pct": Report.number(f.change * 100)])
            })
        }
        let thresholdsPct: JSONValue = .object(["allocations": Report.number(thresholds.allocations),
                                                "instructions": Report.number(thresholds.instructions), "wall": Report.number(thresholds.wall)])
        return .object(["threshold_pct": Report.number(thresholdPercent), "thresholds_pct": thresholdsPct,
                        "gate_wall": .bool(gateWall), "compared": Report.number(Double(compared)),
                        "regressions": list(regressions), "wall_notices": list(notices), "improvements": list(improvements)])
    }
}
