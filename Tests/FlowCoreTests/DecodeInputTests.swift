import Foundation
import Testing
import FlowCore
import FlowWidgets

/// `PageDecoder.decode` takes the containers bytes come in; each gives the page an array gives.
@Suite struct DecodeInputTests {
    let decoder = PageDecoder(registry: starterRegistry)
    let text = #"{"page": {"id": "p", "sections": [{"widgets": [{"type": "separator", "id": "a"}, {"type": "hologram"}]}]}}"#

    @Test func dataSlicesAndOtherCollectionsDecodeAsAnArrayDoes() throws {
        let expected = try decoder.decode(Array(text.utf8))
        let padded = Array("xx".utf8) + Array(text.utf8) + Array("yy".utf8)
        let candidates: [(String, DecodedPage)] = [
            ("Data", try decoder.decode(Data(text.utf8))),
            ("Data slice", try decoder.decode(Data(padded)[2..<(padded.count - 2)])),
            ("ArraySlice", try decoder.decode(padded[2..<(padded.count - 2)])),
            ("ContiguousArray", try decoder.decode(ContiguousArray(text.utf8))),
            ("String.UTF8View", try decoder.decode(text.utf8)),
            ("non-contiguous", try decoder.decode(text.utf8.lazy.map { $0 })),
        ]
        for (name, decoded) in candidates {
            #expect(decoded.page == expected.page, "\(name)")
            #expect(decoded.diagnostics == expected.diagnostics, "\(name)")
        }
    }

    @Test func aSyntaxErrorIsReportedTheSameWayFromData() {
        for input in [Data("{\"page\": ".utf8)] {
            #expect(throws: PageDecodingError.self) { try decoder.decode(input) }
            do { _ = try decoder.decode(input) } catch {
                guard case .invalidJSON = error.reason else { Issue.record("expected invalidJSON, got \(error)"); continue }
                #expect(error.offset == 9)
            }
        }
    }
}
