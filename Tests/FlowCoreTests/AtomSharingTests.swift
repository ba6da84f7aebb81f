import Testing
@testable import FlowCore
import FlowJSON
import FlowWidgets

/// Atoms whose out-of-line fields are spelled alike share one box of them (`ExtrasInterner`),
/// and it never shows: every atom holds exactly what its own text says, on both paths.
@Suite struct AtomSharingTests {
    /// Sharing on pages of any size (by default it starts at 64 KiB).
    static let sharingAlways: PageDecodingOptions = {
        var options = PageDecodingOptions()
        options.sharingMinimumBytes = 0
        return options
    }()

    /// The titles of title blocks whose `title` values are `titles`, decoded on both paths
    /// (which must agree, diagnostics included).
    func titles(_ titles: [String]) throws -> (fast: [TextData?], diagnostics: [String]) {
        let elements = titles.map { #"{"type": "title_block", "data": {"title": \#($0)}}"# }
        let input = bytes(#"{"page": {"id": "p", "sections": [{"widgets": ["# + elements.joined(separator: ",") + "]}]}}")
        let fast = try PageDecoder(registry: starterRegistry, options: Self.sharingAlways).decode(input)
        let reference = try ReferencePageDecoder(registry: starterRegistry).decode(input)
        #expect(fast.page == reference.page)
        #expect(keys(fast.diagnostics) == keys(reference.diagnostics))
        let models = fast.page.sections.first?.widgets.map { $0.model(as: TitleBlock.self)?.title } ?? []
        return (models, keys(fast.diagnostics))
    }

    @Test func atomsSpelledAlikeShareTheirStyle() throws {
        let t = try titles([
            #"{"text": "A", "font": {"size": 15, "weight": "semibold"}, "max_lines": 2}"#,
            #"{"text": "Something longer", "font": {"size": 15, "weight": "semibold"}, "max_lines": 2}"#,
            #"{"font": {"size": 15, "weight": "semibold"}, "text": "B", "max_lines": 2}"#,    // another order
            #"{"text": "C", "font": {"size": 15, "weight": "semibold"}, "max_lines": 3}"#,
            #"{"text": "D"}"#,
        ]).fast
        let style = try #require(t[0]?.style)
        #expect(t[1]?.style === style, "only the text differs")
        #expect(t[1]?.text == "Something longer")
        #expect(t[2]?.style !== style, "the same fields in another order are not shared")
        #expect(t[2]?.font == t[0]?.font && t[2]?.maxLines == 2)
        #expect(t[3]?.style !== style && t[3]?.maxLines == 3)
        #expect(t[4]?.style == nil)
    }

    /// `==` would share these (canonically equivalent strings, 0 and -0); their bytes differ,
    /// so each atom keeps exactly what it was sent.
    @Test func equalValuesSpelledOtherwiseAreNotShared() throws {
        let t = try titles([
            #"{"text": "A", "alignment": "caf\u00e9", "font": {"size": 0}}"#,
            #"{"text": "B", "alignment": "cafe\u0301", "font": {"size": 0}}"#,
            #"{"text": "C", "alignment": "caf\u00e9", "font": {"size": -0.0}}"#,
        ]).fast
        #expect(t[0]?.alignment == t[1]?.alignment, "equal as strings")
        #expect(Array(t[0]!.alignment!.unicodeScalars.map(\.value)) == [0x63, 0x61, 0x66, 0xE9])
        #expect(Array(t[1]!.alignment!.unicodeScalars.map(\.value)) == [0x63, 0x61, 0x66, 0x65, 0x301])
        #expect(t[1]?.style !== t[0]?.style)
        #expect(t[2]?.style !== t[0]?.style)
        #expect(t[2]?.font?.size?.sign == .minus, "-0 stays -0")
        #expect(t[0]?.font?.size?.sign == .plus)
    }

    /// A failure is not remembered: each atom spelled the same bad way fails on its own,
    /// with its own diagnostic, as on the reference path.
    @Test func failuresAreNotRemembered() throws {
        let (t, diagnostics) = try titles([
            #"{"text": "A", "max_lines": "two"}"#,
            #"{"text": "B", "max_lines": "two"}"#,
            #"{"text": "C", "max_lines": 2}"#,
        ])
        #expect(t.count == 1 && t[0]?.text == "C")
        #expect(diagnostics.count == 2)
    }

    /// A page of atoms that all differ shares nothing and decodes every one, and an atom
    /// spelled like one seen long before still decodes right (the rings forget old entries).
    @Test func manyDifferentSpellingsStillDecode() throws {
        let n = ExtrasInterner.capacity * 4
        let t = try titles((0..<n).map { #"{"text": "T", "max_lines": \#($0)}"# } + [#"{"text": "U", "max_lines": 0}"#]).fast
        #expect(t.map { $0?.maxLines } == (0..<n).map { $0 } + [0])
        #expect(Set(t.compactMap { $0?.style.map(ObjectIdentifier.init) }).count == n + 1, "none shared")
    }

    @Test func smallPagesDoNotShare() throws {
        let title = #"{"type": "title_block", "data": {"title": {"text": "A", "max_lines": 2}}}"#
        let input = bytes(#"{"page": {"id": "p", "sections": [{"widgets": [\#(title), \#(title)]}]}}"#)
        #expect(input.count < PageDecodingOptions().sharingMinimumBytes)
        let t = try PageDecoder(registry: starterRegistry).decode(input).page.sections[0].widgets.map { $0.model(as: TitleBlock.self)?.title }
        #expect(t[0]?.style != nil && t[0]?.style !== t[1]?.style)
        #expect(t[0] == t[1])
    }

    @Test func imagesShareTheirTreatment() throws {
        let card = { (url: String) in
            #"{"type": "image_text_card", "data": {"title": "T", "image": {"url": "\#(url)", "aspect_ratio": 1.5, "scale_mode": "fill"}}}"#
        }
        let input = bytes(#"{"page": {"id": "p", "sections": [{"widgets": [\#(card("a.jpg")), \#(card("b.jpg"))]}]}}"#)
        let page = try PageDecoder(registry: starterRegistry, options: Self.sharingAlways).decode(input).page
        let images = page.sections[0].widgets.compactMap { $0.model(as: ImageTextCard.self)?.image }
        #expect(images.map(\.url) == ["a.jpg", "b.jpg"])
        #expect(images[0].extras != nil && images[0].extras === images[1].extras)
        #expect(images[1].aspectRatio == 1.5 && images[1].scaleMode == "fill")
        #expect(try ReferencePageDecoder(registry: starterRegistry).decode(input).page == page)
    }
}
