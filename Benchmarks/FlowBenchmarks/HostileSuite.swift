import FlowCore
import FlowWorkloads

extension Suites {
    /// The sizes the `hostile.*` benchmarks are measured at: two, four times apart, small
    /// enough for callgrind, large enough that a square would show (it would read 16x, not
    /// 4x, and the fitted exponent 2, not 1).
    static let hostileSizes = [2_000, 8_000]

    /// The shapes the page contract names under "Limits and hostile input" (``HostileShape``),
    /// each at ``hostileSizes``: gated on their deterministic counts like every other
    /// benchmark, and on the exponent fitted to their instruction counts (see
    /// ``Scaling/limit``).
    static var hostile: [Benchmark] {
        HostileShape.allCases.flatMap { shape in hostileSizes.map { hostileBenchmark(shape, size: $0) } }
    }

    /// `hostile.<shape>/<n>` at any size: the suite's own sizes, or another that the tests
    /// ask a worker for.
    static func hostileBenchmark(_ shape: HostileShape, size n: Int) -> Benchmark {
        Benchmark("hostile.\(shape.rawValue)/\(label(n))", "Hostile input: \(shape.summary)", workload: .hostile(shape.rawValue, size: n),
                  quick: true) { _ in
            let input = shape.input(size: n)
            let run = try HostileShape.prepare(input, decoder: LoadedWorkload.decoder)
            return Operation(bytes: input.bytes) { run() }
        }
    }

    /// The benchmark named `name`: one of ``all``, or a hostile shape at a size of the
    /// caller's (`hostile.events/3k`).
    static func named(_ name: String) -> Benchmark? {
        if let b = all.first(where: { $0.name == name }) { return b }
        let parts = name.split(separator: "/")
        guard parts.count == 2, parts[0].hasPrefix("hostile."),
              let shape = HostileShape(rawValue: String(parts[0].dropFirst("hostile.".count))),
              let n = Int(parts[1].replacingOccurrences(of: "k", with: "000")), n > 0
        else { return nil }
        return hostileBenchmark(shape, size: n)
    }
}

extension HostileShape {
    /// The shape in a line, for reports.
    var summary: String {
        switch self {
        case .events: "one widget with n events"
        case .duplicateWidgetKeys: "one widget sending its id n times"
        case .duplicateDataKeys: "one widget whose data sends title n times"
        case .duplicateActionKeys: "one widget whose actions send tap n times"
        case .unknownKeys: "one widget with n unknown keys"
        case .tags: "one tag_rail with n tags"
        case .buttons: "one button_row with n buttons"
        case .navButtons: "a nav bar with n right buttons"
        case .sections: "n sections"
        case .sectionIDRepeated: "n sections sending one id"
        case .renameChain: "n widgets asking for x, x#2, x#2#2, x#2#2#2 in turn"
        case .renameSkip: "n/2 explicit x#k, then n/2 widgets asking for x"
        case .accordionSameID: "one accordion of n items sending one id"
        case .removeAll: "a response removing every widget of an n-widget section"
        case .removeAllTransactional: "the same, transactional"
        case .replaceAll: "a response replacing every widget of an n-widget section"
        case .missingAll: "a response naming n missing widgets"
        case .prependSections: "a response of n prepend_sections"
        case .diffReversed: "the diff of an n-widget section against itself reversed"
        case .mergeSelf: "an n-widget page with itself appended"
        case .envelopeMutation: "an n-widget page through the fuzzers' mutator, four seeds"
        }
    }
}
