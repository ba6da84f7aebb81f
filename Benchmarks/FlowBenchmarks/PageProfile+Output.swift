import Foundation
import FlowJSON

extension PageProfile {
    // MARK: JSON (schema "flow-profile/1", documented in the README)

    public var json: [UInt8] {
        let number = Report.number
        func optional(_ v: Double?) -> JSONValue { v.map(number) ?? .null }
        func stage(_ s: Stage) -> JSONValue {
            .object(["name": .string(s.name), "ns": number(s.ns), "allocations": optional(s.allocations),
                     "instructions": optional(s.instructions)])
        }
        var o = JSONObject()
        o.append("schema", .string(Self.schema))
        o.append("bytes", number(Double(bytes)))
        o.append("widgets", number(Double(widgets)))
        o.append("total_ns", number(totalNs))
        o.append("total_allocations", optional(totalAllocations))
        o.append("total_instructions", optional(totalInstructions))
        o.append("unaccounted_ns", number(unaccountedNs))
        o.append("stages", .array(stages.map(stage)))
        o.append("encode", stage(encode))
        o.append("types", .array(types.map { t in
            .object(["type": .string(t.type), "count": number(Double(t.count)), "ns": optional(t.ns),
                     "ns_per_widget": optional(t.nsPerWidget), "allocations": optional(t.allocations),
                     "allocations_per_widget": optional(t.allocationsPerWidget), "bytes": number(Double(t.bytes))])
        }))
        o.append("heaviest", .array(heaviest.map { h in
            .object(["path": .string(h.path), "type": .string(h.type), "bytes": number(Double(h.bytes)),
                     "ns": number(h.ns), "kept": .bool(h.kept)])
        }))
        return JSONWriter.encode(.object(o))
    }

    // MARK: Text

    /// A bar of `width` characters for `share` of the largest (eighths of a block drawn).
    static func bar(_ share: Double, width: Int = 30) -> String {
        guard share.isFinite, share > 0 else { return "" }
        let eighths = Int((min(share, 1) * Double(width * 8)).rounded())
        let blocks = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        return String(repeating: "█", count: eighths / 8) + blocks[eighths % 8]
    }

    public func text(title: String) -> String {
        func allocs(_ v: Double?) -> String { v.map { Format.count($0) } ?? "-" }
        func percent(_ ns: Double) -> String { totalNs > 0 ? String(format: "%5.1f%%", ns / totalNs * 100) : "" }
        var lines = [
            "\(title): \(Format.bytes(bytes)), \(widgets) widgets kept; decode on one thread \(Format.duration(totalNs))"
                + (totalNs > 0 ? String(format: " (%.0f MB/s)", Double(bytes) / 1e6 / (totalNs / 1e9)) : "")
                + (totalAllocations.map { ", \(Format.count($0)) allocations" } ?? ""),
            "",
            Format.pad("stage", 16) + Format.pad("time", 11, right: true) + Format.pad("share", 8, right: true)
                + Format.pad("allocs", 10, right: true) + Format.pad("instr", 10, right: true) + "  ",
        ]
        let longest = stages.map(\.ns).max() ?? 1
        for s in stages + [encode] {
            if s.name == "encode" { lines.append("  apart from the decode:") }
            lines.append(Format.pad(s.name, 16) + Format.pad(Format.duration(max(s.ns, 0)), 11, right: true)
                + Format.pad(s.name == "encode" ? "" : percent(s.ns), 8, right: true)
                + Format.pad(allocs(s.allocations), 10, right: true) + Format.pad(allocs(s.instructions), 10, right: true)
                + "  " + Self.bar(s.ns / longest))
        }
        lines.append(String(format: "stages add up to %@ of the measured total (the rest is noise between separate medians)",
                            totalNs > 0 ? String(format: "%.1f%%", (totalNs - unaccountedNs) / totalNs * 100) : "-"))
        lines.append("")
        lines.append(Format.pad("widget type", 20) + Format.pad("kept", 8, right: true) + Format.pad("content", 11, right: true)
            + Format.pad("per widget", 12, right: true) + Format.pad("allocs/w", 10, right: true) + Format.pad("input", 11, right: true) + "  ")
        let heaviestType = types.compactMap(\.ns).max() ?? 1
        for t in types {
            lines.append(Format.pad(t.type, 20) + Format.pad("\(t.count)", 8, right: true)
                + Format.pad(t.ns.map(Format.duration) ?? "-", 11, right: true)
                + Format.pad(t.nsPerWidget.map(Format.duration) ?? "-", 12, right: true)
                + Format.pad(t.allocationsPerWidget.map { String(format: "%.1f", $0) } ?? "-", 10, right: true)
                + Format.pad(Format.bytes(t.bytes), 11, right: true) + "  " + Self.bar((t.ns ?? 0) / heaviestType))
        }
        lines.append("(content: what decoding that type's content adds to the decode; '-' for a type the tool does not register)")
        if !heaviest.isEmpty {
            lines.append("")
            lines.append("heaviest widgets (decoded alone, in a page of their own):")
            for h in heaviest {
                lines.append("  " + Format.pad(h.path, 34) + Format.pad(h.type, 18) + Format.pad(Format.bytes(h.bytes), 11, right: true)
                    + Format.pad(Format.duration(h.ns), 11, right: true) + (h.kept ? "" : "  (dropped)"))
            }
        }
        return lines.joined(separator: "\n")
    }
}
