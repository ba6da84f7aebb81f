import Foundation
import Testing
@testable import FlowCore
import FlowJSON
import FlowWidgets

/// Each model's JSON keys are declared once, in its field table, and drive both its decode
/// and its encode. These tests fail when the two drift apart: a field the encoder forgets,
/// writes under another name, or writes out of the table's order, for every atom, the
/// layouts and every part of the envelope the encoder writes.
@Suite struct KeyTableTests {
    /// Decodes `json` (every field present, keys deliberately not in table order), writes
    /// it back, and checks the written keys are the table's, in the table's order, and that
    /// what was written decodes to the same value.
    func check<T: FlowDecodable & JSONWritable & Equatable, F>(_ type: T.Type, _ table: FieldTable<F>, _ json: String) throws {
        let value = try JSONDecoder().decode(T.self, from: Data(json.utf8))
        var writer = JSONWriter()
        value.write(to: &writer)
        let written = try keys(of: writer.bytes)
        #expect(written == table.keys.names.map(\.description), "\(T.self) writes \(written)")
        #expect(try JSONDecoder().decode(T.self, from: Data(writer.bytes)) == value, "\(T.self) reads back what it wrote")
    }

    /// The keys of the object at `path` (member names, then element indices) in `bytes`, in
    /// the order they were written.
    func keys(of bytes: [UInt8], at path: [String] = []) throws -> [String] {
        let document = try JSONDocument(bytes: bytes)
        return try document.withView { view in
            var i = 0
            for step in path {
                if let n = Int(step) {
                    try #require(n < view.childCount(i), "no element \(n) at \(path)")
                    i = i + 1
                    for _ in 0..<n { i = view.next(i) }
                } else {
                    var found: Int?
                    try view.forEachMember(i) { k, v in
                        if try view.string(k) == step { found = v; return false }
                        return true
                    }
                    i = try #require(found, "no \(step) in \(path)")
                }
            }
            var names: [String] = []
            try view.forEachMember(i) { k, _ in
                names.append(try view.string(k))
                return true
            }
            return names
        }
    }

    static let color = ##"{"alpha":0.5,"token":"brand","dark_hex":"#000","hex":"#fff"}"##
    static let font = ##"{"token":"body","weight":"bold","size":14}"##
    static let action = ##"{"type":"open_url","url":"https://example.com"}"##
    static let radius = ##"{"bottom_right":4,"bottom_left":3,"top_right":2,"top_left":1}"##
    static let insets = ##"{"bottom":4,"right":3,"left":2,"top":1}"##
    static let icon = ##"{"action":\##(action),"color":\##(color),"size":12,"symbol":"star"}"##

    @Test func atomsWriteTheirTablesKeysInOrder() throws {
        try check(ColorData.self, ColorData.fields, Self.color)
        try check(FontData.self, FontData.fields, Self.font)
        try check(CornerRadius.self, CornerRadius.fields, Self.radius)
        try check(Insets.self, Insets.fields, Self.insets)
        try check(IconData.self, IconData.fields, Self.icon)
        try check(TextData.self, TextData.fields,
                  ##"{"is_markdown":true,"max_lines":2,"alignment":"center","color":\##(Self.color),"font":\##(Self.font),"text":"Hi"}"##)
        try check(ButtonData.self, ButtonData.fields,
                  ##"{"action":\##(Self.action),"disabled":false,"full_width":true,"icon":\##(Self.icon),"corner_radius":\##(Self.radius),"bg_color":\##(Self.color),"style":"primary","title":"Buy"}"##)
        try check(TagData.self, TagData.fields,
                  ##"{"action":\##(Self.action),"icon":\##(Self.icon),"corner_radius":\##(Self.radius),"border_color":\##(Self.color),"bg_color":\##(Self.color),"text":"New"}"##)
        try check(ImageData.self, ImageData.fields,
                  ##"{"alt":"a cat","shimmer":true,"placeholder_color":\##(Self.color),"corner_radius":\##(Self.radius),"scale_mode":"fill","aspect_ratio":1.5,"url":"https://example.com/cat.png"}"##)
        try check(SeparatorData.self, SeparatorData.fields, ##"{"insets":\##(Self.insets),"thickness":1,"color":\##(Self.color),"style":"dashed"}"##)
        try check(Border.self, Border.fields, ##"{"dash_gap":2,"dash_width":4,"color":\##(Self.color),"width":1}"##)
        try check(Gradient.self, Gradient.fields, ##"{"angle":90,"colors":["#fff","#000"]}"##)
    }

    @Test func layoutsWriteTheirTablesKeysInOrder() throws {
        try check(WidgetLayout.self, WidgetLayout.fields,
                  ##"{"width":"fill","border":{"width":1},"gradient":{"colors":["#fff"]},"background":"#eee","corner_radius":\##(Self.radius),"margin":\##(Self.insets),"padding":\##(Self.insets)}"##)
        try check(SectionLayout.self, SectionLayout.fields, ##"{"insets":\##(Self.insets),"item_spacing":8,"columns":2,"arrangement":"grid"}"##)
    }

    @Test func theEnvelopeWritesItsTablesKeysInOrder() throws {
        let widget = ##"{"tracking":{"k":1},"actions":{"tap":\##(Self.action)},"data":{"style":"dashed"},"layout":{"padding":\##(Self.insets)},"id":"w","type":"separator"}"##
        let page = ##"""
            {"page": {"refresh": {"pull_to_refresh": true}, "pagination": {"postback": {"p": 2}, "has_more": true},
                      "footer": {"widgets": [], "sticky": false},
                      "sections": [{"widgets": [\##(widget)], "header": {"type": "separator", "id": "h", "data": {}},
                                    "layout": {"columns": 2}, "id": "s"}],
                      "header": {"widgets": [], "sticky": true},
                      "nav": {"right_buttons": [{"title": "X"}], "left_button": {"title": "<"}, "bg_color": "#fff",
                              "subtitle": "sub", "title": "T"},
                      "id": "home"}}
            """##
        let decoded = try PageDecoder(registry: FlowWidgets.registry).decode(Array(page.utf8))
        #expect(decoded.diagnostics.isEmpty, "\(decoded.diagnostics)")
        let bytes = PageEncoder.encode(decoded.page)
        func names<F>(_ table: FieldTable<F>) -> [String] { table.keys.names.map(\.description) }
        #expect(try keys(of: bytes, at: ["page"]) == names(Page.fields))
        #expect(try keys(of: bytes, at: ["page", "nav"]) == names(NavBar.fields))
        #expect(try keys(of: bytes, at: ["page", "header"]) == names(PageBar.fields))
        #expect(try keys(of: bytes, at: ["page", "sections", "0"]) == names(Section.fields))
        #expect(try keys(of: bytes, at: ["page", "sections", "0", "widgets", "0"]) == names(Widget.fields))
        #expect(try keys(of: bytes, at: ["page", "pagination"]) == names(Pagination.fields))
        #expect(try keys(of: bytes, at: ["page", "refresh"]) == names(RefreshConfig.fields))
        #expect(try PageDecoder(registry: FlowWidgets.registry).decode(bytes).page == decoded.page)
    }

    @Test func aFieldWrittenOutOfTableOrderIsCaught() {
        #expect(FieldWriter<TextData.Field>.follows(-1, 0))
        #expect(FieldWriter<TextData.Field>.follows(0, 3))
        #expect(!FieldWriter<TextData.Field>.follows(3, 1), "a field written after one that follows it")
        #expect(!FieldWriter<TextData.Field>.follows(2, 2), "a field written twice")
    }
}
