import Testing
@testable import FlowBenchmarks

/// `flow bench`'s text table fits the terminal it is printed to.
@Suite struct ReportWidthTests {
    static func result(_ name: String, ns: UInt64, bytes: Int? = 380_000, widgets: Int? = 1000, comparisons: [BenchmarkResult.Comparison] = []) -> BenchmarkResult {
        let benchmark = Benchmark(name, "summary", workload: .corpusPages) { _ in Operation { nil } }
        var r = BenchmarkResult(benchmark: benchmark, worker: WorkerResult(
            name: name, times: [ns, ns + 1000, ns + 5000, ns + 90_000], allocationsPerOp: 6181, bytesPerOp: bytes,
            widgetsPerOp: widgets, peakRSS: 48_000_000, rssGrowth: 1_200_000))
        r.instructions = .measured(13_923_456)
        r.comparisons = comparisons
        return r
    }

    static let report: Report = {
        let results = [
            result("page.decode.fast/1k", ns: 1_650_000, comparisons: [
                .init(peer: "page.decode.reference/1k", label: "vs reference path", isShare: false, value: 9.4),
                .init(peer: "page.decode.parallel/1k", label: "vs every core", isShare: false, value: 0.8)]),
            result("page.decode.reference/1k", ns: 15_500_000),
            result("hostile.events-one-widget/8000", ns: 2_100_000, bytes: nil, widgets: nil),
            result("json.foundation/twitter", ns: 4_000_000, widgets: nil),
        ]
        return Report(results: results, scaling: [], quick: true, missing: [], seconds: 95, instructionsAvailable: true)
    }()

    @Test(arguments: [80, 100, 132, 200])
    func everyLineFitsTheWidth(width: Int) {
        let lines = Self.report.text(width: width).split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines { #expect(line.count <= width, "\(line.count) > \(width): \(line)") }
        // The comparisons are on a line of their own, under their row.
        let row = lines.firstIndex { $0.hasPrefix("page.decode.fast/1k") }!
        #expect(lines[row + 1].hasPrefix("    ↳ 9.4x vs reference path"), "\(lines[row + 1])")
        #expect(!lines[row].contains("vs reference path"))
    }

    @Test func narrowTerminalsKeepTheGatedFiguresAndSayWhatIsLeftOut() {
        let narrow = Self.report.text(width: 80)
        let header = String(narrow.split(separator: "\n")[0])
        for column in ["median", "MB/s", "allocs/op", "instr/op"] { #expect(header.contains(column), "\(column) at 80") }
        #expect(!header.contains("max") && !header.contains("min"))
        #expect(narrow.contains("Columns left out at 80 columns: min, p90, max,"))

        let wide = Self.report.text(width: 200)
        let full = String(wide.split(separator: "\n")[0])
        for column in ["median", "min", "p90", "max", "MB/s", "widgets/s", "allocs/op", "instr/op", "peak RSS"] { #expect(full.contains(column)) }
        #expect(!wide.contains("Columns left out"))
        #expect(Self.report.text(width: 100).split(separator: "\n")[0].contains("p90"), "100 columns keep the p90 too")
    }
}
