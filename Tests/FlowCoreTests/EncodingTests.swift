import Foundation
import Testing
import FlowCore
import FlowJSON
import FlowWidgets

/// PageEncoder: raw parts exactly as received, normalizing is a fixed point.
@Suite struct EncodingTests {
    @Test func normalizingTwiceGivesTheSameBytesAsOnce() throws {
        for url in corpusFiles("pages") {
            let bare = url.lastPathComponent == "bare_root.json"
            let decoder = PageDecoder(registry: starterRegistry, options: PageDecodingOptions(bareRoot: bare))
            let once = PageEncoder.encode(try decoder.decode(bytes(url)).page, bareRoot: bare)
            let redecoded = try decoder.decode(once)
            let twice = PageEncoder.encode(redecoded.page, bareRoot: bare)
            #expect(once == twice, "\(url.lastPathComponent)")
            // Only what lives inside raw data (an accordion's items) can still be dropped:
            // the envelope of a normalized page is clean.
            let outside = redecoded.diagnostics.filter { !$0.path.contains(".data.") }
            #expect(outside.isEmpty, "\(url.lastPathComponent): \(outside)")
        }
    }

    /// Ids on the page are written resolved, so they survive; positional ids of widgets
    /// nested in raw data (accordion items) follow their owner's position, which moves when
    /// a dropped sibling before it is gone (accordion.json).
    @Test func aNormalizedPageDecodesToTheSamePage() throws {
        for url in corpusFiles("pages") where url.lastPathComponent != "bare_root.json" {
            let decoder = PageDecoder(registry: starterRegistry)
            let page = try decoder.decode(bytes(url)).page
            let again = try decoder.decode(PageEncoder.encode(page)).page
            #expect(ids(again) == ids(page), "\(url.lastPathComponent)")
            if url.lastPathComponent != "accordion.json" { #expect(again == page, "\(url.lastPathComponent)") }
        }
    }

    @Test func rawDataActionsTrackingAndPostbackAreWrittenAsReceived() throws {
        let text = #"{"page":{"id":"p","sections":[{"id":"s","widgets":[{"type":"title_block","id":"w","data":{"title":"t","extra":[1.50,-0,1E2],"z":"\u0041"},"actions":{"tap":{"type":"x","n":12345678901234567890}},"tracking":{"b":1,"a":2}}]}],"pagination":{"has_more":true,"postback":9007199254740993}}}"#
        let page = try decode(text).page
        let written = String(decoding: PageEncoder.encode(page), as: UTF8.self)
        #expect(written.contains(#""data":{"title":"t","extra":[1.50,-0,1E2],"z":"\u0041"}"#))
        #expect(written.contains(#""tap":{"type":"x","n":12345678901234567890}"#))
        #expect(written.contains(#""tracking":{"b":1,"a":2}"#))
        #expect(written.contains(#""postback":9007199254740993"#))
    }

    @Test func atomsWriteTheirCanonicalForm() {
        #expect(String(decoding: TextData(text: "Hi").jsonBytes, as: UTF8.self) == #""Hi""#)
        #expect(String(decoding: TextData(text: "Hi", maxLines: 2).jsonBytes, as: UTF8.self) == #"{"text":"Hi","max_lines":2}"#)
        #expect(String(decoding: CornerRadius(all: 8).jsonBytes, as: UTF8.self) == "8.0")
        #expect(String(decoding: ColorData(hex: "#FFF").jsonBytes, as: UTF8.self) == ##""#FFF""##)
    }

    @Test func pagesBuiltInCodeGetUniqueIds() {
        let w = Widget(id: "a", type: "separator", placeholder: .unknownType)
        let page = Page(id: "p", sections: [Section(id: "s", widgets: [w, w]), Section(id: "s")])
        #expect(ids(page) == ["a", "a#2"])
        #expect(page.sections.map(\.id) == ["s", "s#2"])
    }
}
