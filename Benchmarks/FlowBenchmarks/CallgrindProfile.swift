/// A callgrind profile (a `callgrind.out` file) read for its call graph: each function's own
/// instructions and the inclusive instructions of its calls to each callee.
///
/// Run with `--separate-callers=N`, callgrind keeps one function per chain of its last N
/// callers (`callee'caller'callers-caller`), so a callee's cost is known per calling context:
/// that is what lets ``FoldedStacks`` split it by stack without guessing for stacks up to N deep.
public struct CallgrindProfile: Sendable {
    public struct Function: Sendable {
        /// The name as callgrind wrote it, with the caller chain and recursion level (`'2`).
        public let name: String
        /// The object file (executable or shared library) it is in.
        public var object: String
        /// Instructions executed in the function itself.
        public var selfCost: Double = 0
        /// Inclusive instructions of its calls, by callee (an index into ``functions``).
        public var calls: [Int: Double] = [:]

        /// The symbol alone: the name up to its caller chain.
        public var symbol: String { String(name.prefix { $0 != "'" }) }
    }

    public struct FormatError: Error, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "callgrind profile, line \(line): \(reason)" }
    }

    public private(set) var functions: [Function] = []
    /// Every instruction collected: the `summary:` (or `totals:`) line.
    public private(set) var total: Double = 0

    /// Reads the format callgrind writes (name compression `(id) name` included); only the
    /// first event (Ir, instructions) is kept.
    public init(parsing text: String) throws {
        var functionNames: [String: String] = [:], objects: [String: String] = [:]  // by compressed id
        var functionIndex: [String: Int] = [:]  // by name
        var positions = 1
        var object = "", calleeObject: String?
        var current: Int?, callee: Int?
        var callCostFollows = false
        var sawTotal = false

        /// `(id) name` defines id, `(id)` refers back to it, a plain name stands for itself.
        func resolve(_ value: Substring, in table: inout [String: String]) -> String {
            guard value.hasPrefix("("), let close = value.firstIndex(of: ")") else { return String(value) }
            let id = String(value[...close])
            let rest = value[value.index(after: close)...].drop { $0 == " " }
            if !rest.isEmpty { table[id] = String(rest) }
            return table[id] ?? id
        }
        func function(_ value: Substring, object: String) -> Int {
            let name = resolve(value, in: &functionNames)
            if let known = functionIndex[name] { return known }
            functions.append(Function(name: name, object: object))
            functionIndex[name] = functions.count - 1
            return functions.count - 1
        }

        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let first = line.first else { continue }
            if first.isNumber || first == "+" || first == "-" || first == "*" {
                // A cost line: positions, then events; the first event is Ir.
                let fields = line.split(separator: " ")
                let cost = fields.count > positions ? Double(fields[positions]) ?? 0 : 0
                if callCostFollows {
                    guard let caller = current, let callee else { throw FormatError(line: n + 1, reason: "a call outside a function") }
                    functions[caller].calls[callee, default: 0] += cost
                    callCostFollows = false
                    calleeObject = nil
                } else if let current {
                    functions[current].selfCost += cost
                }
                continue
            }
            guard let equals = line.firstIndex(where: { $0 == "=" || $0 == ":" }) else { continue }
            let key = line[..<equals], value = line[line.index(after: equals)...].drop { $0 == " " }
            switch key {
            case "positions": positions = value.split(separator: " ").count
            case "summary", "totals":
                guard let figure = value.split(separator: " ").first.flatMap({ Double($0) }) else {
                    throw FormatError(line: n + 1, reason: "unreadable \(key) line")
                }
                // totals: follows summary: in some versions; either holds the same count.
                if !sawTotal { total = figure }
                sawTotal = true
            case "ob": object = resolve(value, in: &objects)
            case "cob": calleeObject = resolve(value, in: &objects)
            case "fn": current = function(value, object: object)
            case "cfn": callee = function(value, object: calleeObject ?? object)
            case "calls": callCostFollows = true
            default: continue  // files (fl, fi, fe, cfi), jumps, headers: not needed for stacks
            }
        }
        guard sawTotal else { throw FormatError(line: 0, reason: "no summary: or totals: line") }
    }
}
