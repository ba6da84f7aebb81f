import Testing
import FlowJSON

/// A text fingerprint sees every byte of the text, whatever its length (each length
/// mixes its last bytes differently), and only the text: the same text hashes the same
/// in any document.
@Suite struct FingerprintTests {
    static func fingerprint(_ text: String) throws -> UInt64 {
        try JSONDocument(text).withView { $0.textFingerprint(0) }
    }

    @Test func everyByteCounts() throws {
        for length in 0...70 {
            let letters = (0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) }
            let text = "\"" + String(letters) + "\""
            let original = try Self.fingerprint(text)
            #expect(try Self.fingerprint("[" + text + "]") == Self.fingerprint("[" + text + "]"))
            for position in 0..<length {
                var changed = letters
                changed[position] = "Z"
                #expect(try Self.fingerprint("\"" + String(changed) + "\"") != original, "length \(length), byte \(position)")
            }
        }
    }

    @Test func theSameTextHashesTheSameInAnyDocument() throws {
        let member = #"{"type":"banner","data":{"title":"Sale","image":"https://example.com/a.png"}}"#
        let alone = try Self.fingerprint(member)
        let inside = try JSONDocument("[1, " + member + "]").withView { view in view.textFingerprint(2) }
        #expect(alone == inside)
    }
}
