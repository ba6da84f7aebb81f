/// What `flow profile` found for one page (schema `flow-profile/1`, see the README).
public struct PageProfile: Sendable {
    public struct Stage: Sendable {
        public let name: String
        /// Median wall time of the stage, nanoseconds.
        public let ns: Double
        /// Allocations of one run; nil without the allocation counter.
        public let allocations: Double?
        /// Instructions of one run; nil without valgrind.
        public let instructions: Double?
    }

    public struct TypeCost: Sendable {
        public let type: String
        /// Widgets of this type the page keeps.
        public let count: Int
        /// What decoding this type's content adds to the decode (nil: not a registered type,
        /// or none kept).
        public var ns: Double?
        public var allocations: Double?
        /// Input bytes of every widget object of this type the document sends, kept or not.
        public let bytes: Int

        public var nsPerWidget: Double? { ns.flatMap { count > 0 ? $0 / Double(count) : nil } }
        public var allocationsPerWidget: Double? { allocations.flatMap { count > 0 ? $0 / Double(count) : nil } }
    }

    public struct Heavy: Sendable {
        public let path: String
        public let type: String
        public let bytes: Int
        /// Median time to decode the widget alone, in a page of its own.
        public let ns: Double
        /// Whether it survives decoding (false: dropped, with a diagnostic).
        public let kept: Bool
    }

    public static let schema = "flow-profile/1"

    public let bytes: Int
    public let widgets: Int
    /// The whole decode from bytes, measured on its own.
    public let totalNs: Double
    public let totalAllocations: Double?
    public let totalInstructions: Double?
    /// scan, envelope, content models, identity.
    public let stages: [Stage]
    /// Writing the page back out: not part of the decode, shown apart.
    public let encode: Stage
    public let types: [TypeCost]
    public let heaviest: [Heavy]

    /// The total less the stages' sum: the noise between separately measured medians.
    public var unaccountedNs: Double { totalNs - stages.reduce(0) { $0 + $1.ns } }
}
