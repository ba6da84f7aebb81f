import Testing
import FlowCore
import FlowJSON
import FlowWidgets

/// A reader handed to a host's content model belongs to the decode that made it: one kept
/// past that decode stops at a precondition instead of reading memory that may be gone.
@Suite struct ReaderLifetimeTests {
    /// A model that keeps the reader it was decoded from (what no model should do).
    struct Hoarder: FlowDecodable, Equatable {
        nonisolated(unsafe) static var kept: TapeReader?
        init<R: ValueReader>(from reader: R) throws {
            if let tape = reader as? TapeReader { Self.kept = tape }
        }
    }

    static func decodeAndKeep() throws -> TapeReader {
        var registry = FlowWidgets.registry
        registry.register(Hoarder.self, as: "hoarder")
        let decoded = try PageDecoder(registry: registry).decode(Array(#"{"page":{"sections":[{"widgets":[{"type":"hoarder","data":{"a":"b"}}]}]}}"#.utf8))
        #expect(decoded.diagnostics.isEmpty)
        return try #require(Hoarder.kept)
    }

    @Test func aReaderUsedDuringItsDecodeReads() throws {
        var registry = FlowWidgets.registry
        registry.register(Hoarder.self, as: "hoarder")
        let decoded = try PageDecoder(registry: registry).decode(Array(#"{"page":{"sections":[{"widgets":[{"type":"hoarder"}]}]}}"#.utf8))
        #expect(decoded.page.sections[0].widgets.count == 1)
    }

    @Test func aReaderKeptPastItsDecodeStopsAtAPrecondition() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let reader = try ReaderLifetimeTests.decodeAndKeep()
            _ = reader.object()
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("used after the decode that made it returned"), "stopped for another reason: \(stderr)")
    }
}
