import Foundation
import Testing
import FlowCore
import FlowJSON
import FlowWidgets

/// The corpus golden files (`Corpus/**/NAME.golden.json`), read in the core's own terms: the
/// page's ids and shape from ``Page``, the diagnostics from ``Diagnostic`` (kind, path, type,
/// message, in order), a changeset from ``PageDiff``. The tool's output format (the rest of
/// each file, compared whole) is FlowToolTests' `ToolGoldenTests`, which also rewrites the
/// files (`UPDATE_GOLDENS=1`).
@Suite struct CorpusGoldenTests {
    /// A page's ids as a golden file lists them.
    struct Shape: Equatable, CustomStringConvertible {
        struct Section: Equatable {
            var id: String
            var header: String?
            var widgets: [String]
        }
        var id: String
        var empty: Bool
        var header: [String]
        var footer: [String]
        var sections: [Section]

        init(_ page: Page) {
            id = page.id
            empty = page.isEmpty
            header = page.header?.widgets.map(\.id) ?? []
            footer = page.footer?.widgets.map(\.id) ?? []
            sections = page.sections.map { Section(id: $0.id, header: $0.header?.id, widgets: $0.widgets.map(\.id)) }
        }

        init?(golden value: JSONValue?) {
            guard let value, let id = value["id"]?.stringValue, let empty = value["empty"]?.boolValue,
                  let sections = value["sections"]?.arrayValue else { return nil }
            self.id = id
            self.empty = empty
            header = Self.strings(value["header"])
            footer = Self.strings(value["footer"])
            self.sections = sections.map {
                Section(id: $0["id"]?.stringValue ?? "", header: $0["header"]?.stringValue, widgets: Self.strings($0["widgets"]))
            }
        }

        static func strings(_ value: JSONValue?) -> [String] { value?.arrayValue?.compactMap(\.stringValue) ?? [] }

        var description: String { "\(id) header \(header) footer \(footer) sections \(sections.map { "\($0.id): \($0.widgets)" })" }
    }

    /// A diagnostic as the golden files list it.
    static func diagnostics(golden value: JSONValue?) -> [Diagnostic] {
        (value?.arrayValue ?? []).compactMap { d in
            guard let kind = d["kind"]?.stringValue.flatMap(Diagnostic.Kind.init(rawValue:)),
                  let path = d["path"]?.stringValue, let message = d["message"]?.stringValue else { return nil }
            return Diagnostic(kind: kind, path: path, type: d["type"]?.stringValue, message: message)
        }
    }

    static func golden(_ url: URL) throws -> JSONValue {
        let data = try #require(FileManager.default.contents(atPath: url.path), "\(url.lastPathComponent) is missing")
        return try JSONValue(parsing: [UInt8](data))
    }

    /// `page`, `diagnostics` and the widget count of `golden` are `page`'s and `diagnostics`.
    static func expect(_ page: Page, _ diagnostics: [Diagnostic], match golden: JSONValue, _ name: String) {
        let shape = Shape(golden: golden["page"])
        #expect(shape != nil, "\(name): no page in the golden file")
        #expect(Shape(page) == shape, "\(name): the page's ids differ from the golden file's")
        let expected = Self.diagnostics(golden: golden["diagnostics"])
        #expect(expected.count == golden["diagnostics"]?.arrayValue?.count, "\(name): a golden diagnostic of an unknown kind")
        #expect(diagnostics == expected, "\(name): diagnostics (in order) differ from the golden file's")
        #expect(golden["stats"]?["widgets"]?.numberValue == JSONNumber(Int64(page.widgetCount)), "\(name): widget count")
    }

    /// A document that fails as a whole: the golden file holds its message and offset.
    static func expect(_ error: PageDecodingError, match golden: JSONValue, _ name: String) {
        #expect(golden["error"]?["message"]?.stringValue == error.message, "\(name): \(error.message)")
        #expect(golden["error"]?["offset"]?.numberValue == JSONNumber(Int64(error.offset)), "\(name): offset \(error.offset)")
    }

    @Test func everyCorpusPageDecodesToItsGolden() throws {
        let pages = corpusFiles("pages")
        #expect(pages.count >= 12)
        var failures = 0
        for url in pages {
            let golden = try Self.golden(url.deletingPathExtension().appendingPathExtension("golden.json"))
            let options = PageDecodingOptions(bareRoot: url.lastPathComponent == "bare_root.json")
            do {
                let decoded = try PageDecoder(registry: starterRegistry, options: options).decode(bytes(url))
                Self.expect(decoded.page, decoded.diagnostics, match: golden, url.lastPathComponent)
            } catch {
                failures += 1
                Self.expect(error, match: golden, url.lastPathComponent)
            }
        }
        #expect(failures < pages.count, "most pages come out")
    }

    /// Each mutation case, default and transactional: the page after the response, every
    /// diagnostic recorded on the way, whether it committed, and the toast.
    @Test func everyMutationCaseAppliesToItsGolden() throws {
        let pages = corpusFiles("mutations", suffix: ".page.json")
        #expect(pages.count >= 10)
        let decoder = PageDecoder(registry: starterRegistry)
        for pageURL in pages {
            let name = pageURL.lastPathComponent.replacingOccurrences(of: ".page.json", with: "")
            let dir = pageURL.deletingLastPathComponent()
            let decoded = try decoder.decode(bytes(pageURL))
            let responseBytes = bytes(dir.appendingPathComponent("\(name).response.json"))
            for transactional in [false, true] {
                let label = "\(name)\(transactional ? ".transactional" : "")"
                let golden = try Self.golden(dir.appendingPathComponent("\(label).golden.json"))
                do {
                    let response = try decoder.decodeMutations(responseBytes)
                    var page = decoded.page
                    let outcome = decoder.apply(response, to: &page, transactional: transactional)
                    #expect(page.identityViolations().isEmpty, "\(label): \(page.identityViolations())")
                    Self.expect(page, decoded.diagnostics + response.diagnostics + outcome.diagnostics, match: golden, label)
                    #expect(golden["committed"]?.boolValue == outcome.committed, "\(label): committed")
                    let toast = try response.toast.map { try JSONValue(parsing: Array($0.description.utf8)) } ?? .null
                    #expect(golden["toast"] == toast, "\(label): toast")
                } catch let error as PageDecodingError {
                    Self.expect(error, match: golden, label)
                }
            }
        }
    }

    /// Each refresh pair: the changeset by id, and it rebuilds the new page's id lists.
    @Test func everyDiffCaseMatchesItsGolden() throws {
        let olds = corpusFiles("diff", suffix: ".old.json")
        #expect(olds.count >= 6)
        for oldURL in olds {
            let name = oldURL.lastPathComponent.replacingOccurrences(of: ".old.json", with: "")
            let dir = oldURL.deletingLastPathComponent()
            let old = try decode(String(decoding: bytes(oldURL), as: UTF8.self)).page
            let new = try decode(String(decoding: bytes(dir.appendingPathComponent("\(name).new.json")), as: UTF8.self)).page
            let diff = PageDiff(old: old, new: new)
            #expect(diff.applied(to: .init(old)) == .init(new), "\(name): the changeset does not rebuild the new lists")
            let golden = try Self.golden(dir.appendingPathComponent("\(name).golden.json"))
            func ids(_ group: String, _ change: String) -> [String] {
                golden[group]?[change]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            }
            #expect(ids("sections", "inserted") == diff.sections.inserted.map(\.id), "\(name)")
            #expect(ids("sections", "removed") == diff.sections.removed.map(\.id), "\(name)")
            #expect(ids("sections", "moved") == diff.sections.moved.map(\.id), "\(name)")
            #expect(ids("sections", "updated") == diff.sections.updated.map(\.id), "\(name)")
            #expect(ids("widgets", "inserted") == diff.widgets.inserted.map(\.id), "\(name)")
            #expect(ids("widgets", "removed") == diff.widgets.removed.map(\.id), "\(name)")
            #expect(ids("widgets", "moved") == diff.widgets.moved.map(\.id), "\(name)")
            #expect(ids("widgets", "updated") == diff.widgets.updated.map(\.id), "\(name)")
            #expect(golden["widgets"]?["moved"]?.arrayValue?.map { $0["to"]?["index"]?.numberValue }
                    == diff.widgets.moved.map { JSONNumber(Int64($0.to.index)) }, "\(name): where widgets moved to")
            #expect(golden["nav_changed"]?.boolValue == diff.navChanged, "\(name)")
            #expect(golden["header_changed"]?.boolValue == diff.headerChanged, "\(name)")
            #expect(golden["footer_changed"]?.boolValue == diff.footerChanged, "\(name)")
        }
    }

    /// The feed's two pages merged.
    @Test func theFeedMergeMatchesItsGolden() throws {
        let dir = packageRoot.appendingPathComponent("Corpus/pages")
        let decoder = PageDecoder(registry: starterRegistry)
        let first = try decoder.decode(bytes(dir.appendingPathComponent("feed_page1.json")))
        var page = first.page
        let diagnostics = try decoder.append(nextPage: bytes(dir.appendingPathComponent("feed_page2.json")), to: &page)
        #expect(page.identityViolations().isEmpty)
        #expect(page.pagination?.postback?.description == #"{"cursor":9007199254741001}"#)
        let golden = try Self.golden(packageRoot.appendingPathComponent("Corpus/merge/feed_page1+feed_page2.golden.json"))
        Self.expect(page, first.diagnostics + diagnostics, match: golden, "feed_page1+feed_page2")
    }
}
