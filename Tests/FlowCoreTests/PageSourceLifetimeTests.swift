import Testing
import FlowCore
import FlowJSON
import FlowWidgets

/// What a decoded page keeps of its source: the document's bytes, which its raw parts
/// (`data`, actions, tracking, a postback) are ranges of, and not the document's index,
/// which goes when the decode is done (8 bytes per JSON value, most of a page's size again).
@Suite struct PageSourceLifetimeTests {
    static let text = """
        {"page":{"id":"p","sections":[{"id":"s","widgets":[
          {"type":"title_block","id":"t","data":{"title":{"text":"Hello"},"extra":[1, {"k": [true]}]},
           "actions":{"tap":{"type":"toast","payload":{"message":"hi"}}},"tracking":{"n":1.50}}
        ]}],"pagination":{"has_more":true,"postback":{"cursor":"c"}}}}
        """

    @Test func theIndexGoesWithTheDecodeAndTheRawPartsStillRead() throws {
        weak var weakDocument: JSONDocument?
        let decoded: DecodedPage = try {
            let document = try JSONDocument(Self.text)
            weakDocument = document
            return try PageDecoder(registry: starterRegistry).decode(document)
        }()
        #expect(weakDocument == nil, "the page keeps the document (and its index) alive")

        let widget = try #require(decoded.page.widget(id: "t"))
        #expect(widget.data.description == #"{"title":{"text":"Hello"},"extra":[1,{"k":[true]}]}"#)
        #expect(widget.data.kind == .object)
        #expect(widget.data.value["extra"]?.arrayValue?[1]["k"] == .array([.bool(true)]))
        #expect(widget.tracking?.description == #"{"n":1.50}"#)
        let tap = try #require(widget.actions["tap"])
        #expect(tap.raw.description == #"{"type":"toast","payload":{"message":"hi"}}"#)
        struct Toast: Decodable { var type: String; var payload: [String: String] }
        #expect(try tap.raw.decode(Toast.self).payload == ["message": "hi"])
        #expect(decoded.page.pagination?.postback?.description == #"{"cursor":"c"}"#)
        // The page writes back as received, compact.
        let again = try PageDecoder(registry: starterRegistry).decode(PageEncoder.encode(decoded.page))
        #expect(again.page == decoded.page)
    }

    @Test func slicesOfOneDocumentCompareByRangeAndOthersByValue() throws {
        let a = try PageDecoder(registry: starterRegistry).decode(Array(Self.text.utf8)).page
        let b = try PageDecoder(registry: starterRegistry).decode(Array(Self.text.utf8)).page
        #expect(a.widget(id: "t")?.data == b.widget(id: "t")?.data)
        #expect(a.widget(id: "t")?.tracking == RawJSON(.object(["n": .number(JSONNumber("1.50")!)])))
        #expect(a.widget(id: "t")?.data != a.widget(id: "t")?.tracking)
    }
}
