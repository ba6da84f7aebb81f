import FlowCore
import Foundation

extension FuzzTarget {
    /// `fuzz-canary`: a host's target (``host(name:registry:pages:)``: the same inputs, checks and
    /// mutator a team's own target has) whose registry holds the starter types and `canary`,
    /// on ``Canary/pages``, with the armed canary's page-level checks (6 to 8) made on each
    /// input's page. Built for `Fuzz/canaries.sh` and CI only; no host links it. Without
    /// `FLOW_CANARY` set it has nothing to find, and says so at start.
    public static let canary: FuzzTarget = {
        let registry = Canary.registering(in: Oracles.registry)
        let pages = Canary.pages.enumerated().map { OneBadWidget.basePage(source: "canary page \($0.offset)", text: $0.element) }
        let host = FuzzTarget.host(name: "canary", registry: registry, pages: pages)
        var target = FuzzTarget(
            name: "canary",
            summary: "the positive control: a widget type with eight planted crashes (FLOW_CANARY=1...8 arms one)",
            seedFolders: [], generatedSeeds: host.generatedSeeds,
            check: { input in
                let failures = host.check(input)
                if let armed = Canary.armed, armed.rawValue >= Canary.nestedInAccordion.rawValue,
                   let (bytes, options) = Canary.document(of: input, pages: pages),
                   let decoded = try? PageDecoder(registry: registry, options: options).decode(bytes) {
                    Canary.check(decoded)
                }
                return failures
            })
        target.mutator = host.mutator
        if Canary.armed == nil || ProcessInfo.processInfo.environment["FLOW_CANARY"] == nil {
            target.setupError = "no canary armed: set FLOW_CANARY to 1...8 (Fuzz/canaries.sh does)"
        }
        return target
    }()
}

extension Canary {
    /// The page an input of a host's target decodes, with its options (the format
    /// ``FuzzTarget/host(name:registry:pages:)`` documents); nil when it names no page.
    static func document(of input: [UInt8], pages: [OneBadWidget.BasePage]) -> ([UInt8], PageDecodingOptions)? {
        guard let first = input.first else { return (input, PageDecodingOptions()) }
        if first >= 0xC0 {
            guard let parsed = OneBadWidget.Input(Array(input.dropFirst()), pageCount: pages.count) else { return nil }
            let base = pages[parsed.page]
            guard !base.slots.isEmpty else { return nil }
            return (base.splice(base.slots[parsed.slot % base.slots.count], parsed.replacement), base.options(placeholders: parsed.placeholders))
        }
        if first >= 0x80 { return (Array(input.dropFirst()), Oracles.options(selector: first & 0x3F)) }
        return (input, PageDecodingOptions())
    }

    /// The canary target's pages: canaries in sections with every field benign, an accordion
    /// of starter widgets, and header and footer bars of starter widgets, every id distinct.
    /// What a fuzzer must change to find each canary is there to change; the values it must
    /// reach are not.
    public static let pages: [String] = [
        """
        {"page": {"id": "canary_shop",
          "header": {"widgets": [
            {"type": "title_block", "id": "head_title", "data": {"title": "Offers"}}]},
          "sections": [
            {"id": "main", "widgets": [
              {"type": "canary", "id": "c_one", "data": {"label": "Weekly deal", "style": "badge", "level": 40,
                                                        "code": "AB-17", "low": 1, "high": 5, "steps": [1, 2, 3]}},
              {"type": "canary", "id": "c_two", "data": {"style": "plain", "level": 90, "low": 10, "high": 20}},
              {"type": "accordion", "id": "faq", "data": {"header": "Questions", "items": [
                {"type": "title_block", "id": "faq_1", "data": {"title": "Delivery", "subtitle": "Next day"}},
                {"type": "title_block", "id": "faq_2", "data": {"title": "Returns"}}]}},
              {"type": "canary", "id": "c_three", "data": {"label": "Members", "code": "x9", "steps": [2, 4, 8, 16]}}]},
            {"id": "more", "widgets": [
              {"type": "title_block", "id": "more_title", "data": {"title": "More"}},
              {"type": "canary", "id": "c_four", "data": {"label": "Soon", "style": "outline", "level": 0, "steps": [5]}}]}],
          "footer": {"widgets": [
            {"type": "button_row", "id": "foot_buttons", "data": {"buttons": [{"title": "Checkout"}]}}]}}}
        """,
    ]

    /// A host's registry and pages with the control added (`FLOW_FUZZ_CANARY=1`): the canary
    /// type, and ``hostControlPage`` in place of the sixteenth page when there are sixteen
    /// (an input names its page with four bits).
    static func control(_ registry: WidgetRegistry, _ pages: [OneBadWidget.BasePage]) -> (WidgetRegistry, [OneBadWidget.BasePage]) {
        let page = OneBadWidget.basePage(source: "flow canary page", text: hostControlPage)
        return (registering(in: registry), Array(pages.prefix(15)) + [page])
    }

    /// The page a host's target gets with `FLOW_FUZZ_CANARY=1`: canaries beside a starter
    /// widget, their levels at the edges of the range. The control proves that mutated inputs
    /// reach a registered type's decoding, not how strong the mutator is (the canary table
    /// measures that, from values mid-range), so its crash is one edit away: any change of a
    /// digit of 100 upwards, or a sign before another number.
    static let hostControlPage = """
        {"page": {"id": "flow_canary", "sections": [{"id": "canaries", "widgets": [
          {"type": "canary", "id": "canary_a", "data": {"label": "Control", "style": "plain", "level": 100}},
          {"type": "canary", "id": "canary_b", "data": {"label": "Control", "level": 0, "low": 1, "high": 2}},
          {"type": "canary", "id": "canary_c", "data": {"level": 99}},
          {"type": "canary", "id": "canary_d", "data": {"level": 100}},
          {"type": "canary", "id": "canary_e", "data": {"level": 0}},
          {"type": "canary", "id": "canary_f", "data": {"level": 100}},
          {"type": "canary", "id": "canary_g", "data": {"level": 100}},
          {"type": "canary", "id": "canary_h", "data": {"level": 0}},
          {"type": "title_block", "id": "canary_title", "data": {"title": "Positive control"}}]}]}}
        """
}
