import Foundation
import Testing
import FlowCore
import FlowJSON
import FlowWidgets
import FlowFuzzTargets
@testable import FlowWorkloads

private func utf8(_ s: String) -> [UInt8] { Array(s.utf8) }

/// The json oracle's divergence list: each entry fires on exactly what it documents.
@Suite struct JSONOracleTests {
    static func divergence(_ bytes: [UInt8]) -> JSONDivergence? {
        let error = JSONOracleSupport.validationError(bytes)
        return JSONDivergence.explaining(bytes, flowAccepts: error == nil, flowError: error,
                                         foundationAccepts: JSONOracleSupport.foundationAccepts(bytes))
    }

    @Test func agreementNeedsNoDivergence() {
        for text in ["[1]", "{\"a\":[true,false,null]}", "\"x\"", "-0", "\u{FEFF}[1]", "[\"\\uD800\"]", "[01]", "[1,,]"] {
            #expect(Self.divergence(utf8(text)) == nil, "\(text)")
            #expect(Oracles.json(utf8(text)).isEmpty, "\(text): \(Oracles.json(utf8(text)))")
        }
    }

    @Test func trailingCommasAreTheListedDivergence() {
        for text in ["[1,]", "{\"a\":1,}", "[[1,],{\"b\":[2 ,\n]\t,}]"] {
            #expect(Self.divergence(utf8(text)) == .trailingComma, "\(text)")
            #expect(Oracles.json(utf8(text)).isEmpty, "\(text)")
        }
        // Commas inside strings stay; only structural ones go.
        #expect(JSONDivergence.removingTrailingCommas(utf8("[\",]\",\"\\\",}\",]")) == utf8("[\",]\",\"\\\",}\"]"))
    }

    @Test func hugeNumbersAreTheListedDivergence() {
        for text in ["1e400", "[-1E400]", "{\"a\":[1,\(String(repeating: "9", count: 400))]}"] {
            #expect(Self.divergence(utf8(text)) == .numberBeyondDouble, "\(text)")
            #expect(Oracles.json(utf8(text)).isEmpty, "\(text)")
        }
        #expect(JSONDivergence.replacingInfiniteNumbers(utf8("[1e400,1e-400,2]")) == utf8("[0,1e-400,2]"))
        #expect(JSONDivergence.replacingInfiniteNumbers(utf8("[1e300]")) == nil)
    }

    @Test func otherEncodingsAreTheListedDivergence() {
        let inputs: [[UInt8]] = [[0x31, 0x00], [0x5B, 0x00, 0x31, 0x00, 0x5D, 0x00], [0xFE, 0xFF, 0x00, 0x5B, 0x00, 0x5D]]
        for bytes in inputs {
            #expect(JSONOracleSupport.foundationAccepts(bytes), "\(bytes)")
            #expect(Self.divergence(bytes) == .nonUTF8Encoding, "\(bytes)")
            #expect(Oracles.json(bytes).isEmpty, "\(bytes)")
        }
    }

    @Test func anUnlistedDisagreementIsNotExcused() {
        // A made-up verdict pair the lists do not cover: FlowJSON rejecting plain `[1]`.
        #expect(JSONDivergence.explaining(utf8("[1]"), flowAccepts: false, flowError: nil, foundationAccepts: true) == nil)
        // Or accepting an ordinary invalid document.
        #expect(JSONDivergence.explaining(utf8("[1 2]"), flowAccepts: true, flowError: nil, foundationAccepts: false) == nil)
    }
}

/// The page target's input format.
@Suite struct PageTargetTests {
    @Test func aSelectorByteSelectsOptions() {
        let bare = FuzzPages.all.first { $0.bareRoot }!
        #expect(FuzzTarget.page.check([0x82] + utf8(bare.text)).isEmpty)
        #expect(FuzzTarget.page.check(utf8(bare.text)).isEmpty)  // fails as a whole: nothing to check
        #expect(FuzzTarget.page.check([]).isEmpty)
        #expect(FuzzTarget.page.check([0x80]).isEmpty)
    }
}

/// The one-bad-widget oracle on every fuzz page, and on pages built to break it.
@Suite struct OneBadWidgetTests {
    @Test func everyFuzzPageDecodesAndHasSlots() throws {
        #expect(FuzzPages.all.count == 16, "the page index is four bits: keep 16 pages (append-only)")
        for (i, base) in OneBadWidget.pages.enumerated() {
            let decoded = try PageDecoder(registry: Oracles.registry, options: base.options(placeholders: false)).decode(base.bytes)
            #expect(!base.slots.isEmpty, "\(base.source): no slot")
            #expect(decoded.page.widgetCount > 0 || base.elements.isEmpty, "\(base.source)")
            // Every element's path is one the decoder would name it by.
            for e in base.elements {
                #expect(e.path.hasPrefix("page."), "\(base.source) \(e.path)")
            }
            _ = i
        }
    }

    /// The identity replacement (each slot holding what it holds) changes nothing, for every
    /// slot of every page, with and without placeholders.
    @Test func identityReplacementsPass() {
        for (p, base) in OneBadWidget.pages.enumerated() {
            for (s, slot) in base.slots.enumerated() {
                guard let text = base.current(slot) else { continue }
                for placeholders in [false, true] {
                    let input = OneBadWidget.Input(page: p, slot: s, placeholders: placeholders, replacement: text)
                    let failures = Oracles.oneBadWidget(input.bytes)
                    #expect(failures.isEmpty, "\(base.source) slot \(s): \(failures)")
                }
            }
        }
    }

    /// Deterministic garbage in every slot of every page: random JSON shaped like widgets
    /// (ids chosen to collide with the pages' own), and plain random bytes.
    @Test func deterministicGarbagePasses() {
        var rng = SeededRandom(seed: 20_240_611)
        for (p, base) in OneBadWidget.pages.enumerated() {
            for s in base.slots.indices {
                let replacement = rng.chance(0.15) ? randomBytes(&rng) : Array(randomValue(&rng, depth: 0).utf8)
                let input = OneBadWidget.Input(page: p, slot: s, placeholders: rng.chance(0.3),
                                               alsoPageOracle: rng.chance(0.05), replacement: replacement)
                let failures = Oracles.oneBadWidget(input.bytes)
                #expect(failures.isEmpty, "\(base.source) slot \(s), replacement \(String(decoding: replacement, as: UTF8.self)): \(failures)")
            }
        }
    }

    @Test func rootsStripGeneratedSuffixesOnly() {
        #expect(OneBadWidget.root("x") == "x")
        #expect(OneBadWidget.root("x#2") == "x")
        #expect(OneBadWidget.root("x#2#2") == "x")
        #expect(OneBadWidget.root("a#5#13") == "a")
        #expect(OneBadWidget.root("x#1") == "x#1")
        #expect(OneBadWidget.root("x#02") == "x#02")
        #expect(OneBadWidget.root("x#") == "x#")
        #expect(OneBadWidget.root("#2") == "")
    }

    /// The comparison catches what it must: a widget renamed outside the replacement's
    /// family, a widget changed, a widget lost.
    @Test func theComparisonCatchesTampering() throws {
        let p = OneBadWidget.pages.firstIndex { $0.source.hasSuffix("collisions.json") }!
        let base = OneBadWidget.pages[p]
        let e = base.elements.firstIndex { $0.path == "page.sections.0.widgets.3" }!
        let marker = Array(#"{"type":"separator","id":"~one-bad-widget marker~"}"#.utf8)
        let baseline = try PageDecoder(registry: Oracles.registry, options: base.options(placeholders: false))
            .decode(base.splice(.widget(element: e), marker))
        #expect(OneBadWidget.compare(baseline: baseline, spliced: baseline, element: base.elements[e]).isEmpty)

        var renamed = baseline
        renamed.page.footer!.widgets[1].id = "someone_else"
        #expect(!OneBadWidget.compare(baseline: baseline, spliced: renamed, element: base.elements[e]).isEmpty)

        var changed = baseline
        changed.page.header!.widgets[0].replaceContent(with: Widget(id: "x", type: "banner", placeholder: .unknownType))
        #expect(!OneBadWidget.compare(baseline: baseline, spliced: changed, element: base.elements[e]).isEmpty)

        var lost = baseline
        lost.page.footer!.widgets.removeLast()
        #expect(!OneBadWidget.compare(baseline: baseline, spliced: lost, element: base.elements[e]).isEmpty)

        var moved = baseline
        let last = moved.page.footer!.widgets.removeLast()
        moved.page.header!.widgets.append(last)
        #expect(!OneBadWidget.compare(baseline: baseline, spliced: moved, element: base.elements[e]).isEmpty)
    }

    /// A replacement asking for an id that a later widget holds renames that widget, and the
    /// oracle accepts exactly that.
    @Test func aCollidingReplacementMayRenameItsFamilyOnly() {
        let p = OneBadWidget.pages.firstIndex { $0.source.hasSuffix("collisions.json") }!
        let base = OneBadWidget.pages[p]
        let s = base.slots.firstIndex { slot in
            if case .widget(let e) = slot { return base.elements[e].path == "page.header.widgets.1" }
            return false
        }!
        for id in ["card", "x", "x#2", "x#2#2", "title_block@page.sections.0.widgets.3", "fresh"] {
            let text = #"{"type":"title_block","id":"\#(id)","data":{"title":"new"}}"#
            let failures = Oracles.oneBadWidget(OneBadWidget.Input(page: p, slot: s, replacement: utf8(text)).bytes)
            #expect(failures.isEmpty, "\(id): \(failures)")
        }
    }
}

// MARK: Deterministic garbage

private let idPool = ["x", "x#2", "x#3", "card", "acc", "", "title_block@page.sections.0.widgets.3", "product_1", "sec_main",
                      "fresh", "x#2#2", "~one-bad-widget marker~"]
private let typePool = FlowWidgets.types.map(\.name) + ["hologram", ""]

private func randomString(_ rng: inout SeededRandom) -> String {
    switch rng.below(6) {
    case 0: return rng.pick(idPool)
    case 1: return rng.pick(typePool)
    case 2: return "\\uD800"
    case 3: return "caf\\u00e9 \\n"
    case 4: return "https://img.example/\(rng.below(100)).png"
    default: return String(repeating: "a", count: rng.below(12))
    }
}

private func randomValue(_ rng: inout SeededRandom, depth: Int) -> String {
    let scalars = ["null", "true", "false", "0", "-1", "2.5", "1e400", "1e-400", "9007199254740993", "12"]
    let pick = depth > 3 ? rng.below(3) : rng.below(8)
    switch pick {
    case 0: return rng.pick(scalars)
    case 1: return "\"\(randomString(&rng))\""
    case 2: return rng.chance(0.5) ? "{}" : "[]"
    case 3, 4, 5:
        // Widget-shaped object.
        var members: [String] = []
        if rng.chance(0.9) { members.append("\"type\":\"\(rng.pick(typePool))\"") }
        if rng.chance(0.8) { members.append("\"id\":\(rng.chance(0.9) ? "\"\(rng.pick(idPool))\"" : rng.pick(scalars))") }
        if rng.chance(0.7) { members.append("\"data\":\(randomData(&rng, depth: depth + 1))") }
        if rng.chance(0.3) { members.append("\"layout\":\(randomValue(&rng, depth: depth + 1))") }
        if rng.chance(0.3) { members.append("\"actions\":{\"tap\":\(randomValue(&rng, depth: depth + 1))}") }
        if rng.chance(0.2) { members.append("\"tracking\":\(randomValue(&rng, depth: depth + 1))") }
        if rng.chance(0.1), let first = members.first { members.append(first) }  // a duplicate key
        return "{" + members.shuffled(using: &rng).joined(separator: ",") + "}"
    case 6:
        return "[" + (0..<rng.below(4)).map { _ in randomValue(&rng, depth: depth + 1) }.joined(separator: ",") + "]"
    default:
        return "{\"\(randomString(&rng))\":\(randomValue(&rng, depth: depth + 1))}"
    }
}

private func randomData(_ rng: inout SeededRandom, depth: Int) -> String {
    let keys = ["title", "subtitle", "image", "buttons", "tags", "header", "items", "min", "max", "initial", "text", "url"]
    var members: [String] = []
    for _ in 0..<rng.below(4) {
        let key = rng.pick(keys)
        let value: String
        switch key {
        case "items": value = "[" + (0..<rng.below(3)).map { _ in randomValue(&rng, depth: depth + 1) }.joined(separator: ",") + "]"
        case "buttons", "tags": value = "[{\"title\":\"b\",\"text\":\"t\"}]"
        default: value = rng.chance(0.7) ? "\"\(randomString(&rng))\"" : randomValue(&rng, depth: depth + 1)
        }
        members.append("\"\(key)\":\(value)")
    }
    return "{" + members.joined(separator: ",") + "}"
}

private func randomBytes(_ rng: inout SeededRandom) -> [UInt8] {
    let n = rng.below(24)
    return (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
}

/// The page oracle's checks of a parallel decode's timeline and of widgets decoded alone:
/// each passes what the library gives and fires on a figure or a decode that is off.
@Suite struct PageOracleCheckTests {
    static let text = #"{"page": {"sections": [{"id": "a", "widgets": [{"type": "separator", "id": "sep"}, {"type": "hologram"}]}, {"widgets": [{"type": "title_block", "data": {"title": "T"}}]}]}}"#

    @Test func theTimelineCheckCatchesAFigureThatIsOff() throws {
        let decoded = try PageDecoder(registry: Oracles.registry).decode(utf8(Self.text))
        #expect(decoded.page.sections.count == 2 && decoded.diagnostics.count == 1)
        let page = PipelineTimeline.Span(name: "page", thread: 1, start: 0, end: 10, args: [.init("sections", 2), .init("diagnostics", 1)])
        #expect(Oracles.timelineAgreement([page], decoded: decoded).isEmpty)
        var miscounted = page
        miscounted.args[1].value = 0
        #expect(!Oracles.timelineAgreement([miscounted], decoded: decoded).isEmpty)
        #expect(!Oracles.timelineAgreement([page, page], decoded: decoded).isEmpty)
        #expect(!Oracles.timelineAgreement([], decoded: decoded).isEmpty)
        let stray = PipelineTimeline.Span(name: "stretch", thread: 1, start: 0, end: 5, args: [.init("sections", 2)])
        #expect(!Oracles.timelineAgreement([page, stray], decoded: decoded).isEmpty)
    }

    @Test func theWidgetRoundTripCatchesADecoderThatDisagrees() throws {
        let decoder = PageDecoder(registry: Oracles.registry)
        let decoded = try decoder.decode(utf8(Self.text))
        #expect(Oracles.widgetRoundTrips(decoded, decoder: decoder).isEmpty)
        // Without the starter types the widgets decode alone as nothing (unknown types).
        #expect(!Oracles.widgetRoundTrips(decoded, decoder: PageDecoder(registry: WidgetRegistry())).isEmpty)
        // A diagnostic the page recorded inside a widget must come back with it.
        let claimed = DecodedPage(page: decoded.page, diagnostics: decoded.diagnostics
            + [Diagnostic(kind: .invalidField, path: "page.sections.0.widgets.0.layout", type: "separator", message: "made up")])
        #expect(!Oracles.widgetRoundTrips(claimed, decoder: decoder).isEmpty)
    }
}
