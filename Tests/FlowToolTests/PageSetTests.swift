import Foundation
import Testing
@testable import FlowBenchmarks
import FlowCore
import FlowWidgets

/// `flow bench --pages`: which files become benchmarks, under which names, and what is
/// reported instead.
@Suite struct PageSetTests {
    static let page = #"{"page": {"id": "p", "sections": [{"widgets": [{"type": "banner", "data": {"image": {"url": "u"}}}]}]}}"#
    static let bare = #"{"id": "p", "sections": []}"#

    /// A fresh folder holding `files` (name → text).
    static func folder(_ files: [String: String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flow-pages-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, text) in files {
            let path = (dir as NSString).appendingPathComponent(name)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        return dir
    }

    static func resolve(_ paths: [String], bareRoot: Bool = false) throws -> PageSet {
        try PageSet.resolve(paths, registry: FlowWidgets.registry, options: PageDecodingOptions(bareRoot: bareRoot))
    }

    @Test func aFolderGivesEveryJSONPageByStemGoldenFilesSkipped() throws {
        let dir = try Self.folder(["home.json": Self.page, "home.golden.json": Self.page, "cart.json": Self.page,
                                   "notes.txt": "not json", "sub/deep.json": Self.page])
        let set = try Self.resolve([dir])
        #expect(set.pages.map(\.stem) == ["cart", "home"], "sorted, *.golden.json and other files and subfolders left out")
        #expect(set.skipped.isEmpty)
        let names = PagesSuite.benchmarks(set, registry: FlowWidgets.registry).map(\.name)
        #expect(names == ["pages.decode/cart", "pages.decode.parallel/cart", "pages.decode.reference/cart", "pages.normalize/cart",
                          "pages.decode/home", "pages.decode.parallel/home", "pages.decode.reference/home", "pages.normalize/home"])
    }

    @Test func aRepeatedStemIsNumberedInTheOrderNamed() throws {
        let a = try Self.folder(["home.json": Self.page]), b = try Self.folder(["home.json": Self.page])
        let set = try Self.resolve([b + "/home.json", a])
        #expect(set.pages.map(\.stem) == ["home", "home-2"])
        #expect(set.pages.map(\.path) == [b + "/home.json", a + "/home.json"])
    }

    @Test func aFileThatIsNotAPageIsReportedAndTheOthersRun() throws {
        let dir = try Self.folder(["good.json": Self.page, "broken.json": "{\"page\": ", "list.json": "[1, 2]",
                                   "bare.json": Self.bare])
        let set = try Self.resolve([dir, dir + "/missing.json"])
        #expect(set.pages.map(\.stem) == ["good"])
        #expect(set.skipped.map { ($0.path as NSString).lastPathComponent } == ["missing.json", "bare.json", "broken.json", "list.json"])
        #expect(set.skipped[0].reason == "no such file or folder")
        #expect(set.skipped.dropFirst().allSatisfy { $0.reason.hasPrefix("not a page document (") }, "\(set.skipped)")
        #expect(set.skipped[1].reason.contains("bare-root"), "the reason says what would make it a page: \(set.skipped[1])")
    }

    @Test func widgetsOfTypesTheRegistryLacksAreCountedAndNamed() throws {
        let host = #"{"page": {"id": "p", "sections": [{"widgets": ["#
            + #"{"type": "price_tag", "data": {}}, {"type": "banner", "data": {"image": {"url": "u"}}}, {"type": "price_tag"}, "#
            + #"{"type": "rating", "data": {}}]}]}}"#
        let dir = try Self.folder(["host.json": host, "plain.json": Self.page])
        let set = try Self.resolve([dir])
        #expect(set.pages.map(\.stem) == ["host", "plain"])
        #expect(set.pages[0].unknownTypes == [.init(type: "price_tag", widgets: 2), .init(type: "rating", widgets: 1)])
        #expect(set.pages[0].unknownWidgets == 3)
        #expect(set.pages[1].unknownTypes.isEmpty)
        #expect(set.unknownTypeWarnings.count == 1)
        let warning = try #require(set.unknownTypeWarnings.first)
        #expect(warning.hasPrefix("\(dir)/host.json: 3 widgets of types this tool does not register (price_tag ×2, rating ×1)"))
        #expect(warning.contains("host's own tool"))

        // The report says so too: in its JSON, and in its text.
        var report = Report(results: [], scaling: [], quick: true, missing: [], seconds: 1, instructionsAvailable: false)
        report.pages = set.pages
        let json = String(decoding: report.json(), as: UTF8.self)
        #expect(json.contains(#""name":"host","path":"\#(dir)/host.json","#), "\(json)")
        #expect(json.contains(#""unknown_widgets":3.0,"unknown_types":{"price_tag":2.0,"rating":1.0}"#), "\(json)")
        #expect(json.contains(#""unknown_widgets":0.0,"unknown_types":{}"#), "\(json)")
        #expect(report.text().contains("price_tag ×2, rating ×1"))
    }

    @Test func bareRootAppliesToEveryPage() throws {
        let dir = try Self.folder(["bare.json": Self.bare, "other.json": Self.bare])
        #expect(throws: BenchError.self) { try Self.resolve([dir]) }
        let set = try Self.resolve([dir], bareRoot: true)
        #expect(set.pages.map(\.stem) == ["bare", "other"])
        #expect(set.skipped.isEmpty)
        #expect(set.workerArguments == ["--pages", "--bare-root", "--", dir + "/bare.json", dir + "/other.json"])
    }

    @Test func anEmptyFolderIsAnError() throws {
        let dir = try Self.folder(["readme.md": "#"])
        #expect {
            try Self.resolve([dir])
        } throws: { error in
            "\(error)".contains("holds no page document") && "\(error)".contains("found 1 other files")
        }
    }

    @Test func noReadablePageIsAnErrorThatSaysWhy() throws {
        let dir = try Self.folder(["broken.json": "nope"])
        #expect {
            try Self.resolve([dir + "/broken.json", "/no/such/page.json"])
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("no readable page document among") && text.contains("broken.json: not a page document")
                && text.contains("/no/such/page.json: no such file or folder")
        }
    }
}
