import Foundation
import Testing
import FlowFuzzTargets
import FlowWorkloads

/// The fuzz pages (`Fuzz/pages.manifest`, read by FlowFuzzTargets when a process starts): the
/// manifest names files that exist, they load in its order, and that order is the one every
/// fuzz input and committed regression indexes (append-only). Where a binary reads them
/// from (FLOW_FUZZ_PAGES, `<binary>.pages/`, the checkout) and what it says when one is
/// missing are pinned on folders made here.
@Suite struct FuzzPagesTests {
    static let root = FuzzTargets.defaultRepositoryRoot

    /// The list as inputs index it. Appending is the only change allowed, and sixteen is the
    /// most a four-bit index names, so the list is complete.
    static let expected = [
        "Corpus/pages/home.json", "Corpus/pages/problems.json", "Corpus/pages/accordion.json",
        "Corpus/pages/no_ids.json", "Corpus/pages/nulls.json", "Corpus/pages/unicode.json",
        "Corpus/pages/numbers.json", "Corpus/pages/atoms_shorthand.json", "Corpus/pages/atoms_objects.json",
        "Corpus/pages/checkout.json", "Corpus/pages/feed_page1.json", "Corpus/pages/feed_page2.json",
        "Corpus/pages/sheet.json", "Corpus/pages/bare_root.json", "Corpus/pages/big_sections.json",
        "Fuzz/pages/collisions.json",
    ]

    static func manifestEntries() throws -> [FuzzPages.Entry] {
        let text = try String(contentsOf: root.appendingPathComponent(FuzzPages.manifestPath), encoding: .utf8)
        return try FuzzPages.parseManifest(text)
    }

    @Test func theManifestNamesExistingFilesInTheIndexedOrder() throws {
        let entries = try Self.manifestEntries()
        #expect(entries.count == 16, "the page index is four bits: keep 16 pages (append-only)")
        #expect(entries.first?.path == "Corpus/pages/home.json")
        #expect(entries.last?.path == "Fuzz/pages/collisions.json")
        #expect(entries.map(\.path) == Self.expected, "the manifest's order is what fuzz inputs index: append only")
        #expect(entries.filter(\.bareRoot).map(\.path) == ["Corpus/pages/bare_root.json"])
        #expect(Set(entries.map(\.path)).count == entries.count, "a page listed twice")
        for entry in entries {
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(entry.path).path), "\(entry.path) is in the manifest but not there")
        }
    }

    /// What the targets use: every page loaded, index i being the manifest's i-th file byte for byte.
    @Test func thePagesLoadAndEachIndexIsItsFile() throws {
        let pages = try FuzzPages.loaded.get()
        #expect(pages.map(\.source) == Self.expected)
        #expect(pages.map(\.bareRoot) == (try Self.manifestEntries()).map(\.bareRoot))
        for (index, page) in pages.enumerated() {
            let file = try #require(FileManager.default.contents(atPath: Self.root.appendingPathComponent(Self.expected[index]).path))
            #expect(Array(page.text.utf8) == [UInt8](file), "page \(index) is not \(Self.expected[index]) byte for byte")
        }
        #expect(pages[13].text.contains("\"store_locator\""), "index 13 is the bare-root page")
        #expect(FuzzTargets.all.allSatisfy { $0.setupError == nil }, "the targets see the pages as read")
    }

    @Test func theManifestRejectsAnUnknownMarker() {
        #expect(throws: FuzzPages.LoadError.self) { try FuzzPages.parseManifest("# note\n\nCorpus/pages/a.json bare\n") }
        #expect((try? FuzzPages.parseManifest("# note\n\n a.json \nb.json bare-root\n")) == [
            .init(path: "a.json", bareRoot: false), .init(path: "b.json", bareRoot: true),
        ])
    }
}

// MARK: Where a binary reads them from

extension FuzzPagesTests {
    /// A pages folder laid out as the checkout: the manifest and every page, page 0 replaced by
    /// `first` so that reading it shows which folder was read.
    static func pagesFolder(first: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-fuzz-pages-\(UInt64.random(in: 0...UInt64.max))")
        for path in [FuzzPages.manifestPath] + expected {
            let destination = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: root.appendingPathComponent(path), to: destination)
        }
        try Data(first.utf8).write(to: folder.appendingPathComponent(expected[0]))
        return folder
    }

    @Test func theEnvironmentVariableComesFirstThenTheFolderBesideTheBinary() throws {
        let named = try Self.pagesFolder(first: #"{"page": {"id": "named"}}"#)
        let beside = try Self.pagesFolder(first: #"{"page": {"id": "beside"}}"#)
        defer { for f in [named, beside] { try? FileManager.default.removeItem(at: f) } }
        // `<binary>.pages` for a binary `beside` minus its extension.
        let binary = beside.path + "-binary"
        try FileManager.default.moveItem(atPath: beside.path, toPath: binary + ".pages")
        defer { try? FileManager.default.removeItem(atPath: binary + ".pages") }

        let fromVariable = try FuzzPages.load(FuzzPages.locate(environment: ["FLOW_FUZZ_PAGES": named.path], executable: binary))
        #expect(fromVariable[0].text.contains("named") && fromVariable.count == 16)
        let fromBeside = try FuzzPages.load(FuzzPages.locate(environment: [:], executable: binary))
        #expect(fromBeside[0].text.contains("beside") && fromBeside[15].source == "Fuzz/pages/collisions.json")
        let fromCheckout = try FuzzPages.locate(environment: [:], executable: named.path + "-no-pages", checkouts: [Self.root])
        #expect(fromCheckout.folder == Self.root)
    }

    @Test func aMissingPageIsNamedWithWhereItWasLookedFor() throws {
        let folder = try Self.pagesFolder(first: "{}")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Corpus/pages/sheet.json"))
        let location = try FuzzPages.locate(environment: ["FLOW_FUZZ_PAGES": folder.path], executable: nil)
        let error = #expect(throws: FuzzPages.LoadError.self) { try FuzzPages.load(location) }
        let message = error?.description ?? ""
        #expect(message.contains("fuzz page 12 of Fuzz/pages.manifest, Corpus/pages/sheet.json, is missing"), "\(message)")
        #expect(message.contains(folder.path) && message.contains("FLOW_FUZZ_PAGES names it"), "\(message)")
    }

    @Test func noManifestAnywhereSaysWhereItLooked() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("flow-no-pages-\(UInt64.random(in: 0...UInt64.max))")
        let error = #expect(throws: FuzzPages.LoadError.self) {
            try FuzzPages.locate(environment: [:], executable: "/nowhere/fuzz-page", checkouts: [empty])
        }
        let message = error?.description ?? ""
        #expect(message.contains("/nowhere/fuzz-page.pages") && message.contains(empty.path) && message.contains("FLOW_FUZZ_PAGES"), "\(message)")
        let unset = #expect(throws: FuzzPages.LoadError.self) {
            try FuzzPages.load(FuzzPages.locate(environment: ["FLOW_FUZZ_PAGES": empty.path], executable: nil))
        }
        #expect(unset?.description.contains("no Fuzz/pages.manifest in \(empty.path)") == true, "\(unset?.description ?? "")")
    }
}
