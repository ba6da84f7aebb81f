import Foundation

extension PageProfile {
    /// The profile as a self-contained SVG: stages, widget types, heaviest widgets.
    public func svg(title: String) -> String {
        let width = 960.0
        var parts: [String] = []
        var y = 20.0
        parts.append(Chart.text(24, y + 12, "flow profile: \(title)", size: 18, weight: "600"))
        y += 24
        let summary = "\(Format.bytes(bytes)), \(widgets) widgets, decode on one thread \(Format.duration(totalNs))"
            + (totalAllocations.map { ", \(Format.count($0)) allocations" } ?? "")
        parts.append(Chart.text(24, y + 12, summary, size: 12, color: "#374151"))
        y += 28
        let panels: [(String, [(String, Double, String)])] = [
            ("Decode stages (median time; encode apart)",
             (stages + [encode]).map { ($0.name, max($0.ns, 0), Format.duration(max($0.ns, 0))) }),
            ("Content decoding by widget type (time it adds)",
             types.compactMap { t in t.ns.map { ("\(t.type) ×\(t.count)", $0, Format.duration($0)) } }),
            ("Heaviest widgets (decoded alone)",
             heaviest.map { ("\($0.path) \($0.type) \(Format.bytes($0.bytes))", $0.ns, Format.duration($0.ns)) }),
        ]
        for (heading, items) in panels {
            let (panel, h) = Chart.barsPanel(title: heading, items: items, x: 24, y: y, width: width - 48, unit: "")
            parts.append(panel)
            y += h + 20
        }
        return Chart.document(width: width, height: y, parts)
    }
}
