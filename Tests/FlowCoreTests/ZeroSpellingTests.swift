import Foundation
import Testing
import FlowCore
import FlowJSON
import FlowWidgets
import FlowWorkloads

/// The page contract, "Numbers": a number whose value is exactly zero is zero however it is spelled. The fast
/// path reads `0e5` in a Double field as 0; Foundation's `JSONDecoder` (the reference path)
/// refuses it, and the agreement checks know that divergence exactly.
@Suite struct ZeroSpellingTests {
    let page = #"{"page": {"sections": [{"widgets": [{"type": "separator", "id": "a", "data": {"thickness": 0e5}}, {"type": "separator", "id": "b", "data": {"thickness": -0.00E9}}, {"type": "separator", "id": "c", "data": {"thickness": 1e-400}}]}]}}"#

    @Test func theFastPathReadsEveryZeroAsZero() throws {
        let decoded = try PageDecoder(registry: starterRegistry).decode(Array(page.utf8))
        let thickness = decoded.page.sections[0].widgets.map { $0.content.model(as: SeparatorData.self)?.thickness }
        #expect(thickness.count == 2)
        #expect(thickness[0] == 0 && thickness[0]?.sign == .plus)
        #expect(thickness[1] == 0 && thickness[1]?.sign == .minus)
        #expect(decoded.diagnostics.map(\.path) == ["page.sections.0.widgets.2"], "1e-400 underflows: not zero, refused")
    }

    @Test func theReferencePathKeepsFoundationsAnswerAndTheOracleKnowsIt() throws {
        // Without the underflow, which Foundation's Decimal cannot hold (the reference path
        // does not take such documents at all).
        let page = self.page.replacingOccurrences(of: #", {"type": "separator", "id": "c", "data": {"thickness": 1e-400}}"#, with: "")
        let bytes = Array(page.utf8)
        #expect(ReferencePageDecoder.accepts(bytes))
        let reference = try ReferencePageDecoder(registry: starterRegistry).decode(bytes)
        #expect(reference.page.sections[0].widgets.map(\.id) == [], "Foundation refuses 0e5 and -0.00E9 as Doubles")

        let respelled = try #require(Oracles.zerosRespelledForFoundation(bytes))
        #expect(respelled.count == bytes.count)
        #expect(String(decoding: respelled, as: UTF8.self) == page.replacingOccurrences(of: "0e5", with: "0e0").replacingOccurrences(of: "-0.00E9", with: "-0.00E0"))
        #expect(Oracles.zerosRespelledForFoundation(respelled) == nil, "a fixed point")
        #expect(Oracles.page(bytes).isEmpty, "\(Oracles.page(bytes))")
        #expect(Oracles.zerosRespelledForFoundation(Array(#"{"a": [0e10, 0.0e5, 0, -0.0, 1e5]}"#.utf8)) == nil, "zeros Foundation takes, and other numbers, stay")
    }

    @Test func theCorpusPageDecodesItsZerosOnBothPathsAlike() throws {
        let url = FuzzTargets.defaultRepositoryRoot.appendingPathComponent("Corpus/pages/zero_spellings.json")
        let bytes = [UInt8](try Data(contentsOf: url))
        let decoded = try PageDecoder(registry: starterRegistry).decode(bytes)
        #expect(decoded.page.sections[0].widgets.map(\.id) == ["zero_e5", "zero_E9", "zero_point_e5", "minus_zero_e3", "zero_e10", "zero_plain", "stepper_zero_e5"])
        #expect(decoded.diagnostics.isEmpty)
        #expect(ReferencePageDecoder.accepts(bytes), "the agreement check runs on it")
        #expect(Oracles.zerosRespelledForFoundation(bytes) != nil)
        #expect(Oracles.page(bytes).isEmpty, "\(Oracles.page(bytes))")
    }
}
