import Foundation
import Testing
import FlowWorkloads

/// `swift test` replays the fuzz corpus through exactly the checks the fuzz targets run
/// (``FuzzTarget/check``), without libFuzzer: every input a fuzzer ever broke us with
/// (`Corpus/regressions/<target>/`, kept forever), and every seed.
@Suite struct CorpusReplayTests {
    static let targetNames = FuzzTargets.all.map(\.name)

    static let jsonTestSuitePresent = FuzzTarget.jsonTestSuite() != nil

    static func replay(_ target: FuzzTarget, _ inputs: [(name: String, bytes: [UInt8])], what: String) {
        for input in inputs {
            let failures = target.check(input.bytes)
            #expect(failures.isEmpty, "\(target.name) \(what) \(input.name): \(failures.joined(separator: "; "))")
        }
    }

    /// Every file of `Corpus/regressions/<target>/` passes its target's oracle.
    @Test(arguments: targetNames)
    func regressionsPass(_ name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        Self.replay(target, target.regressions(), what: "regression")
    }

    /// Every seed file from `Corpus/` passes (JSONTestSuite aside: see below).
    @Test(arguments: targetNames)
    func corpusSeedsPass(_ name: String) throws {
        var target = try #require(FuzzTargets.named(name))
        target = FuzzTarget(name: target.name, summary: target.summary,
                            seedFolders: target.seedFolders.filter { $0 != .jsonTestSuite }, check: target.check)
        Self.replay(target, target.seeds(), what: "seed")
    }

    @Test(.enabled(if: jsonTestSuitePresent, "../shared/jsontestsuite is not beside this clone: JSONTestSuite seeds skipped"),
          arguments: targetNames)
    func jsonTestSuiteSeedsPass(_ name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        guard target.seedFolders.contains(.jsonTestSuite) else { return }
        let only = FuzzTarget(name: target.name, summary: target.summary, seedFolders: [.jsonTestSuite], check: target.check)
        let seeds = only.seeds()
        #expect(seeds.count >= 300)
        Self.replay(target, seeds, what: "JSONTestSuite seed")
    }

    /// The seeds made in code (structure-aware ones included) pass too.
    @Test(arguments: targetNames)
    func generatedSeedsPass(_ name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        Self.replay(target, target.generatedSeeds(), what: "generated seed")
    }

    /// Each registered target has its fuzz executable, its line in Fuzz/Package.swift and a
    /// dictionary; each regression folder belongs to a registered target.
    @Test func everyTargetIsWiredUp() throws {
        let root = FuzzTargets.defaultRepositoryRoot
        let fuzz = root.appendingPathComponent("Fuzz")
        let manifest = try String(contentsOf: fuzz.appendingPathComponent("Package.swift"), encoding: .utf8)
        for target in FuzzTargets.all {
            let entry = fuzz.appendingPathComponent("Sources/fuzz-\(target.name)")
            #expect(FileManager.default.fileExists(atPath: entry.path), "no Fuzz/Sources/fuzz-\(target.name)")
            #expect(manifest.contains("\"\(target.name)\""), "Fuzz/Package.swift does not list \(target.name)")
        }
        let names = Set(FuzzTargets.all.map(\.name))
        #expect(names.count == FuzzTargets.all.count, "two targets share a name")
        let regressions = root.appendingPathComponent("Corpus/regressions")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: regressions.path)) ?? []
        for folder in folders where !folder.hasPrefix(".") && !folder.hasPrefix("README") {
            #expect(names.contains(folder), "Corpus/regressions/\(folder) belongs to no registered target")
        }
    }
}
