import Foundation
import FlowJSON

/// One `flow bench` run as a history keeps it (`--history FILE`, schema
/// `flow-bench-history/1`): who ran what where, and per benchmark the figures worth
/// following over time. A history file holds one run per line (``HistoryFile``).
public struct HistoryRun: Sendable, Equatable {
    public static let schema = "flow-bench-history/1"

    public struct Machine: Sendable, Equatable {
        public var cpu: String
        public var cores: Int
        public var os: String

        public init(cpu: String, cores: Int, os: String) {
            self.cpu = cpu
            self.cores = cores
            self.os = os
        }
    }

    /// One benchmark's figures in a run. `nil` where the run did not measure it (no
    /// valgrind, or instruction counts skipped for that benchmark).
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// Whether its deterministic metrics gate (competitors are measured for the ratio only).
        public var gates: Bool
        public var allocations: Double?
        public var instructions: Double?
        public var wallMedian: Double?

        public init(name: String, gates: Bool = true, allocations: Double?, instructions: Double?, wallMedian: Double?) {
            self.name = name
            self.gates = gates
            self.allocations = allocations
            self.instructions = instructions
            self.wallMedian = wallMedian
        }
    }

    public var label: String
    /// ISO 8601, UTC, to the second.
    public var date: String
    public var machine: Machine
    public var toolchain: String
    public var quick: Bool
    /// In the order the run measured them.
    public var benchmarks: [Entry]

    public init(label: String, date: String, machine: Machine, toolchain: String, quick: Bool, benchmarks: [Entry]) {
        self.label = label
        self.date = date
        self.machine = machine
        self.toolchain = toolchain
        self.quick = quick
        self.benchmarks = benchmarks
    }

    /// A run's figures, with where and how it ran.
    public init(_ report: Report, label: String, date: String, machine: Machine, toolchain: String) {
        self.init(label: label, date: date, machine: machine, toolchain: toolchain, quick: report.quick,
                  benchmarks: report.results.map { r in
                      Entry(name: r.name, gates: r.gates, allocations: r.allocationsPerOp, instructions: r.instructions.value,
                            wallMedian: r.median)
                  })
    }

    public func entry(_ name: String) -> Entry? { benchmarks.first { $0.name == name } }

    // MARK: JSON, one line

    /// The run as one line of JSON, without the newline.
    public func jsonLine() -> [UInt8] {
        var list = JSONObject()
        for e in benchmarks {
            list.append(e.name, .object([
                "gates": .bool(e.gates),
                "allocations_per_op": e.allocations.map(Report.number) ?? .null,
                "instructions_per_op": e.instructions.map(Report.number) ?? .null,
                "wall_median_ns": e.wallMedian.map(Report.number) ?? .null,
            ]))
        }
        var o = JSONObject()
        o.append("schema", .string(Self.schema))
        o.append("label", .string(label))
        o.append("date", .string(date))
        o.append("machine", .object(["cpu": .string(machine.cpu), "cores": .number(JSONNumber(Int64(machine.cores))), "os": .string(machine.os)]))
        o.append("toolchain", .string(toolchain))
        o.append("quick", .bool(quick))
        o.append("benchmarks", .object(list))
        return JSONWriter.encode(.object(o))
    }

    /// Reads one line; the error says what was expected and what was found.
    public init(jsonLine bytes: [UInt8]) throws(BenchError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: bytes) } catch { throw BenchError("not valid JSON: \(error)") }
        guard value.objectValue != nil else { throw BenchError("expected a JSON object, found \(Self.describe(value))") }
        guard let schema = value["schema"]?.stringValue else { throw BenchError("expected \"schema\": \"\(Self.schema)\", found none") }
        guard schema == Self.schema else { throw BenchError("expected \"schema\": \"\(Self.schema)\", found \"\(schema)\"") }
        func string(_ key: String) throws(BenchError) -> String {
            guard let v = value[key] else { throw BenchError("expected \"\(key)\" (a string), found none") }
            guard let s = v.stringValue else { throw BenchError("expected \"\(key)\" to be a string, found \(Self.describe(v))") }
            return s
        }
        label = try string("label")
        date = try string("date")
        let m = value["machine"]
        machine = Machine(cpu: m?["cpu"]?.stringValue ?? "unknown",
                          cores: m?["cores"]?.numberValue?.doubleValue.map { Int(exactly: $0) ?? 0 } ?? 0,
                          os: m?["os"]?.stringValue ?? "unknown")
        toolchain = value["toolchain"]?.stringValue ?? "unknown"
        quick = value["quick"]?.boolValue ?? false
        guard let list = value["benchmarks"]?.objectValue else {
            throw BenchError("expected \"benchmarks\" to be an object of benchmark name to figures, found \(value["benchmarks"].map(Self.describe) ?? "none")")
        }
        var entries: [Entry] = []
        for member in list {
            guard member.value.objectValue != nil else {
                throw BenchError("benchmark \(member.key): expected an object of figures, found \(Self.describe(member.value))")
            }
            func metric(_ key: String) throws(BenchError) -> Double? {
                guard let v = member.value[key], !v.isNull else { return nil }
                guard let d = v.numberValue?.doubleValue else {
                    throw BenchError("benchmark \(member.key): expected \"\(key)\" to be a number or null, found \(Self.describe(v))")
                }
                return d
            }
            entries.append(Entry(name: member.key, gates: member.value["gates"]?.boolValue ?? true,
                                 allocations: try metric("allocations_per_op"), instructions: try metric("instructions_per_op"),
                                 wallMedian: try metric("wall_median_ns")))
        }
        benchmarks = entries
    }

    static func describe(_ v: JSONValue) -> String {
        switch v {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): "the number \(n)"
        case .string(let s): "the string \"\(s.prefix(40))\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
