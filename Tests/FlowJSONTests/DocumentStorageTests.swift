import Testing
import FlowJSON

/// Where a document's bytes live: an array's buffer is shared, not copied, and the caller's
/// array stays the caller's to change.
@Suite struct DocumentStorageTests {
    @Test func anArraysBufferIsSharedNotCopied() throws {
        let bytes = Array(#"{"a":[1,2,3],"b":"text"}"#.utf8)
        let document = try JSONDocument(bytes: bytes)
        let arrayAddress = bytes.withUnsafeBufferPointer { $0.baseAddress }
        #expect(document.withView { $0.bytes.baseAddress } == arrayAddress)
        let contiguous = ContiguousArray(bytes)
        let fromContiguous = try JSONDocument(bytes: contiguous)
        #expect(fromContiguous.withView { $0.bytes.baseAddress } == arrayAddress)
    }

    @Test func changingTheCallersArrayLeavesTheDocumentAsScanned() throws {
        var bytes = Array(#"{"a":"before"}"#.utf8)
        let document = try JSONDocument(bytes: bytes)
        for i in bytes.indices { bytes[i] = UInt8(ascii: " ") }
        #expect(document.bytes == Array(#"{"a":"before"}"#.utf8))
        #expect(try document.withView { try $0.string(2) } == "before")
    }

    @Test func aFailedScanOfASharedArrayThrowsAndKeepsNothing() {
        for text in ["", "{", #"{"a":}"#] {
            #expect(throws: JSONSyntaxError.self) { try JSONDocument(bytes: Array(text.utf8)) }
        }
    }
}
