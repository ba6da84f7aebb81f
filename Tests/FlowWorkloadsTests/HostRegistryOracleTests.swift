import Foundation
import Testing
import FlowCore
import FlowWidgets
@testable import FlowWorkloads

/// The oracles run a host's own widget types when given its registry: its decoders go
/// through fast/reference agreement, the normalize fixed point, identity, merge and diff,
/// mutations and the one-bad-widget check on its own pages.
@Suite struct HostRegistryOracleTests {
    /// A host's content type, as a team would write it: plain Decodable.
    struct PriceTag: Decodable, Equatable, Sendable {
        let amount: Double
        let currency: String
        let label: String?
    }

    /// A host type whose fast path is wrong: it adds a cent the reference path does not.
    struct SkewedPrice: FlowDecodable, Equatable {
        var amount: Double

        init<R: ValueReader>(from reader: R) throws {
            guard let amount = reader.object()?.value(forKey: "amount")?.double() else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "expected an amount"))
            }
            self.amount = amount
        }

        init(tape reader: TapeReader) throws {
            try self.init(from: reader)
            amount += 0.01
        }
    }

    static let registry: WidgetRegistry = {
        var r = FlowWidgets.registry
        r.register(PriceTag.self, as: "price_tag")
        return r
    }()

    static let skewed: WidgetRegistry = {
        var r = FlowWidgets.registry
        r.register(SkewedPrice.self, as: "price_tag")
        return r
    }()

    static let pageText = #"""
        {"page": {"id": "shop", "sections": [
          {"id": "deals", "widgets": [
            {"type": "title_block", "id": "t", "data": {"title": {"text": "Deals"}}},
            {"type": "price_tag", "id": "p1", "data": {"amount": 12.5, "currency": "EUR", "label": "today"}},
            {"type": "price_tag", "id": "p1", "data": {"amount": 3, "currency": "EUR"}}
          ]},
          {"id": "more", "widgets": [
            {"type": "price_tag", "data": {"amount": 99.99, "currency": "USD"}},
            {"type": "price_tag", "id": "bad", "data": {"amount": "free", "currency": "USD"}}
          ]}
        ]}}
        """#
    static let page = Array(pageText.utf8)

    @Test func hostTypesDecodeOnlyThroughTheHostRegistry() throws {
        let starter = try PageDecoder(registry: Oracles.registry).decode(Self.page)
        #expect(starter.page.widgetCount == 1, "the starter registry drops every price_tag as unknown_type")
        let host = try PageDecoder(registry: Self.registry).decode(Self.page)
        #expect(host.page.allWidgets.filter { $0.type == "price_tag" }.count == 3, "the malformed one dropped, three kept")
        #expect(host.page.allWidgets.compactMap { $0.model(as: PriceTag.self) }.map(\.amount) == [12.5, 3, 99.99])
    }

    @Test func pageOraclePassesAHostTypeThatAgrees() {
        #expect(Oracles.page(Self.page, registry: Self.registry) == [])
        #expect(Oracles.page(Self.page, options: PageDecodingOptions(placeholders: true), registry: Self.registry) == [])
    }

    @Test func pageOracleCatchesAHostTypeWhosePathsDisagree() {
        let failures = Oracles.page(Self.page, registry: Self.skewed)
        #expect(failures.contains("pages differ between the fast and the reference path"), "\(failures)")
        // The default registry never runs the host's decoder, so it cannot see the bug.
        #expect(Oracles.page(Self.page) == [])
    }

    @Test func mergeDiffAndMutationOraclesTakeTheRegistry() {
        let next = Array(#"{"page": {"sections": [{"widgets": [{"type": "price_tag", "id": "p1", "data": {"amount": 1, "currency": "EUR"}}]}]}}"#.utf8)
        #expect(Oracles.mergeDiff(Self.page, next, registry: Self.registry) == [])
        let response = Array(#"{"mutations": [{"kind": "replace_widget", "id": "p1", "widget": {"type": "price_tag", "id": "p1", "data": {"amount": 2, "currency": "EUR"}}}]}"#.utf8)
        #expect(Oracles.mutation(page: Self.page, response: response, registry: Self.registry) == [])
    }

    @Test func oneBadWidgetRunsOnTheHostsPagesAndTypes() {
        let base = OneBadWidget.basePage(source: "shop.json", text: Self.pageText)
        #expect(base.slots.count > 10, "every widget, field and missing envelope member is a slot")
        // Every slot holding what it holds now, and a few hostile replacements.
        let replacements = ["null", "{}", #"{"type":"price_tag","data":{"amount":-1,"currency":""}}"#, #""price_tag""#, "[1,2]"]
        for slot in 0..<base.slots.count {
            for text in [base.current(base.slots[slot]).map { String(decoding: $0, as: UTF8.self) } ?? "1"] + replacements {
                let input = OneBadWidget.Input(page: 0, slot: slot, alsoPageOracle: slot % 3 == 0, replacement: Array(text.utf8))
                let failures = Oracles.oneBadWidget(input.bytes, pages: [base], registry: Self.registry)
                #expect(failures.isEmpty, "slot \(slot) with \(text): \(failures)")
            }
        }
    }

    /// A host type that counts its decodes (only the test below registers it).
    struct CountedTag: Decodable, Equatable, Sendable {
        static let decodes = Counter()
        let n: Int
        init(from decoder: any Decoder) throws {
            n = try decoder.container(keyedBy: Key.self).decode(Int.self, forKey: .n)
            Self.decodes.add()
        }
        enum Key: String, CodingKey { case n }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// A host's target decodes each one-bad-widget baseline once: the page with the marker in
    /// the element's place does not change between inputs, so an input after the first costs
    /// the decode of the spliced page alone. The baseline holds one counted widget (the other
    /// is the marker): the first input decodes one more than the next, and a new option
    /// (placeholders) is a baseline of its own.
    @Test func aHostTargetDecodesEachBaselineOnce() throws {
        var registry = WidgetRegistry()
        registry.register(CountedTag.self, as: "counted_tag")
        let text = #"{"page":{"sections":[{"widgets":[{"type":"counted_tag","id":"a","data":{"n":1}},{"type":"counted_tag","id":"b","data":{"n":2}}]}]}}"#
        let base = OneBadWidget.basePage(source: "counted.json", text: text)
        let target = FuzzTarget.host(name: "counted", registry: registry, pages: [base])
        let slot = try #require(base.slots.indices.first { base.current(base.slots[$0]).map { String(decoding: $0, as: UTF8.self) } == #"{"n":1}"# })
        func decodes(_ n: Int, placeholders: Bool = false) -> Int {
            let before = CountedTag.decodes.value
            let input = OneBadWidget.Input(page: 0, slot: slot, placeholders: placeholders, replacement: Array(#"{"n":\#(n)}"#.utf8))
            #expect(target.check([0xC0] + input.bytes).isEmpty)
            return CountedTag.decodes.value - before
        }
        let first = decodes(5), second = decodes(6), third = decodes(7)
        #expect(first == second + 1 && second == third, "decodes per input: \(first), \(second), \(third)")
        #expect(decodes(8, placeholders: true) == second + 1)
    }

    /// A registry of only the host's type: the pages' starter widgets are unknown types
    /// (dropped, reported), the baseline's marker is the oracle's own, and every seed passes.
    @Test func aRegistryOfOnlyTheHostsTypesPassesEverySeed() throws {
        var bare = WidgetRegistry()
        bare.register(PriceTag.self, as: "price_tag")
        let dir = try Self.folder(["shop.json": Self.pageText])
        let target = FuzzTarget.host(name: "price-tag", registry: bare, pagesFolder: dir.path)
        #expect(target.setupError == nil)
        let seeds = try target.seeds()
        #expect(seeds.filter { $0.bytes.first.map { $0 >= 0xC0 } ?? false }.count > 10)
        for seed in seeds { #expect(target.check(seed.bytes).isEmpty, "\(seed.name): \(target.check(seed.bytes))") }
        let base = OneBadWidget.basePage(source: "shop.json", text: Self.pageText)
        for slot in 0..<base.slots.count {
            let input = OneBadWidget.Input(page: 0, slot: slot, alsoPageOracle: true, replacement: Array(#"{"type":"separator"}"#.utf8))
            let failures = Oracles.oneBadWidget(input.bytes, pages: [base], registry: bare)
            #expect(failures.isEmpty, "slot \(slot): \(failures)")
        }
    }

    /// A missing folder, or one without a page, is the target's setup error, naming the
    /// folder and the variable that sets it; without one it fuzzes nothing at all.
    @Test func aMissingOrEmptyPagesFolderIsReported() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-pages-\(UUID().uuidString)").path
        let absent = FuzzTarget.host(name: "t", registry: Self.registry, pagesFolder: missing, environmentVariable: "FLOW_TEST_UNSET_PAGES")
        #expect(absent.setupError == "no pages folder at \(missing) (the default: FLOW_TEST_UNSET_PAGES is not set): "
                + "set FLOW_TEST_UNSET_PAGES to the folder of your pages")
        #expect(throws: OneBadWidget.PagesFolderError.self) { try OneBadWidget.loadBasePages(folder: missing) }

        let empty = try Self.folder(["notes.txt": "x", "shop.golden.json": Self.pageText])
        let none = FuzzTarget.host(name: "t", registry: Self.registry, pagesFolder: empty.path)
        #expect(none.setupError?.hasPrefix("no pages in \(empty.path)") == true, "\(none.setupError ?? "nil")")
        #expect(none.setupError?.contains("FuzzTarget.host(name:registry:pagesFolder:)") == true)
        #expect(OneBadWidget.basePages(folder: empty.path).isEmpty)
        #expect(FuzzTarget.host(name: "t", registry: Self.registry, pages: []).setupError != nil)
        #expect(FuzzTarget.host(name: "t", registry: Self.registry, pages: OneBadWidget.basePages(folder: missing)).setupError != nil)
    }

    /// A service build copies the pages beside the binary (`fuzz-<name>.pages`): found there
    /// when that folder exists, else the folder the sources name.
    @Test func pagesBesideTheExecutableAreFoundFirst() throws {
        let dir = try Self.folder(["fuzz-t": "binary"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let executable = dir.appendingPathComponent("fuzz-t").path
        #expect(FuzzTarget.pagesBeside(executable) == nil, "no folder beside it yet")
        try FileManager.default.createDirectory(atPath: executable + ".pages", withIntermediateDirectories: false)
        #expect(FuzzTarget.pagesBeside(executable) == executable + ".pages")
        #expect(FuzzTarget.pagesBeside(nil) == nil)
        #expect(FuzzTarget.executablePath.map { FileManager.default.isExecutableFile(atPath: $0) } == true, "this process's executable")
    }

    /// A fresh folder holding `files` (name to text).
    static func folder(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("host-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    @Test func theHostFuzzTargetsSeedsPassAndItsInputsReachEveryCheck() throws {
        let dir = try Self.folder(["shop.json": Self.pageText, "shop.golden.json": Self.pageText])
        let pages = OneBadWidget.basePages(folder: dir.path)
        #expect(pages.count == 1)
        let target = FuzzTarget.host(name: "price-tag", registry: Self.registry, pages: pages)
        #expect(target.setupError == nil)
        let seeds = try target.seeds()
        #expect(seeds.count > 2 + pages[0].slots.count - 1)
        for seed in seeds { #expect(target.check(seed.bytes).isEmpty, "\(seed.name): \(target.check(seed.bytes))") }
        // The skewed decoder is caught on a captured page as it is, and through a splice.
        let skewed = FuzzTarget.host(name: "skewed", registry: Self.skewed, pages: pages)
        #expect(!skewed.check(Self.page).isEmpty)
    }
}
