import Foundation

/// How far a metric may rise before it counts as a regression, in percent, per metric.
///
/// Used by `--baseline` (a run against a saved baseline) and by `flow bench trend` (the latest
/// run against the one before it). The defaults come from the measured noise of the quick
/// suite on a shared two-core machine (README, "Tracking over time"): instruction counts
/// under callgrind repeat exactly or within hundredths of a percent, allocation counts
/// within a tenth, so 1.5% catches a 2% regression every time while clean reruns stay
/// silent. Wall medians swing by tens of percent on such machines, so wall time has a loose
/// default of its own and gates only when asked (`--gate-wall`).
public struct GateThresholds: Sendable, Equatable {
    public var allocations: Double
    public var instructions: Double
    public var wall: Double

    public static let defaults = GateThresholds(allocations: 1.5, instructions: 1.5, wall: 25)

    public init(allocations: Double, instructions: Double, wall: Double) {
        self.allocations = allocations
        self.instructions = instructions
        self.wall = wall
    }

    /// One threshold for every metric (`--threshold PCT`).
    public init(uniform percent: Double) {
        self.init(allocations: percent, instructions: percent, wall: percent)
    }

    /// "allocations 1.5%, instructions 1.5%", and ", wall 25%" when wall time gates.
    public func summary(wall gatesWall: Bool) -> String {
        "allocations \(Format.percent(allocations)), instructions \(Format.percent(instructions))"
            + (gatesWall ? ", wall \(Format.percent(wall))" : "")
    }
}

extension Format {
    /// 1.5 -> "1.5%", 25 -> "25%".
    static func percent(_ v: Double) -> String {
        v == v.rounded() ? String(format: "%.0f%%", v) : String(format: "%g%%", v)
    }

    /// A signed change given as a fraction: 0.0312 -> "+3.12%".
    static func change(_ fraction: Double) -> String {
        let pct = fraction * 100
        // Below what three decimals show it is no change, not "-0.000%".
        if abs(pct) < 0.0005 { return "+0.00%" }
        return abs(pct) < 0.1 ? String(format: "%+.3f%%", pct) : String(format: "%+.2f%%", pct)
    }
}
