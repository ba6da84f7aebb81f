import FlowCore
import Foundation

/// A fuzz target: a name, the oracle its inputs go through, and where its seeds come from.
///
/// The fuzz executables (`Fuzz/Sources/fuzz-<name>`) run ``check`` on every input libFuzzer
/// makes and trap on any failure; `swift test` (FlowWorkloadsTests) runs the very same
/// ``check`` on every seed and on every file of `Corpus/regressions/<name>/`, without
/// libFuzzer. Adding a target: a file in this module defining its oracle and its
/// `FuzzTarget` (see `Oracles+JSON.swift`; one that needs the fuzz pages takes them as
/// a parameter, see ``FuzzTarget/page(pages:)``), one line in ``FuzzTargets/all(pages:)``,
/// and its entry point folder in `Fuzz/Sources` (one line in `Fuzz/Package.swift`).
public struct FuzzTarget: Sendable {
    /// `json`, `page`, `one-bad-widget`, `mutation`, `merge-diff`, `decodable`: the executable is `fuzz-<name>`, its finds go to
    /// `Corpus/regressions/<name>/`.
    public let name: String
    public let summary: String
    /// The oracle on one fuzz input: what went wrong (empty: every invariant held).
    public let check: @Sendable ([UInt8]) -> [String]
    /// Folders whose files seed this target.
    public let seedFolders: [SeedFolder]
    /// Seeds made in code (structure-aware inputs), on top of the folders'.
    public let generatedSeeds: @Sendable () -> [(name: String, bytes: [UInt8])]
    /// Why the target cannot fuzz anything (a host's pages folder missing or empty), nil when
    /// it can: ``FuzzHarness/initialize(_:)`` reports it and exits non-zero.
    public var setupError: String?
    /// The structure-aware mutator of a page-shaped target (``FuzzHarness/customMutator(_:_:_:_:_:bytes:)``),
    /// nil for a target fuzzed byte by byte (`json`).
    public var mutator: EnvelopeMutator?

    public init(name: String, summary: String, seedFolders: [SeedFolder],
                generatedSeeds: @escaping @Sendable () -> [(name: String, bytes: [UInt8])] = { [] },
                check: @escaping @Sendable ([UInt8]) -> [String]) {
        self.name = name
        self.summary = summary
        self.check = check
        self.seedFolders = seedFolders
        self.generatedSeeds = generatedSeeds
    }

    /// Where seed files live.
    public enum SeedFolder: Sendable, Hashable {
        /// `Corpus/<name>` of this repository.
        case corpus(String)
        /// JSONTestSuite's `test_parsing`, from `../shared/jsontestsuite` beside the clone
        /// (skipped when absent).
        case jsonTestSuite
    }
}

/// Every fuzz target of flow-core.
public enum FuzzTargets {
    /// The registry: one line per target. `pages` is the list inputs name pages from:
    /// `FuzzPages.all` of FlowFuzzTargets, which also holds the targets made from it
    /// (`FuzzTargets.all`, `FuzzTargets.named(_:)`).
    public static func all(pages: [FuzzPages.Page]) -> [FuzzTarget] {
        [
            .json,
            .page(pages: pages),
            .oneBadWidget(pages: pages),
            .mutation(pages: pages),
            .mergeDiff(pages: pages),
            .decodable,
        ]
    }

    /// The repository root, found from this source file (the fuzz binaries and the tests run
    /// on the machine that built them; `FLOW_FUZZ_ROOT` overrides it for the fuzz binaries).
    public static let defaultRepositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()
}

extension FuzzTarget {
    /// The page target: any bytes as a page document, through ``Oracles/page(_:options:)``.
    ///
    /// Input: a first byte in `0x80...0xBF` (a UTF-8 continuation byte, which no JSON
    /// document can start with, so no document is lost to it) is an option selector: its low
    /// six bits go to ``Oracles/options(selector:)`` (placeholders, bare root, a depth limit
    /// of 8 to 15) and the rest is the document. Any other input is the document itself,
    /// decoded with the default options, so plain JSON files seed it as they are.
    ///
    /// `pages` (``FuzzPages``) only seed it, each under a few option selectors.
    public static func page(pages: [FuzzPages.Page]) -> FuzzTarget {
        var target = FuzzTarget(
            name: "page",
            summary: "any bytes as a page document: ids, normalize fixed point, fast path = reference path",
            seedFolders: [.corpus("pages"), .corpus("mutations"), .corpus("diff"), .jsonTestSuite],
            generatedSeeds: {
                var seeds: [(name: String, bytes: [UInt8])] = []
                for (i, page) in pages.enumerated() {
                    let text = Array(page.text.utf8)
                    let base: UInt8 = page.bareRoot ? 0x02 : 0x00
                    for extra: UInt8 in [0x00, 0x01, 0x04, 0x1C] {
                        seeds.append(("page_p\(i)_sel\(base | extra)", [0x80 | base | extra] + text))
                    }
                }
                return seeds
            },
            check: { Oracles.pageInput($0) })
        target.mutator = EnvelopeMutator(format: .page, typeNames: Oracles.registry.typeNames, pages: pages.map { Array($0.text.utf8) })
        return target
    }
}

extension Oracles {
    /// The page fuzz target's input format (see ``FuzzTarget/page(pages:)``): an optional selector
    /// byte in `0x80...0xBF`, then the document.
    public static func pageInput(_ input: [UInt8]) -> [String] {
        if let first = input.first, first & 0xC0 == 0x80 {
            return page(Array(input.dropFirst()), options: options(selector: first & 0x3F))
        }
        return page(input)
    }
}

// MARK: Seeds and regressions on disk

extension FuzzTarget {
    /// The seed corpus: every file of the seed folders (sorted; names prefixed with their
    /// folder), then the generated seeds. Throws ``MissingFolder`` when a `Corpus/` seed
    /// folder is not there (JSONTestSuite, optional, is skipped when absent): a seed corpus
    /// quietly missing a folder would fuzz, and replay, less than it says.
    public func seeds(repositoryRoot: URL = FuzzTargets.defaultRepositoryRoot) throws -> [(name: String, bytes: [UInt8])] {
        var out: [(name: String, bytes: [UInt8])] = []
        for folder in seedFolders {
            let (url, prefix): (URL?, String)
            switch folder {
            case .corpus(let name):
                (url, prefix) = (repositoryRoot.appendingPathComponent("Corpus").appendingPathComponent(name), name)
            case .jsonTestSuite:
                (url, prefix) = (Self.jsonTestSuite(repositoryRoot: repositoryRoot), "jsontestsuite")
            }
            guard let url else { continue }
            out += try Self.files(in: url).map { ("\(prefix)_\($0.name)", $0.bytes) }
        }
        return out + generatedSeeds()
    }

    /// `Corpus/regressions/<name>/`.
    public func regressionFolder(repositoryRoot: URL = FuzzTargets.defaultRepositoryRoot) -> URL {
        repositoryRoot.appendingPathComponent("Corpus/regressions").appendingPathComponent(name)
    }

    /// Every input kept in `Corpus/regressions/<name>/` (README files and dotfiles aside).
    /// Throws ``MissingFolder`` when the folder is not there (an empty one holds a
    /// `.gitkeep`).
    public func regressions(repositoryRoot: URL = FuzzTargets.defaultRepositoryRoot) throws -> [(name: String, bytes: [UInt8])] {
        try Self.files(in: regressionFolder(repositoryRoot: repositoryRoot)).filter { !$0.name.hasPrefix("README") }
    }

    /// A folder the seeds or the regressions are read from is not there.
    public struct MissingFolder: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "no folder at \(path)" }
    }

    /// `../shared/jsontestsuite/test_parsing` beside the clone, when it is there.
    public static func jsonTestSuite(repositoryRoot: URL = FuzzTargets.defaultRepositoryRoot) -> URL? {
        let url = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/jsontestsuite/test_parsing")
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue ? url : nil
    }

    /// The files of `folder` (dotfiles aside), sorted by name; throws ``MissingFolder`` when
    /// it does not exist.
    static func files(in folder: URL) throws -> [(name: String, bytes: [UInt8])] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue,
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            throw MissingFolder(path: folder.path)
        }
        return names.filter { !$0.hasPrefix(".") }.sorted().compactMap { name in
            let path = folder.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = FileManager.default.contents(atPath: path) else { return nil }
            return (name, [UInt8](data))
        }
    }
}
