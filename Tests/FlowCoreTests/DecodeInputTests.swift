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

    /// The same containers through every other entry point that takes a document.
    @Test func mutationsNextPagesAndTheReferencePathTakeEveryContainerToo() throws {
        let response = #"{"mutations": [{"kind": "remove_widget", "id": "a"}], "toast": {"message": "done"}}"#
        let next = #"{"page": {"sections": [{"widgets": [{"type": "separator", "id": "n"}]}]}}"#
        func containers(_ text: String) -> [(String, any Collection<UInt8>)] {
            let padded = Array("xx".utf8) + Array(text.utf8) + Array("yy".utf8)
            return [("Data", Data(text.utf8)), ("Data slice", Data(padded)[2..<(padded.count - 2)]),
                    ("ArraySlice", padded[2..<(padded.count - 2)]), ("ContiguousArray", ContiguousArray(text.utf8)),
                    ("String.UTF8View", text.utf8), ("non-contiguous", Array(text.utf8).lazy.map { $0 })]
        }
        /// The response, and the page it makes of the decoded `text`.
        func mutations(_ bytes: some Collection<UInt8>) throws -> (MutationResponse, Page) {
            let response = try decoder.decodeMutations(bytes)
            var page = try decoder.decode(Array(text.utf8)).page
            _ = decoder.apply(response, to: &page)
            return (response, page)
        }
        func appended(_ bytes: some Collection<UInt8>) throws -> (Page, [Diagnostic]) {
            var page = try decoder.decode(Array(text.utf8)).page
            let diagnostics = try decoder.append(nextPage: bytes, to: &page)
            return (page, diagnostics)
        }
        let reference = ReferencePageDecoder(registry: starterRegistry)
        func referenced(_ bytes: some Collection<UInt8>) throws -> DecodedPage { try reference.decode(bytes) }

        let expectedResponse = try mutations(Array(response.utf8))
        #expect(expectedResponse.0.kinds == [.removeWidget] && expectedResponse.1.allWidgets.isEmpty)
        let expectedAppend = try appended(Array(next.utf8))
        #expect(expectedAppend.0.sections.count == 2)
        let expectedReference = try reference.decode(Array(text.utf8))
        for (name, bytes) in containers(response) {
            let got = try mutations(bytes)
            #expect(got.0.kinds == expectedResponse.0.kinds && got.0.diagnostics == expectedResponse.0.diagnostics, "\(name)")
            #expect(got.0.toast == expectedResponse.0.toast && got.1 == expectedResponse.1, "\(name)")
        }
        for (name, bytes) in containers(next) {
            let got = try appended(bytes)
            #expect(got.0 == expectedAppend.0 && got.1 == expectedAppend.1, "\(name)")
        }
        for (name, bytes) in containers(text) {
            let got = try referenced(bytes)
            #expect(got.page == expectedReference.page && got.diagnostics == expectedReference.diagnostics, "\(name)")
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
