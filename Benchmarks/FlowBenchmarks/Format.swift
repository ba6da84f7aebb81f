import Foundation

/// Number formatting for people.
enum Format {
    static func duration(_ ns: Double) -> String {
        switch ns {
        case ..<1_000: String(format: "%.0f ns", ns)
        case ..<1_000_000: String(format: "%.1f µs", ns / 1_000)
        case ..<1_000_000_000: String(format: "%.2f ms", ns / 1_000_000)
        default: String(format: "%.2f s", ns / 1_000_000_000)
        }
    }

    /// 12.3k, 4.56M, 7.89G.
    static func count(_ v: Double) -> String {
        switch v {
        case ..<1_000: String(format: "%.0f", v)
        case ..<1_000_000: String(format: "%.1fk", v / 1_000)
        case ..<1_000_000_000: String(format: "%.2fM", v / 1_000_000)
        default: String(format: "%.2fG", v / 1_000_000_000)
        }
    }

    static func bytes(_ v: Int) -> String {
        let d = Double(v)
        switch d {
        case ..<1024: return "\(v) B"
        case ..<(1024 * 1024): return String(format: "%.1f KiB", d / 1024)
        case ..<(1024 * 1024 * 1024): return String(format: "%.1f MiB", d / 1024 / 1024)
        default: return String(format: "%.2f GiB", d / 1024 / 1024 / 1024)
        }
    }

    static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let n = s.count
        guard n < width else { return s }
        let fill = String(repeating: " ", count: width - n)
        return right ? fill + s : s + fill
    }
}
