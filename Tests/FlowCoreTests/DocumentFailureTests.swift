import Testing
import FlowCore
import FlowJSON

/// the page contract, "The document": only these fail a document as a whole.
@Suite struct DocumentFailureTests {
    func failure(_ text: String, bareRoot: Bool = false) -> PageDecodingError? {
        do {
            _ = try decode(text, bareRoot: bareRoot)
            return nil
        } catch let error as PageDecodingError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func bytesThatAreNotJSONFailWithAnOffset() throws {
        let error = try #require(failure(#"{"page": {"id": "x",}}"#))
        guard case .invalidJSON(let syntax) = error.reason else { Issue.record("\(error)"); return }
        #expect(syntax.reason == .trailingComma(closing: UInt8(ascii: "}")))
        #expect(error.offset == 19)
    }

    @Test func aRootThatIsNotAnObjectFails() throws {
        let error = try #require(failure("[1, 2]"))
        guard case .rootNotObject = error.reason else { Issue.record("\(error)"); return }
        #expect(error.message.contains("found an array"))
    }

    @Test func aMissingOrNullPageFails() throws {
        for text in [#"{"pages": {}}"#, #"{"page": null}"#] {
            let error = try #require(failure(text))
            guard case .missingPage = error.reason else { Issue.record("\(text): \(error)"); continue }
        }
    }

    @Test func aPageThatIsNotAnObjectFailsAtItsOffset() throws {
        let error = try #require(failure(#"{"page": "home"}"#))
        guard case .pageNotObject = error.reason else { Issue.record("\(error)"); return }
        #expect(error.offset == 9)
    }

    @Test func crossingTheDepthLimitFailsTheDocument() throws {
        let deep = #"{"page": {"tracking": "# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}}"
        let error = try #require(failure(deep))
        guard case .invalidJSON(let syntax) = error.reason, case .depthLimitExceeded(512) = syntax.reason else {
            Issue.record("\(error)"); return
        }
    }

    @Test func theSizeCapIsConfigurable() throws {
        let options = PageDecodingOptions(limits: JSONScanOptions(maximumDocumentSize: 10))
        #expect(throws: PageDecodingError.self) { try PageDecoder(registry: starterRegistry, options: options).decode(bytes(#"{"page": {"id": "a"}}"#)) }
    }

    @Test func bareRootTakesThePageAtTheRootAndKeepsPagePaths() throws {
        let decoded = try decode(#"{"sections": [{"widgets": [{"type": "hologram"}]}]}"#, bareRoot: true)
        #expect(decoded.page.id == "page@page")
        #expect(decoded.page.sections.first?.id == "section@page.sections.0")
        #expect(keys(decoded.diagnostics) == ["unknown_type page.sections.0.widgets.0 (hologram)"])
        #expect(failure(#"{"sections": []}"#) != nil, "without the option, no page key fails the document")
    }

    @Test func everythingElseDegrades() throws {
        let decoded = try decode(#"{"page": {"id": 5, "nav": 1, "header": [], "sections": {}, "footer": "f", "pagination": 0, "refresh": []}}"#)
        #expect(keys(decoded.diagnostics) == [
            "invalid_field page.id", "invalid_field page.nav", "invalid_field page.header", "invalid_field page.sections",
            "invalid_field page.footer", "invalid_field page.pagination", "invalid_field page.refresh",
        ])
        #expect(decoded.page.id == "page@page")
        #expect(decoded.page.isEmpty)
    }
}
