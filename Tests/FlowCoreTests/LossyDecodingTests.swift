import Testing
import FlowCore
import FlowJSON
import FlowWidgets

/// the page contract, "Sections", §3, §5: lossy sections and widgets, diagnostics at the right path.
@Suite struct LossyDecodingTests {
    func page(_ sections: String, placeholders: Bool = false) throws -> DecodedPage {
        try decode(#"{"page": {"id": "p", "sections": "# + sections + "}}", placeholders: placeholders)
    }

    let title = #"{"type": "title_block", "data": {"title": "T"}}"#

    @Test func droppedElementsKeepTheirPositionsForTheirSiblings() throws {
        let decoded = try page("[{\"widgets\": [7, \(title), {\"id\": \"x\"}, null, \(title)]}, \"s\", {\"widgets\": [\(title)]}]")
        #expect(keys(decoded.diagnostics) == [
            "dropped_element page.sections.0.widgets.0", "dropped_element page.sections.0.widgets.2",
            "dropped_element page.sections.0.widgets.3", "dropped_element page.sections.1",
        ])
        #expect(ids(decoded.page) == [
            "title_block@page.sections.0.widgets.1", "title_block@page.sections.0.widgets.4", "title_block@page.sections.2.widgets.0",
        ])
        #expect(decoded.page.sections.map(\.id) == ["section@page.sections.0", "section@page.sections.2"])
    }

    @Test func unknownAndMalformedWidgetsAreSkippedByDefault() throws {
        let decoded = try page(#"[{"widgets": [{"type": "hologram", "id": "h"}, {"type": "banner", "data": {}}, {"type": "title_block", "data": {"title": "ok"}}]}]"#)
        #expect(keys(decoded.diagnostics) == ["unknown_type page.sections.0.widgets.0 (hologram)", "malformed_payload page.sections.0.widgets.1 (banner)"])
        #expect(ids(decoded.page) == ["title_block@page.sections.0.widgets.2"])
        #expect(decoded.diagnostics[1].message.contains("image: required field is missing"))
    }

    @Test func placeholdersKeepSkippedWidgetsAndTheirIds() throws {
        let decoded = try page(#"[{"widgets": [{"type": "hologram", "id": "h", "data": {"beam": 1}}, {"type": "banner", "data": {}}]}]"#, placeholders: true)
        #expect(decoded.diagnostics.count == 2)
        let widgets = decoded.page.sections[0].widgets
        #expect(widgets.map(\.id) == ["h", "banner@page.sections.0.widgets.1"])
        #expect(widgets[0].content == .placeholder(.unknownType))
        #expect(widgets[1].content == .placeholder(.malformedPayload))
        #expect(widgets[0].data.description == #"{"beam":1}"#)
    }

    @Test func aWidgetWithoutDataDecodesFromAnEmptyObject() throws {
        let decoded = try page(#"[{"widgets": [{"type": "separator"}, {"type": "separator", "data": null}]}]"#)
        #expect(decoded.diagnostics.isEmpty)
        #expect(decoded.page.sections[0].widgets.map { $0.model(as: SeparatorData.self) } == [SeparatorData(), SeparatorData()])
        #expect(decoded.page.sections[0].widgets[0].data.description == "{}")
    }

    @Test func aBadOptionalEnvelopeFieldCostsOnlyThatField() throws {
        let decoded = try page("""
            [{"widgets": [
              {"type": "title_block", "id": 9, "data": {"title": "a"}},
              {"type": "title_block", "layout": "wide", "data": {"title": "b"}},
              {"type": "title_block", "layout": {"corner_radius": "12", "padding": {"top": 4}}, "data": {"title": "c"}},
              {"type": "title_block", "actions": [], "data": {"title": "d"}},
              {"type": "title_block", "actions": {"tap": {"kind": "toast"}, "long_press": {"type": "toast"}, "change": 3, "swipe": null}, "data": {"title": "e"}},
              {"type": "title_block", "tracking": {"id": "\\uD800"}, "data": {"title": "f"}}
            ]}]
            """)
        #expect(keys(decoded.diagnostics) == [
            "invalid_field page.sections.0.widgets.0.id (title_block)",
            "invalid_field page.sections.0.widgets.1.layout (title_block)",
            "invalid_field page.sections.0.widgets.2.layout (title_block)",
            "invalid_field page.sections.0.widgets.3.actions (title_block)",
            "invalid_field page.sections.0.widgets.4.actions.change (title_block)",
            "invalid_field page.sections.0.widgets.4.actions.tap (title_block)",
        ])
        let widgets = decoded.page.sections[0].widgets
        #expect(widgets.count == 6, "every widget survives")
        #expect(widgets[0].id == "title_block@page.sections.0.widgets.0")
        #expect(widgets[2].layout == .default)
        #expect(widgets[4].actions.names == ["long_press"])
        // Tracking is opaque: never read as text, so a lone surrogate in it costs nothing.
        #expect(widgets[5].tracking?.description == #"{"id":"\uD800"}"#)
    }

    @Test func aWidgetThatIsSkippedReportsOnlyWhy() throws {
        let decoded = try page(#"[{"widgets": [{"type": "accordion", "id": 4, "layout": 1, "data": {"items": [5, {"type": "nope"}]}}]}]"#)
        #expect(keys(decoded.diagnostics) == ["malformed_payload page.sections.0.widgets.0 (accordion)"])
    }

    @Test func nullCountsAsAbsentEverywhere() throws {
        let decoded = try decode("""
            {"page": {"id": null, "nav": null, "header": {"sticky": null, "widgets": null}, "footer": null, "pagination": null, "refresh": {"pull_to_refresh": null},
              "sections": [{"id": null, "layout": null, "header": null, "widgets": [{"type": "title_block", "id": null, "layout": null, "actions": null, "tracking": null,
                "data": {"title": {"text": "t", "font": null, "color": null}, "subtitle": null}}]}]}}
            """)
        #expect(decoded.diagnostics.isEmpty)
        #expect(decoded.page.id == "page@page")
        #expect(decoded.page.header == PageBar(sticky: true, widgets: []))
        #expect(decoded.page.refresh == RefreshConfig(pullToRefresh: true))
        #expect(decoded.page.pagination == nil)
        #expect(decoded.page.sections[0].widgets[0].model(as: TitleBlock.self) == TitleBlock(title: "t"))
    }

    @Test func barsSectionsNavPaginationAndRefresh() throws {
        let decoded = try decode("""
            {"page": {"nav": {"title": 4, "subtitle": "s", "right_buttons": [{"title": "ok"}, {"style": "x"}, "no"]},
              "header": {"sticky": "yes", "widgets": {}}, "footer": {"sticky": false, "widgets": []},
              "sections": [{"layout": {"arrangement": "spiral", "columns": 3}}, {"layout": {"arrangement": 4}}, {"widgets": 3}],
              "pagination": {"has_more": "yes"}, "refresh": {}}}
            """)
        #expect(keys(decoded.diagnostics) == [
            "invalid_field page.nav.title", "invalid_field page.nav.right_buttons.1", "invalid_field page.nav.right_buttons.2",
            "invalid_field page.header.sticky", "invalid_field page.header.widgets",
            "invalid_field page.sections.1.layout", "invalid_field page.sections.2.widgets", "invalid_field page.pagination",
        ])
        let page = decoded.page
        #expect(page.nav?.title == nil && page.nav?.subtitle == "s" && page.nav?.rightButtons.count == 1)
        #expect(page.header?.sticky == true && page.footer?.sticky == false)
        #expect(page.sections[0].layout == SectionLayout(arrangement: .vertical, columns: 3))
        #expect(page.sections[1].layout == .default)
        #expect(page.pagination == nil)
        #expect(page.refresh == RefreshConfig(pullToRefresh: true))
        let noRefresh = try decode(#"{"page": {}}"#)
        #expect(noRefresh.page.refresh == nil, "absent refresh means no pull to refresh is assumed")
    }

    @Test func sectionHeadersAreOneWidgetAtTheirOwnPath() throws {
        let decoded = try page(#"[{"header": {"type": "title_block", "data": {}}}, {"header": 5}, {"header": {"type": "title_block", "data": {"title": "H"}}}]"#)
        #expect(keys(decoded.diagnostics) == ["malformed_payload page.sections.0.header (title_block)", "dropped_element page.sections.1.header"])
        #expect(decoded.page.sections.map { $0.header?.id } == [nil, nil, "title_block@page.sections.2.header"])
    }

    @Test func firstOccurrenceOfADuplicateKeyWins() throws {
        let decoded = try page(#"[{"widgets": [{"type": "title_block", "type": "banner", "data": {"title": "one", "title": 2}}]}]"#)
        #expect(decoded.diagnostics.isEmpty)
        #expect(decoded.page.sections[0].widgets[0].model(as: TitleBlock.self)?.title.text == "one")
    }

    @Test func anEmptyPageIsDecodableAndReportedEmpty() throws {
        let decoded = try decode(#"{"page": {"nav": {"title": "Nothing"}, "header": {"widgets": []}, "sections": [{"widgets": []}, {}]}}"#)
        #expect(decoded.page.isEmpty)
        #expect(decoded.diagnostics.isEmpty)
        let withHeader = try decode(#"{"page": {"sections": [{"header": {"type": "title_block", "data": {"title": "x"}}}]}}"#)
        #expect(!withHeader.page.isEmpty, "a section header is a widget")
    }

    @Test func thePostbackIsEchoedExactly() throws {
        let decoded = try decode(#"{"page": {"pagination": {"has_more": true, "postback": {"cursor": 9007199254740993, "f": 1.50, "s": "a\u0041"}}}}"#)
        #expect(decoded.page.pagination?.postback?.description == #"{"cursor":9007199254740993,"f":1.50,"s":"a\u0041"}"#)
        #expect(decoded.page.pagination?.hasMore == true)
    }

    @Test func actionsKeepTheirRawObjectAndDecodeAHandlersPayload() throws {
        struct Api: Decodable, Equatable { let endpoint: String; let body: [String: Int] }
        let decoded = try page(#"[{"widgets": [{"type": "title_block", "data": {"title": "t"}, "actions": {"tap": {"type": "api", "endpoint": "cart/add", "body": {"qty": 2}, "n": 9007199254740993}}}]}]"#)
        let tap = try #require(decoded.page.sections[0].widgets[0].actions["tap"])
        #expect(tap.type == "api")
        #expect(try tap.payload(Api.self) == Api(endpoint: "cart/add", body: ["qty": 2]))
        #expect(tap.raw.description == #"{"type":"api","endpoint":"cart/add","body":{"qty":2},"n":9007199254740993}"#)
    }

    @Test func accordionItemsAreNestedWidgetsWithTheirOwnNamespace() throws {
        let decoded = try page(#"[{"widgets": [{"type": "accordion", "id": "a", "data": {"header": "H", "items": [{"type": "title_block", "id": "q", "data": {"title": "1"}}, {"type": "title_block", "id": "q", "data": {"title": "2"}}, 3, {"type": "separator"}]}}, {"type": "title_block", "id": "q", "data": {"title": "page-level q"}}]}]"#)
        #expect(keys(decoded.diagnostics) == [
            "duplicate_id page.sections.0.widgets.0.data.items.1 (title_block)",
            "dropped_element page.sections.0.widgets.0.data.items.2",
        ])
        let accordion = try #require(decoded.page.sections[0].widgets[0].model(as: Accordion.self))
        #expect(accordion.items.map(\.id) == ["q", "q#2", "separator@page.sections.0.widgets.0.data.items.3"])
        #expect(decoded.page.sections[0].widgets[1].id == "q", "page-level ids are a namespace of their own")
    }

    @Test func atomShorthandsAndObjectsDecodeAlike() throws {
        let decoded = try page("""
            [{"widgets": [
              {"type": "image_text_card", "data": {"title": "T", "image": "https://i/x.png", "trailing_icon": "star", "tags": [{"text": "New", "bg_color": "#FFF"}]}},
              {"type": "image_text_card", "data": {"title": {"text": "T"}, "image": {"url": "https://i/x.png"}, "trailing_icon": {"symbol": "star"}, "tags": [{"text": {"text": "New"}, "bg_color": {"hex": "#FFF"}}]}}
            ]}]
            """)
        let cards = decoded.page.sections[0].widgets.compactMap { $0.model(as: ImageTextCard.self) }
        #expect(cards.count == 2)
        #expect(cards[0] == cards[1])
        #expect(cards[0].image?.url == "https://i/x.png")
    }

    @Test func typedNumbersFollowFoundation() throws {
        let decoded = try page("""
            [{"widgets": [
              {"type": "stepper_row", "data": {"title": "a", "min": 2.0, "max": 2e0, "initial": 1e-400}},
              {"type": "stepper_row", "data": {"title": "b", "max": 2.5}},
              {"type": "stepper_row", "data": {"title": "c", "max": 1e30}},
              {"type": "separator", "data": {"thickness": 1e400}},
              {"type": "separator", "data": {"thickness": 1e-400}},
              {"type": "separator", "data": {"thickness": -0}}
            ]}]
            """)
        #expect(keys(decoded.diagnostics) == [
            "malformed_payload page.sections.0.widgets.1 (stepper_row)", "malformed_payload page.sections.0.widgets.2 (stepper_row)",
            "malformed_payload page.sections.0.widgets.3 (separator)", "malformed_payload page.sections.0.widgets.4 (separator)",
        ])
        let stepper = try #require(decoded.page.sections[0].widgets[0].model(as: StepperRow.self))
        #expect(stepper.min == 2 && stepper.max == 2 && stepper.initial == 0)
    }

    @Test func sheetsDecodeAsDocumentsOfTheirOwn() throws {
        let decoder = PageDecoder(registry: starterRegistry)
        let raw = RawJSON(try JSONValue(parsing: bytes(#"{"sections": [{"widgets": [{"type": "title_block", "data": {"title": "s"}}, {"type": "x"}]}], "config": {"detents": ["medium", 0.5], "grabber": true}}"#)))
        let (sheet, diagnostics) = try #require(decoder.decodeSheet(raw))
        #expect(sheet.id == "sheet@sheet")
        #expect(sheet.sections.map(\.id) == ["section@sheet.sections.0"])
        #expect(sheet.sections[0].widgets.map(\.id) == ["title_block@sheet.sections.0.widgets.0"])
        #expect(keys(diagnostics) == ["unknown_type sheet.sections.0.widgets.1 (x)"])
        #expect(sheet.config?.grabber == true && sheet.config?.detents?.count == 2)
    }
}
