import Testing
import FlowCore
import FlowJSON
import FlowWidgets

/// the page contract, "Limits and hostile input": opaque JSON (tracking, a postback, the raw `data`, a raw action object beside
/// its `type`, members a model does not read) is held as the bytes received and never read
/// as text, so a lone surrogate escape in it (what `JSON.stringify` writes for a string cut
/// in the middle of an emoji) costs nothing; only a typed field that reads such a string
/// fails, and a nested widget is judged on its own. Both decode paths agree, and both write
/// the bytes back exactly.
@Suite struct OpaqueJSONTests {
    /// Decodes on both paths, checks they agree and write the same bytes; the fast result.
    func both(_ text: String, _ name: String) throws -> (decoded: DecodedPage, written: String) {
        let input = bytes(text)
        ReferenceAgreementTests.agree(input, name)
        let fast = try PageDecoder(registry: starterRegistry).decode(input)
        let reference = try ReferencePageDecoder(registry: starterRegistry).decode(input)
        let written = PageEncoder.encode(fast.page)
        #expect(PageEncoder.encode(reference.page) == written, "\(name): the paths write different bytes")
        // Normalizing is a fixed point, lone surrogates and all.
        let again = try PageDecoder(registry: starterRegistry).decode(written)
        #expect(PageEncoder.encode(again.page) == written, "\(name): normalize is not a fixed point")
        return (fast, String(decoding: written, as: UTF8.self))
    }

    /// Equality of opaque JSON held as slices of two documents: the same bytes are equal
    /// (compared as bytes), other spellings of one value are equal (compared as values),
    /// and other values are not.
    @Test func slicesOfTwoDocumentsCompareAsJSON() throws {
        func tracking(_ json: String) throws -> RawJSON {
            let page = try PageDecoder(registry: starterRegistry).decode(bytes(#"{"page":{"sections":[{"widgets":[{"type":"separator","id":"s","tracking":"# + json + "}]}]}}"))
            return try #require(page.page.sections[0].widgets[0].tracking)
        }
        let a = try tracking(#"{"label":"Deal \udfff","n":[1,2]}"#)
        #expect(a == (try tracking(#"{"label":"Deal \udfff","n":[1,2]}"#)))
        #expect(a == (try tracking(#"{ "n": [1, 2], "label": "Deal \udfff" }"#)))
        #expect(a == RawJSON(a.value))
        #expect(a != (try tracking(#"{"label":"Deal \udfff","n":[2,1]}"#)))
        #expect(a != (try tracking(#"{"label":"Deal \udffe","n":[1,2,3]}"#)))
    }

    @Test func aLoneSurrogateInTrackingCostsNothing() throws {
        let (decoded, written) = try both(#"{"page":{"sections":[{"widgets":[{"type":"separator","id":"s","tracking":{"label":"Deal \udfff","n":1.50}}]}]}}"#, "tracking")
        #expect(decoded.diagnostics.isEmpty)
        #expect(decoded.page.sections[0].widgets[0].tracking?.description == #"{"label":"Deal \udfff","n":1.50}"#)
        #expect(written.contains(#""tracking":{"label":"Deal \udfff","n":1.50}"#))
    }

    @Test func aLoneSurrogateInAPostbackKeepsThePagination() throws {
        let (decoded, written) = try both(#"{"page":{"sections":[],"pagination":{"has_more":true,"postback":{"cursor":"ab\ud800","k":[1,2]}}}}"#, "postback")
        #expect(decoded.diagnostics.isEmpty)
        #expect(decoded.page.pagination?.hasMore == true)
        #expect(decoded.page.pagination?.postback?.description == #"{"cursor":"ab\ud800","k":[1,2]}"#)
        #expect(written.contains(#""pagination":{"has_more":true,"postback":{"cursor":"ab\ud800","k":[1,2]}}"#))
    }

    @Test func aLoneSurrogateInADataMemberTheModelDoesNotReadKeepsTheWidget() throws {
        let (decoded, written) = try both(#"{"page":{"sections":[{"widgets":[{"type":"title_block","id":"t","data":{"title":"Deal","x_debug":"Deal \udfff"}}]}]}}"#, "data")
        #expect(decoded.diagnostics.isEmpty)
        let widget = try #require(decoded.page.sections.first?.widgets.first)
        #expect(widget.model(as: TitleBlock.self)?.title.text == "Deal")
        #expect(widget.data.value == ["title": "Deal", "x_debug": "Deal \u{FFFD}"], "the tree view shows U+FFFD")
        #expect(written.contains(#""data":{"title":"Deal","x_debug":"Deal \udfff"}"#))
    }

    @Test func aLoneSurrogateInARawActionBesideItsTypeKeepsTheAction() throws {
        let (decoded, written) = try both(#"{"page":{"sections":[{"widgets":[{"type":"separator","id":"s","actions":{"tap":{"type":"deeplink","url":"app://x\udfff"}}}]}]}}"#, "action")
        #expect(decoded.diagnostics.isEmpty)
        #expect(decoded.page.sections[0].widgets[0].actions["tap"]?.type == "deeplink")
        #expect(written.contains(#""tap":{"type":"deeplink","url":"app://x\udfff"}"#))
    }

    @Test func insideAnAccordionEachItemIsJudgedOnItsOwn() throws {
        let items = #"[{"type":"title_block","id":"bad","data":{"title":"\udfff"}},"#
            + #"{"type":"title_block","id":"ok","data":{"title":"Fine","x":"\udfff"},"tracking":"\ud800"}]"#
        let (decoded, written) = try both(#"{"page":{"sections":[{"widgets":[{"type":"accordion","id":"acc","data":{"header":"More","items":"# + items + "}}]}]}}", "accordion")
        #expect(keys(decoded.diagnostics) == ["malformed_payload page.sections.0.widgets.0.data.items.0 (title_block)"])
        let accordion = try #require(decoded.page.sections.first?.widgets.first?.model(as: Accordion.self))
        #expect(accordion.items.map(\.id) == ["ok"])
        #expect(written.contains(#""tracking":"\ud800""#))
    }

    @Test func aTypedFieldThatReadsALoneSurrogateStillFails() throws {
        let (decoded, _) = try both(#"{"page":{"nav":{"title":"\udfff"},"sections":[{"widgets":[{"type":"title_block","data":{"title":"x \udfff"}},{"type":"separator","id":"kept"}]}]}}"#, "typed")
        #expect(keys(decoded.diagnostics) == ["invalid_field page.nav.title", "malformed_payload page.sections.0.widgets.0 (title_block)"])
        #expect(ids(decoded.page) == ["kept"])
    }
}
