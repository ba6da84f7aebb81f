import Foundation
import Testing
import FlowCore
import FlowFuzzTargets
@testable import FlowWorkloads

/// The decodable target: a host's plain `Decodable` types through TapeDecoder, held to
/// Foundation's `JSONDecoder` on each widget's data.
@Suite struct DecodableOracleTests {
    static let seeds: [(name: String, bytes: [UInt8])] = (try? FuzzTarget.decodable.seeds()) ?? []

    static func decode(_ bytes: [UInt8]) throws -> DecodedPage {
        try PageDecoder(registry: DecodableContent.registry, options: PageDecodingOptions(placeholders: true)).decode(bytes)
    }

    /// Its seeds replay green, and they exercise the comparison: each type decodes on some
    /// widget and fails on another (a seed set whose widgets never decode would compare
    /// nothing but failures).
    @Test func seedsReplayGreenAndDecodeEveryType() throws {
        let seeds = try FuzzTarget.decodable.seeds()
        #expect(seeds.count >= 6, "Corpus/decodable holds the seed pages")
        var decoded: Set<String> = [], rejected: Set<String> = []
        for seed in seeds {
            #expect(Oracles.decodable(seed.bytes) == [], "\(seed.name)")
            for widget in try Self.decode(seed.bytes).page.allWidgets where DecodableContent.agreement[widget.type] != nil {
                if case .model = widget.content { decoded.insert(widget.type) } else { rejected.insert(widget.type) }
            }
        }
        #expect(decoded == Set(DecodableContent.agreement.keys))
        #expect(rejected == Set(DecodableContent.agreement.keys))
    }

    /// A planted disagreement: the content the page holds set against other data, as if
    /// TapeDecoder had read the widget wrongly. Each way it can differ is caught.
    @Test func theComparisonCatchesADisagreement() throws {
        let page = try Self.decode(try #require(Self.seeds.first { $0.name == "decodable_shop.json" }).bytes).page
        let lamp = try #require(page.allWidgets.first { $0.id == "lamp" })
        let mug = try #require(page.allWidgets.first { $0.id == "mug" })
        let agree = try #require(DecodableContent.agreement["product"])
        #expect(agree(lamp.data.jsonBytes, lamp.content) == nil)
        let differs = agree(mug.data.jsonBytes, lamp.content)
        #expect(differs?.hasPrefix("TapeDecoder gives") == true, "\(differs ?? "nil")")
        let decodesMore = agree(Array(#"{"sku": 1}"#.utf8), lamp.content)
        #expect(decodesMore?.hasPrefix("TapeDecoder decodes what JSONDecoder rejects") == true, "\(decodesMore ?? "nil")")
        let rejectsMore = agree(lamp.data.jsonBytes, .placeholder(.malformedPayload))
        #expect(rejectsMore?.hasPrefix("TapeDecoder rejects what JSONDecoder decodes") == true, "\(rejectsMore ?? "nil")")
        #expect(agree(lamp.data.jsonBytes, .placeholder(.unknownType)) == nil, "a placeholder for another reason is not compared")
    }

    /// The known divergence is respelled, nothing else: `0e5` is zero to the fast path, and
    /// JSONDecoder refuses it as a Double.
    @Test func zerosSpelledAsFoundationRefusesAgree() {
        let page = #"{"page": {"sections": [{"widgets": [{"type": "product", "data": {"sku": "Z", "quantity": 0, "price": 0e5, "in_stock": true, "tags": [], "tier": "gold", "stock": {}}}]}]}}"#
        #expect(Oracles.decodable(Array(page.utf8)) == [])
    }

    @Test func aMissingSeedFolderThrows() {
        let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("flow-no-such-root-\(UInt64.random(in: 0...UInt64.max))")
        #expect(throws: FuzzTarget.MissingFolder.self) { try FuzzTarget.decodable.seeds(repositoryRoot: nowhere) }
    }
}
