import Foundation
import Testing
import FlowTool
import FlowWidgets

/// `bench --against` and `bench --export`: every usage error (64) comes before anything is
/// measured, so they hold in the debug build the tests run.
@Suite struct BenchAgainstCommandTests {
    static func run(_ arguments: [String]) -> Int32 {
        FlowTool.run(arguments: arguments, registry: FlowWidgets.registry)
    }

    @Test func roundsAndPlantingNeedAgainst() {
        #expect(Self.run(["bench", "--rounds", "20"]) == 64)
        #expect(Self.run(["bench", "--plant-slowdown", "page.decode.fast/1k=10"]) == 64)
    }

    @Test func againstRecordsNothingAndReportsWallTimeOnly() {
        for extra in [["--baseline", "b.json"], ["--save-baseline", "b.json"], ["--history", "h.jsonl"], ["--chart", "c.svg"],
                      ["--export", "bmf=x.json"], ["--repeat-counts"], ["--format", "bmf"], ["--format", "google-benchmark"]] {
            #expect(Self.run(["bench", "--against", "/usr/bin/true"] + extra) == 64, "\(extra)")
        }
    }

    @Test func fewerThanEightRoundsOrABadPlantIsAUsageError() {
        #expect(Self.run(["bench", "--against", "/usr/bin/true", "--rounds", "7"]) == 64)
        #expect(Self.run(["bench", "--against", "/usr/bin/true", "--plant-slowdown", "page.decode.fast/1k"]) == 64)
        #expect(Self.run(["bench", "--against", "/usr/bin/true", "--plant-slowdown", "page.decode.fast/1k=-5"]) == 64)
    }

    @Test func exportsNameKnownFormatsAndFiles() {
        #expect(Self.run(["bench", "--export", "csv=x.csv"]) == 64)
        #expect(Self.run(["bench", "--export", "bmf"]) == 64)
        #expect(Self.run(["bench", "--export", "bmf=a.json,text"]) == 64)
        #expect(Self.run(["bench", "--bigger-is-better", "b.json"]) == 64)
        #expect(Self.run(["bench", "--bigger-is-better", "b.json", "--export", "github-action-benchmark=s.json"]) == 1,
                "accepted; then refused as a debug build (exit 1), not as a usage error")
    }
}
