import FlowJSON
import Foundation
import Testing
@testable import FlowBenchmarks

/// `flow bench --format google-benchmark|github-action-benchmark|bmf`: each export holds what
/// its consumer reads, and Google Benchmark's is read by Google Benchmark's own compare.py
/// (from ../shared/tools when it is beside the clone).
@Suite struct ExportFormatTests {
    /// A report of two benchmarks: a page decode timed `calls` times around `median` (with
    /// bytes, widgets and every count), and a competitor with neither.
    static func report(median: Double, calls: Int = 40) -> Report {
        let decode = Suites.all.first { $0.name == "page.decode.fast/1k" }!
        let competitor = Suites.all.first { !$0.gates }!
        // Spread around the median, in no particular order (as a machine gives them).
        let times = (0..<calls).map { UInt64(median * (1 + 0.02 * Double(($0 * 7) % 11 - 5) / 5)) }
        var worker = WorkerResult(name: decode.name, times: times, allocationsPerOp: 2053, bytesPerOp: 383_700, widgetsPerOp: 1000)
        worker.peakRSS = 24_500_000
        worker.retainedBytes = 486_720
        var a = BenchmarkResult(benchmark: decode, worker: worker)
        a.instructions = .measured(13_110_867)
        let b = BenchmarkResult(benchmark: competitor, worker: WorkerResult(name: competitor.name, times: times.map { $0 * 20 },
                                                                              allocationsPerOp: 9000.5, bytesPerOp: nil, widgetsPerOp: nil))
        return Report(results: [a, b], scaling: [], quick: true, missing: [], seconds: 10, instructionsAvailable: true)
    }

    static let context = Report.ExportContext(date: "2026-12-07T12:00:00Z", hostName: "test-host", cores: 2, cpu: "Test CPU")

    static func parse(_ bytes: [UInt8]) throws -> JSONValue { try JSONValue(parsing: bytes) }

    @Test func timedCallsAreCutIntoTenContiguousRepetitions() {
        let runs = Report.repetitions(of: (1...23).map(Double.init))
        #expect(runs.map(\.calls) == [3, 3, 3, 2, 2, 2, 2, 2, 2, 2])
        #expect(runs.first?.mean == 2 && runs.last?.mean == 22.5)
        #expect(Report.repetitions(of: [5, 7]).map(\.mean) == [5, 7], "fewer calls than ten: one repetition each")
        #expect(Report.repetitions(of: []).isEmpty)
    }

    @Test func googleBenchmarkHasRepetitionsAggregatesAndCounters() throws {
        let json = try Self.parse(Self.report(median: 2_000_000).googleBenchmark(Self.context))
        #expect(json["context"]?["num_cpus"]?.numberValue?.doubleValue == 2)
        #expect(json["context"]?["library_build_type"]?.stringValue == "release")
        let entries = try #require(json["benchmarks"]?.arrayValue)
        let decode = entries.filter { $0["run_name"]?.stringValue == "page.decode.fast/1k" }
        #expect(decode.count == 13, "ten repetitions, then mean, median and stddev")
        let iterations = decode.filter { $0["run_type"]?.stringValue == "iteration" }
        #expect(iterations.map { $0["repetition_index"]?.numberValue?.doubleValue } == (0..<10).map { Double($0) })
        #expect(iterations.allSatisfy { $0["iterations"]?.numberValue?.doubleValue == 4 && $0["time_unit"]?.stringValue == "ns" })
        let first = try #require(iterations.first)
        let time = try #require(first["real_time"]?.numberValue?.doubleValue)
        #expect(first["cpu_time"]?.numberValue?.doubleValue == time)
        #expect(abs(try #require(first["bytes_per_second"]?.numberValue?.doubleValue) - 383_700 / time * 1e9) < 1)
        #expect(first["items_per_second"] != nil)
        #expect(first["allocations"]?.numberValue?.doubleValue == 2053)
        #expect(first["instructions"]?.numberValue?.doubleValue == 13_110_867)
        #expect(first["retained_bytes"]?.numberValue?.doubleValue == 486_720)
        #expect(decode.filter { $0["run_type"]?.stringValue == "aggregate" }.map { $0["aggregate_name"]?.stringValue } == ["mean", "median", "stddev"])
        let competitor = entries.filter { $0["run_name"]?.stringValue != "page.decode.fast/1k" }
        #expect(competitor.allSatisfy { $0["bytes_per_second"] == nil && $0["instructions"] == nil }, "only what was measured")
    }

    /// github-action-benchmark's custom lists: `name`, `unit` and `value` in every entry, names
    /// unique, smaller-is-better figures in one list and throughput in the other.
    @Test func githubActionBenchmarkListsSplitByDirection() throws {
        let report = Self.report(median: 2_000_000)
        let smaller = try #require(try Self.parse(report.githubActionBenchmarkSmallerIsBetter()).arrayValue)
        let bigger = try #require(try Self.parse(report.githubActionBenchmarkBiggerIsBetter()).arrayValue)
        for entry in smaller + bigger {
            #expect(entry["name"]?.stringValue != nil && entry["unit"]?.stringValue != nil && entry["value"]?.numberValue != nil, "\(entry)")
        }
        let names = (smaller + bigger).compactMap { $0["name"]?.stringValue }
        #expect(Set(names).count == names.count)
        #expect(Set(smaller.compactMap { $0["unit"]?.stringValue }) == ["ns", "allocations", "instructions", "bytes"])
        #expect(Set(bigger.compactMap { $0["unit"]?.stringValue }) == ["MB/s", "widgets/s"])
        let median = try #require(smaller.first { $0["name"]?.stringValue == "page.decode.fast/1k wall median" })
        #expect(median["value"]?.numberValue?.doubleValue == report.results[0].median)
        #expect(median["range"]?.stringValue != nil)
    }

    /// The Bencher Metric Format: benchmark, then measure, then `value` with `lower_value` and
    /// `upper_value` around it where the run has a spread.
    @Test func bencherMetricFormatHasMeasuresWithBounds() throws {
        let json = try #require(try Self.parse(Self.report(median: 2_000_000).bencherMetricFormat()).objectValue)
        let decode = try #require(json["page.decode.fast/1k"]?.objectValue)
        #expect(decode.members.map(\.key) == ["latency", "throughput", "allocations", "instructions", "peak-rss", "retained-bytes"])
        for member in decode.members {
            let value = try #require(member.value["value"]?.numberValue?.doubleValue)
            if let lower = member.value["lower_value"]?.numberValue?.doubleValue, let upper = member.value["upper_value"]?.numberValue?.doubleValue {
                #expect(lower <= value && value <= upper, "\(member.key): \(lower) \(value) \(upper)")
            }
        }
        #expect(decode["latency"]?["lower_value"] != nil && decode["throughput"]?["upper_value"] != nil)
        let competitor = try #require(json.members.last?.value.objectValue)
        #expect(competitor["instructions"] == nil && competitor["retained-bytes"] == nil, "only what was measured")
    }

    /// The Bencher Metric Format's JSON Schema as Bencher publishes it (https://bencher.dev/bmf.json):
    /// benchmarks, each of measures, each with a number `value` and optional number bounds.
    static let bencherSchema = """
        {"$schema": "http://json-schema.org/draft-07/schema", "type": "object",
         "patternProperties": {".+": {"type": "object",
           "patternProperties": {".+": {"type": "object", "required": ["value"],
             "properties": {"value": {"type": "number"}, "lower_value": {"type": "number"}, "upper_value": {"type": "number"}}}}}}}
        """

    /// What github-action-benchmark's custom tools accept, written as a JSON Schema: its
    /// `BenchmarkResults` (src/extract.ts, v1.22.0) is an array of `{name, value, unit}` with
    /// optional `range` and `extra`, strings but for the number `value`. The action also
    /// refuses a file with no entry.
    static let githubActionBenchmarkSchema = """
        {"$schema": "http://json-schema.org/draft-07/schema", "type": "array", "minItems": 1,
         "items": {"type": "object", "required": ["name", "value", "unit"],
           "properties": {"name": {"type": "string"}, "value": {"type": "number"}, "unit": {"type": "string"},
                          "range": {"type": "string"}, "extra": {"type": "string"}}}}
        """

    /// Whether python3 has the jsonschema package (an independent validator of the schemas).
    static let pythonHasJSONSchema = python(["-c", "import jsonschema"]).status == 0

    /// python3 with `arguments`: exit status and what it printed.
    static func python(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        (process.standardOutput, process.standardError) = (pipe, pipe)
        guard (try? process.run()) != nil else { return (127, "python3 did not start") }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// Validates `document` against `schema` with python's jsonschema: nil when valid, else why not.
    static func schemaErrors(_ document: [UInt8], _ schema: String) throws -> String? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let doc = folder.appendingPathComponent("doc.json"), sch = folder.appendingPathComponent("schema.json")
        try Data(document).write(to: doc)
        try Data(schema.utf8).write(to: sch)
        let script = "import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))"
        let (status, output) = python(["-c", script, doc.path, sch.path])
        return status == 0 ? nil : output
    }

    @Test(.enabled(if: ExportFormatTests.pythonHasJSONSchema, "python3 lacks jsonschema (pip install jsonschema): schema checks skipped"))
    func exportsValidateAgainstTheConsumersSchemas() throws {
        let report = Self.report(median: 2_000_000)
        #expect(try Self.schemaErrors(report.bencherMetricFormat(), Self.bencherSchema) == nil)
        #expect(try Self.schemaErrors(report.githubActionBenchmarkSmallerIsBetter(), Self.githubActionBenchmarkSchema) == nil)
        #expect(try Self.schemaErrors(report.githubActionBenchmarkBiggerIsBetter(), Self.githubActionBenchmarkSchema) == nil)
        // The validator is not a formality: what each consumer would refuse, it refuses.
        #expect(try Self.schemaErrors(Array(#"{"a": {"latency": {"lower_value": 1}}}"#.utf8), Self.bencherSchema) != nil)
        #expect(try Self.schemaErrors(Array(#"[{"name": "a", "value": "fast", "unit": "ns"}]"#.utf8), Self.githubActionBenchmarkSchema) != nil)
        #expect(try Self.schemaErrors(Array("[]".utf8), Self.githubActionBenchmarkSchema) != nil)
    }

    /// Bencher's names have limits of their own: a measure's slug at most 64 characters, a
    /// benchmark's name at most 1024.
    @Test func bencherNamesFitItsLimits() throws {
        let json = try #require(try Self.parse(Self.report(median: 2_000_000).bencherMetricFormat()).objectValue)
        for benchmark in json.members {
            #expect(!benchmark.key.isEmpty && benchmark.key.count <= 1024)
            for measure in benchmark.value.objectValue?.members ?? [] {
                #expect(measure.key.count <= 64 && measure.key.allSatisfy { $0.isLowercase || $0 == "-" }, "\(measure.key)")
            }
        }
    }

    static let compare: URL? = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        let script = url.appendingPathComponent("shared/tools/gbench/compare.py")
        return FileManager.default.fileExists(atPath: script.path) ? script : nil
    }()

    /// Whether python3 has what compare.py needs (numpy and scipy).
    static let pythonHasScipy = python(["-c", "import numpy, scipy"]).status == 0

    /// Google Benchmark's compare.py reads two exports and ranks their repetitions: a
    /// benchmark twice as slow reads +1.0 with a p-value, one unchanged reads +0.0.
    @Test(.enabled(if: ExportFormatTests.compare != nil, "../shared/tools/gbench is not beside this clone: compare.py check skipped"),
          .enabled(if: ExportFormatTests.pythonHasScipy, "python3 lacks numpy or scipy (pip install numpy scipy): compare.py check skipped"))
    func compareDotPyReadsTwoExports() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gbench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.json"), b = folder.appendingPathComponent("b.json")
        try Data(Self.report(median: 2_000_000).googleBenchmark(Self.context)).write(to: a)
        var slower = Self.report(median: 4_000_000)
        slower.results[1] = Self.report(median: 2_000_000).results[1]
        try Data(slower.googleBenchmark(Self.context)).write(to: b)

        let (status, output) = Self.python([Self.compare!.path, "--no-color", "benchmarks", a.path, b.path])
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n")
        let decode = lines.filter { $0.hasPrefix("page.decode.fast/1k ") }
        #expect(decode.contains { $0.contains("+1.0000") }, "twice as slow: \(output)")
        #expect(lines.contains { $0.hasPrefix("page.decode.fast/1k_pvalue") }, "the U test ran on the repetitions: \(output)")
        let competitorName = Self.report(median: 1).results[1].name
        #expect(lines.contains { $0.hasPrefix(competitorName + " ") && $0.contains("+0.0000") }, "unchanged: \(output)")
    }
}
