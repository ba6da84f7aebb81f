import Foundation
import Testing
import FlowFuzzTargets
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

    /// How many inputs each target replays at least: what the corpus holds today, so that
    /// losing seeds (a deleted file or folder, a generator that quietly makes fewer) fails
    /// here. Raise a number when the corpus grows; lowering one is a decision to review.
    /// `files`: seed files under `Corpus/`; `generated`: seeds made in code (from those
    /// folders and the fuzz pages); `regressions`: files of `Corpus/regressions/<name>/`.
    static let minimum: [String: (files: Int, generated: Int, regressions: Int)] = [
        "json": (files: 127, generated: 14, regressions: 0),
        "page": (files: 127, generated: 64, regressions: 8),
        "one-bad-widget": (files: 0, generated: 1582, regressions: 0),
        "mutation": (files: 0, generated: 114, regressions: 5),
        "merge-diff": (files: 0, generated: 43, regressions: 4),
        "decodable": (files: 6, generated: 0, regressions: 2),
    ]

    @Test func everyTargetHasAMinimum() {
        #expect(Set(Self.minimum.keys) == Set(Self.targetNames), "a target without a minimum in CorpusReplayTests.minimum")
    }

    /// Every file of `Corpus/regressions/<target>/` passes its target's oracle; the folder
    /// must exist (it holds a `.gitkeep` while empty).
    @Test(arguments: targetNames)
    func regressionsPass(_ name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let minimum = try #require(Self.minimum[name])
        let regressions = try target.regressions()
        #expect(regressions.count >= minimum.regressions,
                "\(name): \(regressions.count) regression inputs, fewer than the \(minimum.regressions) the corpus holds")
        Self.replay(target, regressions, what: "regression")
    }

    /// Every seed file from `Corpus/` passes (JSONTestSuite aside: see below); every seed
    /// folder must exist.
    @Test(arguments: targetNames)
    func corpusSeedsPass(_ name: String) throws {
        var target = try #require(FuzzTargets.named(name))
        let minimum = try #require(Self.minimum[name])
        target = FuzzTarget(name: target.name, summary: target.summary,
                            seedFolders: target.seedFolders.filter { $0 != .jsonTestSuite }, check: target.check)
        let seeds = try target.seeds()
        #expect(seeds.count >= minimum.files, "\(name): \(seeds.count) seed files, fewer than the \(minimum.files) the corpus holds")
        Self.replay(target, seeds, what: "seed")
    }

    /// The targets JSONTestSuite seeds: the only ones ``jsonTestSuiteSeedsPass(_:)`` runs on,
    /// so that each case it reports replays something.
    static let jsonTestSuiteTargets = FuzzTargets.all.filter { $0.seedFolders.contains(.jsonTestSuite) }.map(\.name)

    @Test func jsonTestSuiteSeedsTheDocumentTargets() {
        #expect(Self.jsonTestSuiteTargets == ["json", "page"])
    }

    @Test(.enabled(if: jsonTestSuitePresent, "../shared/jsontestsuite is not beside this clone: JSONTestSuite seeds skipped"),
          arguments: jsonTestSuiteTargets)
    func jsonTestSuiteSeedsPass(_ name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let only = FuzzTarget(name: target.name, summary: target.summary, seedFolders: [.jsonTestSuite], check: target.check)
        let seeds = try only.seeds()
        #expect(seeds.count >= 318, "\(name): \(seeds.count) JSONTestSuite seeds, fewer than test_parsing holds")
        Self.replay(target, seeds, what: "JSONTestSuite seed")
    }

    /// The seeds made in code (structure-aware ones included) pass too.
    @Test(arguments: targetNames)
    func generatedSeedsPass(_ name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let minimum = try #require(Self.minimum[name])
        let seeds = target.generatedSeeds()
        #expect(seeds.count >= minimum.generated,
                "\(name): \(seeds.count) generated seeds, fewer than the \(minimum.generated) made today")
        Self.replay(target, seeds, what: "generated seed")
    }

    /// A seed or regression folder that is not there is an error, not an empty list.
    @Test func aMissingFolderThrows() throws {
        let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("flow-no-such-root-\(UInt64.random(in: 0...UInt64.max))")
        #expect(throws: FuzzTarget.MissingFolder.self) { try FuzzTarget.page.seeds(repositoryRoot: nowhere) }
        #expect(throws: FuzzTarget.MissingFolder.self) { try FuzzTarget.page.regressions(repositoryRoot: nowhere) }
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
