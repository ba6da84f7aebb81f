import FlowCore
import Foundation
import Testing
@testable import FlowWorkloads

/// The planted crashes of the `canary` widget type: each fires on a page of its kind, through
/// the real decoder, and none fires on the pages the canary target starts from. (The crash
/// itself is `abort()` in the armed process; here the checks behind it are called.)
@Suite struct CanaryTests {
    static let registry = Canary.registering(in: Oracles.registry)

    static func decode(_ text: String) throws -> DecodedPage {
        try PageDecoder(registry: registry).decode(Array(text.utf8))
    }

    /// A page whose one section holds `widgets` (JSON text).
    static func page(_ widgets: String, header: String? = nil) -> String {
        #"{"page": {"id": "p", "# + (header.map { #""header": {"widgets": [\#($0)]}, "# } ?? "")
            + #""sections": [{"id": "s", "widgets": [\#(widgets)]}]}}"#
    }

    /// Every canary a page breaks, its widgets' data and its layout alike.
    static func violations(_ text: String) throws -> Set<Canary> {
        let decoded = try decode(text)
        var found = Set(Canary.violations(in: decoded))
        decoded.page.forEachWidget { w in
            guard w.type == Canary.typeName, let content = w.model(as: CanaryContent.self) else { return }
            found.formUnion(Canary.violations(in: content))
        }
        return found
    }

    static func canary(_ data: String, id: String = "c") -> String { #"{"type": "canary", "id": "\#(id)", "data": {\#(data)}}"# }

    @Test func eachCanaryFiresOnItsKindOfPage() throws {
        let cases: [(Canary, String)] = [
            (.numberOutOfRange, Self.page(Self.canary(#""level": 101"#))),
            (.numberOutOfRange, Self.page(Self.canary(#""level": -1"#))),
            (.stringShape, Self.page(Self.canary(#""code": "20261207""#))),
            (.fieldRelation, Self.page(Self.canary(#""low": 6, "high": 5"#))),
            (.absentCompanion, Self.page(Self.canary(#""style": "badge""#))),
            (.arrayOrder, Self.page(Self.canary(#""steps": [9, 7, 3, 1]"#))),
            (.nestedInAccordion, Self.page(#"{"type": "accordion", "id": "a", "data": {"header": "h", "items": [\#(Self.canary(#""label": "x""#))]}}"#)),
            (.inPageBar, Self.page(#"{"type": "title_block", "id": "t", "data": {"title": "x"}}"#, header: Self.canary(#""label": "x""#))),
            (.duplicateID, Self.page(Self.canary(#""label": "x""#, id: "same") + ", " + Self.canary(#""label": "y""#, id: "same"))),
        ]
        for (canary, text) in cases {
            #expect(try Self.violations(text) == [canary], "\(canary.name): \(text)")
        }
    }

    /// Just inside each condition, nothing fires: the shapes are what must be found.
    @Test func theNearMissesDoNotFire() throws {
        let near = [
            Self.canary(#""level": 100, "code": "2026120", "low": 5, "high": 5, "style": "badge", "label": "x", "steps": [9, 7, 3]"#, id: "a"),
            Self.canary(#""level": 0, "code": "2026120a", "steps": [9, 7, 7, 1], "style": "plain""#, id: "b"),
            #"{"type": "accordion", "id": "acc", "data": {"header": "h", "items": [{"type": "title_block", "id": "t", "data": {"title": "x"}}]}}"#,
        ].joined(separator: ", ")
        #expect(try Self.violations(Self.page(near)).isEmpty)
    }

    /// The canary target's pages and a host's control page are clean, and decode through the
    /// canary registry with their canaries in place.
    @Test func theStartingPagesBreakNoCanary() throws {
        for text in Canary.pages + [Canary.hostControlPage] {
            #expect(try Self.violations(text).isEmpty)
            var canaries = 0
            try Self.decode(text).page.forEachWidget { if $0.type == Canary.typeName { canaries += 1 } }
            #expect(canaries >= 2)
        }
    }

    /// The canary target's mutator reaches each widget-data canary (1 to 5) from the
    /// target's page: chains of up to five mutations, as libFuzzer applies them to one input,
    /// counting mutations until each canary's shape first appears. Of libFuzzer's feedback
    /// only the step canary 2 needs is modelled: a code of eight characters runs the
    /// character check, new coverage, so that input is kept and mutated further (a digit
    /// recast then finds the canary). The times under libFuzzer are Fuzz/canaries.sh's.
    @Test func theMutatorReachesEachDataCanary() throws {
        let mutator = try #require(FuzzTarget.canary.mutator)
        let pages = Canary.pages.map { OneBadWidget.basePage(source: "p", text: $0) }
        var corpus = [Array(Canary.pages[0].utf8)]
        var rng = SeededRandom(seed: 50)
        var firstSeen: [Canary: Int] = [:]
        let wanted: Set<Canary> = [.numberOutOfRange, .stringShape, .fieldRelation, .absentCompanion, .arrayOrder]
        var mutations = 0
        while mutations < 8_000, Set(firstSeen.keys) != wanted {
            var input = rng.pick(corpus)
            for _ in 0..<5 {
                input = mutator.mutate(input, maxSize: 4096, seed: UInt32(truncatingIfNeeded: rng.next()), bytes: { $0 }).output
                mutations += 1
                guard let (bytes, options) = Canary.document(of: input, pages: pages),
                      let decoded = try? PageDecoder(registry: Self.registry, options: options).decode(bytes) else { continue }
                var kept = false
                decoded.page.forEachWidget { w in
                    guard w.type == Canary.typeName, let content = w.model(as: CanaryContent.self) else { return }
                    for canary in Canary.violations(in: content) where firstSeen[canary] == nil { firstSeen[canary] = mutations }
                    if content.code?.count == 8, corpus.count == 1 { kept = true }
                }
                if kept { corpus.append(input) }
            }
        }
        print("mutations until each data canary's shape first appeared: \(firstSeen.map { ($0.key.rawValue, $0.value) }.sorted { $0.0 < $1.0 })")
        #expect(Set(firstSeen.keys) == wanted, "not reached in \(mutations) mutations: \(wanted.subtracting(firstSeen.keys).map(\.name))")
    }

    @Test func theArmedCanaryComesFromTheEnvironment() {
        #expect(Canary.armed(in: [:]) == nil)
        #expect(Canary.armed(in: ["FLOW_CANARY": "3"]) == .fieldRelation)
        #expect(Canary.armed(in: ["FLOW_CANARY": "9"]) == nil)
        #expect(Canary.armed(in: ["FLOW_FUZZ_CANARY": "1"]) == .numberOutOfRange)
        #expect(Canary.allCases.map(\.rawValue) == Array(1...8))
    }

    /// Inputs in the host target's three shapes name the page the canary checks look at.
    @Test func anInputsDocumentIsThePageItDecodes() throws {
        let pages = Canary.pages.map { OneBadWidget.basePage(source: "p", text: $0) }
        let raw = Array(Canary.pages[0].utf8)
        #expect(Canary.document(of: raw, pages: pages)?.0 == raw)
        #expect(Canary.document(of: [0x81] + raw, pages: pages)?.1.placeholders == true)
        let spliced = try #require(Canary.document(of: [0xC0, 0x00, 0x00, 0x00] + Array("null".utf8), pages: pages))
        #expect(spliced.0 != raw && spliced.0.count < raw.count + 8)
    }
}
