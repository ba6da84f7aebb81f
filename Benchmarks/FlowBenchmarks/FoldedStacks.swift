/// Call stacks and the instructions spent in each, in the folded format that flamegraph.pl,
/// inferno and speedscope read: one `root;caller;callee COUNT` line per distinct stack, the
/// count being the instructions executed in the last frame itself.
public struct FoldedStacks: Sendable, Equatable {
    /// Instructions by stack (frames joined with `;`, root first).
    public private(set) var counts: [String: Int] = [:]

    public var total: Int { counts.values.reduce(0, +) }

    public struct FormatError: Error, CustomStringConvertible {
        public let line: Int
        public let text: String
        public var description: String { "not a folded stack at line \(line) (expected 'frame;frame COUNT'): \(text)" }
    }

    public init(counts: [String: Int]) { self.counts = counts }

    /// Reads folded text; blank lines are skipped, a repeated stack adds up.
    public init(parsing text: String) throws {
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            guard let space = trimmed.lastIndex(of: " "), let count = Double(trimmed[trimmed.index(after: space)...]),
                  count >= 0, space > trimmed.startIndex
            else { throw FormatError(line: n + 1, text: String(line.prefix(120))) }
            counts[String(trimmed[..<space]), default: 0] += Int(count.rounded())
        }
    }

    /// The folded text, one line per stack, sorted (so two runs diff line by line).
    public var text: String {
        counts.keys.sorted().map { "\($0) \(counts[$0]!)\n" }.joined()
    }

    /// Folds a callgrind call graph into stacks, `names[i]` naming `profile.functions[i]`.
    ///
    /// Each function's inclusive cost on a stack is split between its own instructions and its
    /// calls in the proportions callgrind measured for that function (per caller chain, under
    /// `--separate-callers`). A call back into a function already on the stack (recursion
    /// beyond callgrind's separated levels) is not followed: its cost stays with the rest of
    /// the caller's split. So every stack's share adds up to its root's cost, and the whole to
    /// the roots' costs, which are callgrind's total. Stacks are cut at `root` (the frames that
    /// called the measured region are the harness, not the profile) when it is on them.
    public init(_ profile: CallgrindProfile, names: [String], root: String? = "flow_bench_measured") {
        let functions = profile.functions
        var called = Set<Int>()
        for (i, f) in functions.enumerated() { for callee in f.calls.keys where callee != i { called.insert(callee) } }
        // Below this share of the total a call is not followed further (it is still counted,
        // as a leaf): keeps the walk short on very branchy graphs without losing instructions.
        let smallest = max(profile.total, 1) * 1e-7
        var exact: [String: Double] = [:]
        var onStack = Set<Int>()

        func walk(_ i: Int, budget: Double, path: [String]) {
            var frames = path
            if let root, functions[i].symbol == root { frames = [] }
            frames.append(names[i])
            onStack.insert(i)
            defer { onStack.remove(i) }
            let followed = functions[i].calls.filter { !onStack.contains($0.key) }
            let spent = functions[i].selfCost + followed.values.reduce(0, +)
            guard spent > 0 else {
                exact[frames.joined(separator: ";"), default: 0] += budget
                return
            }
            let scale = budget / spent
            if functions[i].selfCost > 0 { exact[frames.joined(separator: ";"), default: 0] += functions[i].selfCost * scale }
            for (callee, cost) in followed.sorted(by: { $0.key < $1.key }) where cost > 0 {
                let share = cost * scale
                if share < smallest || frames.count > 512 {
                    exact[(frames + [names[callee]]).joined(separator: ";"), default: 0] += share
                } else {
                    walk(callee, budget: share, path: frames)
                }
            }
        }
        for (i, f) in functions.enumerated() where !called.contains(i) {
            let cost = f.selfCost + f.calls.filter { $0.key != i }.values.reduce(0, +)
            if cost > 0 { walk(i, budget: cost, path: []) }
        }
        // Harness frames outside the measured region were cut above; what they ran themselves
        // was not collected, so nothing is lost. Round so the counts still add up to the sum
        // of the exact shares (largest remainders get the leftover units).
        counts = Self.rounded(exact)
    }

    /// Integer counts whose sum is the rounded sum of `exact` (largest remainder first).
    static func rounded(_ exact: [String: Double]) -> [String: Int] {
        var result = exact.mapValues { Int($0.rounded(.down)) }
        let target = Int(exact.values.reduce(0, +).rounded())
        let left = target - result.values.reduce(0, +)
        func remainder(_ stack: String) -> Double { exact[stack]! - exact[stack]!.rounded(.down) }
        let order = exact.keys.sorted { remainder($0) != remainder($1) ? remainder($0) > remainder($1) : $0 < $1 }
        for stack in order.prefix(max(left, 0)) { result[stack]! += 1 }
        return result.filter { $0.value > 0 }
    }
}
