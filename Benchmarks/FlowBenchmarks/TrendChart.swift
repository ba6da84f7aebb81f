import Foundation

/// A self-contained SVG of a trend: one small chart per gated benchmark, its instructions and
/// allocations per call over the runs as the change from the window's first run, the
/// threshold as a band around zero, and the steps past it marked.
///
/// Relative change rather than raw counts: a 3% step reads the same on a benchmark of 20
/// thousand instructions and one of 100 million, and a flat series stays flat at any scale.
public enum TrendChart {
    static let instructionsColor = "#2563EB"
    static let allocationsColor = "#059669"
    static let regressionColor = "#DC2626"
    static let improvementColor = "#7C3AED"

    public static func svg(_ trend: Trend) -> String {
        let width = 960.0, margin = 24.0, gap = 16.0, columns = 3
        let cellWidth = (width - 2 * margin - Double(columns - 1) * gap) / Double(columns)
        let cellHeight = 144.0
        let charted = trend.series.filter { $0.gates && (!$0.points(.instructions).isEmpty || !$0.points(.allocations).isEmpty) }
        var parts: [String] = []
        let title = trend.runs.isEmpty ? "flow bench trend: no runs"
            : "flow bench trend: \(trend.runs.count) run\(trend.runs.count == 1 ? "" : "s"), \(trend.runs[0].label) to \(trend.runs[trend.runs.count - 1].label)"
        parts.append(Chart.text(margin, 32, title, size: 18, weight: "600"))
        parts.append(Chart.text(margin, 52, "Change from the first run of the window, per call. Band: the threshold (±"
            + "\(Format.percent(trend.thresholds.instructions)) instructions, ±\(Format.percent(trend.thresholds.allocations)) allocations).",
            size: 12, color: "#4B5563"))
        var legendX = margin
        for (name, color, dashed) in [("instructions/op", instructionsColor, false), ("allocations/op", allocationsColor, true)] {
            parts.append(Chart.line(legendX, 70, legendX + 22, 70, color: color, width: 2.5, dashed: dashed))
            parts.append(Chart.text(legendX + 28, 74, name, size: 12))
            legendX += 140
        }
        for (name, color) in [("rise past the threshold", regressionColor), ("fall past the threshold", improvementColor)] {
            parts.append("<circle cx=\"\(Chart.fmt(legendX + 6))\" cy=\"70\" r=\"4.5\" fill=\"\(color)\"/>")
            parts.append(Chart.text(legendX + 16, 74, name, size: 12))
            legendX += 170
        }
        let top = 90.0
        if charted.isEmpty {
            parts.append(Chart.text(margin, top + 24, "no gated benchmark with instructions or allocations in these runs", size: 12, color: "#6B7280"))
        }
        for (i, s) in charted.enumerated() {
            let x = margin + Double(i % columns) * (cellWidth + gap)
            let y = top + Double(i / columns) * (cellHeight + gap)
            parts.append(cell(s, trend, x: x, y: y, width: cellWidth, height: cellHeight))
        }
        let rows = max((charted.count + columns - 1) / columns, 1)
        let height = top + Double(rows) * (cellHeight + gap) + 8
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif">
            <rect width="100%" height="100%" fill="#FFFFFF"/>
            \(parts.joined(separator: "\n"))
            </svg>
            """
    }

    static func cell(_ s: Trend.Series, _ trend: Trend, x: Double, y: Double, width: Double, height: Double) -> String {
        var out = [Chart.rect(x, y, width, height, fill: "#FFFFFF", stroke: "#E5E7EB")]
        out.append(Chart.text(x + 8, y + 16, s.name, size: 12, weight: "600"))
        if trend.regressions.contains(where: { $0.benchmark == s.name }) {
            out.append(Chart.text(x + width - 8, y + 16, "REGRESSED", size: 11, weight: "700", color: regressionColor, anchor: "end"))
        }
        let plot = (x: x + 44, y: y + 26, w: width - 56, h: height - 62)
        let metrics: [(Trend.Metric, String, Bool)] = [(.instructions, instructionsColor, false), (.allocations, allocationsColor, true)]
        // Percent change from each metric's first point in the window.
        var lines: [(Trend.Metric, String, Bool, [(run: Int, pct: Double)])] = []
        for (m, color, dashed) in metrics {
            let p = s.points(m)
            guard let first = p.first else { continue }
            lines.append((m, color, dashed, p.map { (run: $0.run, pct: Trend.change(first.value, $0.value) * 100) }))
        }
        let band = max(trend.thresholds.instructions, trend.thresholds.allocations)
        let extreme = lines.flatMap { $0.3.map { abs($0.pct) } }.max() ?? 0
        let range = max(band * 2, extreme * 1.15)
        let runCount = max(trend.runs.count, 2)
        func px(_ run: Int) -> Double { plot.x + Double(run) / Double(runCount - 1) * plot.w }
        func py(_ pct: Double) -> Double { plot.y + plot.h / 2 - pct / range * (plot.h / 2) }
        out.append(Chart.rect(plot.x, plot.y, plot.w, plot.h, fill: "#F9FAFB", stroke: "#E5E7EB"))
        out.append(Chart.rect(plot.x, py(band), plot.w, py(-band) - py(band), fill: "#E5E7EB", stroke: "none"))
        out.append(Chart.line(plot.x, py(0), plot.x + plot.w, py(0), color: "#9CA3AF"))
        for pct in [range, -range] {
            out.append(Chart.text(plot.x - 4, py(pct) + 4, String(format: "%+.1f%%", pct), size: 9, color: "#6B7280", anchor: "end"))
        }
        out.append(Chart.text(plot.x - 4, py(0) + 3, "0", size: 9, color: "#6B7280", anchor: "end"))
        for (_, color, dashed, pts) in lines {
            if pts.count >= 2 {
                let path = pts.map { "\(Chart.fmt(px($0.run))),\(Chart.fmt(py($0.pct)))" }.joined(separator: " ")
                out.append("<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dashed ? " stroke-dasharray=\"5 3\"" : "")/>")
            }
            for p in pts { out.append("<circle cx=\"\(Chart.fmt(px(p.run)))\" cy=\"\(Chart.fmt(py(p.pct)))\" r=\"2\" fill=\"\(color)\"/>") }
        }
        for step in trend.steps where step.benchmark == s.name && step.metric != .wall {
            guard let line = lines.first(where: { $0.0 == step.metric }), let p = line.3.first(where: { $0.run == step.to }) else { continue }
            out.append("<circle cx=\"\(Chart.fmt(px(p.run)))\" cy=\"\(Chart.fmt(py(p.pct)))\" r=\"4.5\" fill=\"\(step.change > 0 ? regressionColor : improvementColor)\"/>")
        }
        if let first = trend.runs.first, let last = trend.runs.last {
            out.append(Chart.text(plot.x, plot.y + plot.h + 11, first.label, size: 9, color: "#6B7280"))
            out.append(Chart.text(plot.x + plot.w, plot.y + plot.h + 11, last.label, size: 9, color: "#6B7280", anchor: "end"))
        }
        let drift = [(Trend.Metric.instructions, "instr"), (.allocations, "allocs")].compactMap { m, name in
            s.drift(m).map { "\(name) \(Format.change($0))" }
        }.joined(separator: ", ")
        out.append(Chart.text(x + 8, y + height - 8, drift.isEmpty ? "one run" : "drift: " + drift, size: 10, color: "#374151"))
        return out.joined(separator: "\n")
    }
}

extension Chart {
    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, color: String, width: Double, dashed: Bool) -> String {
        "<line x1=\"\(fmt(x1))\" y1=\"\(fmt(y1))\" x2=\"\(fmt(x2))\" y2=\"\(fmt(y2))\" stroke=\"\(color)\" stroke-width=\"\(fmt(width))\""
            + (dashed ? " stroke-dasharray=\"5 3\"" : "") + "/>"
    }
}
