import Foundation
import Testing
@testable import FlowCore
@_spi(Testing) import FlowJSON
import FlowWidgets
import FlowWorkloads

/// A decode that made its document gives back the index of each section it has finished,
/// so that the index and the model are never whole in memory together: the page is the one
/// a decode that keeps the whole index builds, on one thread or several, and a host type
/// that keeps its decoder keeps the index whole.
@Suite struct IndexReleaseTests {
    static let bytes = PageGenerator(.init(widgets: 3_000, seed: 7, badRate: 0.1, duplicateRate: 0.05)).generate()

    /// Every finished section given back at once (a run of one entry).
    func options(threads: Int) -> PageDecodingOptions {
        var options = PageDecodingOptions(threads: threads, parallelMinimumEntries: 0)
        options.indexReleaseRun = 1
        options.indexReleaseMinimumBytes = 0
        options.indexReleaseGranule = 4096
        return options
    }

    /// Index entries that read as zero: what a given-back page holds (no scanned entry is
    /// zero: a `null` at offset 0 is only ever the whole document).
    func zeroEntries(_ document: JSONDocument) -> Int { document.tapeEntries.lazy.filter { $0 == 0 }.count }

    @Test(arguments: [1, 2])
    func thePageIsTheOneAWholeIndexGives(threads: Int) throws {
        let whole = try PageDecoder(registry: starterRegistry, options: options(threads: threads)).decode(JSONDocument(bytes: Self.bytes))
        let document = try JSONDocument(bytes: Self.bytes)
        let released = try PageDecoder(registry: starterRegistry, options: options(threads: threads)).decode(document, releasingIndex: true)
        #expect(zeroEntries(document) > document.entryCount / 2, "the finished sections' index was not given back")
        #expect(released.page == whole.page)
        #expect(released.diagnostics == whole.diagnostics)
        #expect(PageEncoder.encode(released.page) == PageEncoder.encode(whole.page))
        // The public entry points release too, and give the same page.
        let fromBytes = try PageDecoder(registry: starterRegistry, options: options(threads: threads)).decode(Self.bytes)
        #expect(fromBytes.page == whole.page && fromBytes.diagnostics == whole.diagnostics)
    }

    @Test func aSmallIndexStaysWholeByDefault() throws {
        let document = try JSONDocument(bytes: Self.bytes)
        var defaults = PageDecodingOptions(threads: 1)
        defaults.indexReleaseRun = 1
        _ = try PageDecoder(registry: starterRegistry, options: defaults).decode(document, releasingIndex: true)
        #expect(document.indexByteCount < defaults.indexReleaseMinimumBytes)
        #expect(zeroEntries(document) == 0)
    }

    @Test func aDocumentTheCallerPassesInStaysWhole() throws {
        let document = try JSONDocument(bytes: Self.bytes)
        _ = try PageDecoder(registry: starterRegistry, options: options(threads: 1)).decode(document)
        #expect(zeroEntries(document) == 0)
    }

    /// A `Decodable` that keeps its decoder (allowed, and read later): the index stays.
    struct Keeper: Decodable, Sendable {
        let label: String
        private enum CodingKeys: String, CodingKey { case label }
        nonisolated(unsafe) static var kept: (any Decoder)?
        init(from decoder: any Decoder) throws {
            label = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .label)
            if Self.kept == nil { Self.kept = decoder }
        }
        static func readKept() throws -> String {
            try kept!.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .label)
        }
    }

    @Test func aHostTypeThatKeepsItsDecoderKeepsTheIndex() throws {
        var registry = starterRegistry
        registry.register(Keeper.self, as: "keeper")
        let sections = (0..<6).map { s in
            #"{"id":"s\#(s)","widgets":["# + (0..<200).map { w in
                #"{"type":"\#(w == 0 && s == 0 ? "keeper" : "title_block")","id":"w\#(s)_\#(w)","data":{"label":"kept \#(s) \#(w)","title":{"text":"a title long enough to fill the index \#(w)"}}}"#
            }.joined(separator: ",") + "]}"
        }
        let text = #"{"page":{"id":"p","sections":["# + sections.joined(separator: ",") + "]}}"
        Keeper.kept = nil
        let document = try JSONDocument(text)
        let decoded = try PageDecoder(registry: registry, options: options(threads: 1)).decode(document, releasingIndex: true)
        #expect(decoded.page.widget(id: "w0_0")?.model(as: Keeper.self)?.label == "kept 0 0")
        #expect(zeroEntries(document) == 0, "a kept decoder's index was given back")
        #expect(try Keeper.readKept() == "kept 0 0")
    }
}
