import Foundation

/// A self-contained SVG chart of a run: throughput against page size for each page
/// benchmark family, JSON throughput per input, and the ratios to each competitor.
public enum Chart {
    static let palette = ["#2563EB", "#DC2626", "#059669", "#D97706", "#7C3AED", "#DB2777", "#0891B2", "#4B5563"]

    public static func svg(_ report: Report) -> String {
        let width = 960.0
        var parts: [String] = []
        var y = 20.0
        parts.append(text(24, y + 12, "flow bench\(report.quick ? " --quick" : ""): throughput and ratios", size: 18, weight: "600"))
        y += 36
        // A run of the caller's own pages (`--pages`) has no sweep of sizes to draw.
        if !report.results.allSatisfy({ $0.group.hasPrefix("pages.") }) {
            let (panel1, h1) = scalingPanel(report, x: 24, y: y, width: width - 48)
            parts.append(panel1)
            y += h1 + 24
        }
        let (panel2, h2) = barsPanel(title: "JSON and page-file throughput (MB/s, median)", items: jsonBars(report), x: 24, y: y, width: width - 48, unit: "")
        parts.append(panel2)
        y += h2 + 24
        let (panel3, h3) = barsPanel(title: "Measured in the same run: speedups (x) and shares (%)", items: ratioBars(report), x: 24, y: y, width: width - 48, unit: "", logScale: true)
        parts.append(panel3)
        y += h3 + 16
        return document(width: width, height: y, parts)
    }

    /// A standalone SVG document of `parts` on white.
    static func document(width: Double, height: Double, _ parts: [String]) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif">
        <rect width="100%" height="100%" fill="#FFFFFF"/>
        \(parts.joined(separator: "\n"))
        </svg>
        """
    }

    // MARK: Panels

    /// Widgets per second against widgets on the page, log-log, one line per family.
    static func scalingPanel(_ report: Report, x: Double, y: Double, width: Double) -> (String, Double) {
        let height = 260.0
        var series: [(String, [(Double, Double)])] = []
        var order: [String] = []
        var points: [String: [(Double, Double)]] = [:]
        for r in report.results {
            guard let w = r.widgetsPerSecond, let size = Double(r.size.replacingOccurrences(of: "k", with: "000")),
                  Suites.sizes.contains(Int(size)) else { continue }
            if points[r.group] == nil { order.append(r.group) }
            points[r.group, default: []].append((size, w))
        }
        for g in order { series.append((g, points[g]!.sorted { $0.0 < $1.0 })) }
        var out = [text(x, y + 12, "Page benchmarks: widgets per second against page size", size: 14, weight: "600")]
        let plot = (x: x + 70, y: y + 28, w: width - 300, h: height - 70)
        out.append(rect(plot.x, plot.y, plot.w, plot.h, fill: "#F9FAFB", stroke: "#E5E7EB"))
        guard !series.isEmpty else {
            out.append(text(plot.x + 16, plot.y + 30, "no page benchmark measured at the swept sizes in this run", size: 12, color: "#6B7280"))
            return (out.joined(separator: "\n"), height)
        }
        let xs = series.flatMap { $0.1.map(\.0) }
        let ys = series.flatMap { $0.1.map(\.1) }
        let (x0, x1) = (log10(xs.min()!), max(log10(xs.max()!), log10(xs.min()!) + 1))
        let (y0, y1) = (floor(log10(ys.min()!)), ceil(log10(ys.max()!) + 0.001))
        func px(_ v: Double) -> Double { plot.x + (log10(v) - x0) / (x1 - x0) * plot.w }
        func py(_ v: Double) -> Double { plot.y + plot.h - (log10(v) - y0) / (y1 - y0) * plot.h }
        for e in stride(from: y0, through: y1, by: 1) {
            let yy = plot.y + plot.h - (e - y0) / (y1 - y0) * plot.h
            out.append(line(plot.x, yy, plot.x + plot.w, yy, color: "#E5E7EB"))
            out.append(text(plot.x - 8, yy + 4, Format.count(pow(10, e)), size: 11, color: "#6B7280", anchor: "end"))
        }
        for v in Suites.sizes.map({ Double($0) }) where log10(v) >= x0 - 0.01 && log10(v) <= x1 + 0.01 {
            out.append(text(px(v), plot.y + plot.h + 16, Suites.label(Int(v)) + " widgets", size: 11, color: "#6B7280", anchor: "middle"))
        }
        out.append(text(x + 4, plot.y + plot.h / 2, "widgets/s", size: 11, color: "#6B7280", anchor: "middle", rotate: true))
        for (i, (name, pts)) in series.enumerated() {
            let color = palette[i % palette.count]
            let path = pts.map { "\(fmt(px($0.0))),\(fmt(py($0.1)))" }.joined(separator: " ")
            out.append("<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2.5\"/>")
            for p in pts { out.append("<circle cx=\"\(fmt(px(p.0)))\" cy=\"\(fmt(py(p.1)))\" r=\"3.5\" fill=\"\(color)\"/>") }
            let ly = plot.y + 8 + Double(i) * 20
            out.append(rect(plot.x + plot.w + 20, ly, 14, 4, fill: color, stroke: color))
            out.append(text(plot.x + plot.w + 40, ly + 6, name, size: 12))
        }
        return (out.joined(separator: "\n"), height)
    }

    static func jsonBars(_ report: Report) -> [(String, Double, String)] {
        // `pages.*` are the caller's own files (`--pages`): no sweep of sizes to draw them on.
        report.results.filter { $0.group.hasPrefix("json.") || $0.group.hasPrefix("pages.") }.compactMap { r in
            r.megabytesPerSecond.map { (r.name, $0, String(format: "%.0f", $0)) }
        }
    }

    static func ratioBars(_ report: Report) -> [(String, Double, String)] {
        report.results.flatMap { r in
            r.comparisons.map { c in ("\(r.name) \(c.label)", c.isShare ? c.value * 100 : c.value, c.formatted.components(separatedBy: " ").first ?? "") }
        }
    }

    /// Horizontal bars with their value printed; log scale for ratios spanning decades.
    static func barsPanel(title: String, items: [(String, Double, String)], x: Double, y: Double, width: Double, unit: String,
                          logScale: Bool = false) -> (String, Double) {
        let rowHeight = 20.0
        let height = 30 + Double(max(items.count, 1)) * rowHeight + 10
        var out = [text(x, y + 12, title, size: 14, weight: "600")]
        guard !items.isEmpty else {
            out.append(text(x + 16, y + 40, "nothing measured in this run", size: 12, color: "#6B7280"))
            return (out.joined(separator: "\n"), 60)
        }
        let labelWidth = 420.0
        let barWidth = width - labelWidth - 70
        let maxValue = items.map(\.1).max()!
        func scaled(_ v: Double) -> Double {
            guard v > 0 else { return 0 }
            if logScale { return max(log10(v + 1) / log10(maxValue + 1), 0.01) * barWidth }
            return v / maxValue * barWidth
        }
        for (i, item) in items.enumerated() {
            let ry = y + 26 + Double(i) * rowHeight
            out.append(text(x + labelWidth - 8, ry + 13, item.0, size: 11, anchor: "end"))
            out.append(rect(x + labelWidth, ry + 3, scaled(item.1), rowHeight - 6, fill: palette[(i / 2) % palette.count], stroke: "none"))
            out.append(text(x + labelWidth + scaled(item.1) + 6, ry + 13, item.2 + unit, size: 11, color: "#374151"))
        }
        return (out.joined(separator: "\n"), height)
    }

    // MARK: Primitives

    static func fmt(_ v: Double) -> String { String(format: "%.1f", v) }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static func text(_ x: Double, _ y: Double, _ s: String, size: Double, weight: String = "400", color: String = "#111827",
                     anchor: String = "start", rotate: Bool = false) -> String {
        let transform = rotate ? " transform=\"rotate(-90 \(fmt(x)) \(fmt(y)))\"" : ""
        return "<text x=\"\(fmt(x))\" y=\"\(fmt(y))\" font-size=\"\(fmt(size))\" font-weight=\"\(weight)\" fill=\"\(color)\" text-anchor=\"\(anchor)\"\(transform)>\(escape(s))</text>"
    }

    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String, stroke: String) -> String {
        "<rect x=\"\(fmt(x))\" y=\"\(fmt(y))\" width=\"\(fmt(max(w, 0)))\" height=\"\(fmt(h))\" fill=\"\(fill)\" stroke=\"\(stroke)\"/>"
    }

    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, color: String) -> String {
        "<line x1=\"\(fmt(x1))\" y1=\"\(fmt(y1))\" x2=\"\(fmt(x2))\" y2=\"\(fmt(y2))\" stroke=\"\(color)\"/>"
    }
}
