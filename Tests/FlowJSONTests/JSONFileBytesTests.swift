import Foundation
import Testing
import FlowJSON

/// A file read straight into a document's storage: the same document as scanning a copy,
/// and the errors say which file and why.
@Suite struct JSONFileBytesTests {
    func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-file-bytes-\(UUID().uuidString).json")
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func aFileReadsIntoTheSameDocumentAsItsBytes() throws {
        // Large enough to need more than the first read, and to cross the minimum buffer.
        let text = "[" + (0..<40_000).map { #"{"k":\#($0),"s":"v\#($0)"}"# }.joined(separator: ",") + "]"
        let path = try temporaryFile(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try JSONFileBytes(contentsOfFile: path)
        #expect(file.count == text.utf8.count)
        let adopted = try JSONDocument(adopting: file)
        let copied = try JSONDocument(text)
        #expect(adopted.bytes == copied.bytes)
        #expect(adopted.entryCount == copied.entryCount)
    }

    @Test func anEmptyFileIsReadAndIsNotJSON() throws {
        let path = try temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try JSONFileBytes(contentsOfFile: path)
        #expect(file.count == 0)
        var failed = false
        do { _ = try JSONDocument(adopting: file) } catch { failed = true }
        #expect(failed, "an empty document is not JSON")
    }

    /// The reason a file could not be read, or nil when it was.
    func failure(_ path: String) -> JSONFileError? {
        do {
            let file = try JSONFileBytes(contentsOfFile: path)
            _ = file.count
            return nil
        } catch { return error }
    }

    @Test func errorsNameTheFileAndTheReason() {
        #expect(failure("/nonexistent/page.json")?.description == "/nonexistent/page.json: no such file")
        #expect(failure(FileManager.default.temporaryDirectory.path)?.reason == "it is a directory")
    }
}
