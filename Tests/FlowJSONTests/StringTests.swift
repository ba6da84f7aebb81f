import Testing
@testable import FlowJSON

@Suite struct StringTests {
    @Test func decodesEveryEscape() throws {
        #expect(try parse(#"["\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC"]"#) == ["\"\\/\u{8}\u{C}\n\r\tAé€"])
    }

    @Test func combinesSurrogatePairs() throws {
        #expect(try parse(#"["\uD83D\uDE00"]"#) == ["😀"])
        #expect(try parse(#"["\ud834\udd1e"]"#) == ["𝄞"])
    }

    @Test(arguments: [#"["\uD800"]"#, #"["\uDC00"]"#, #"["\uD800x"]"#, #"["\uD800\u0041"]"#, #"["\uDE00\uD83D"]"#, #"["a\uD83D"]"#])
    func loneSurrogatesPassTheScanButFailDecoding(input: String) throws {
        #expect(scanError(input) == nil)
        let error = try #require(validationError(Array(input.utf8)))
        #expect(error.reason == .loneSurrogate)
        #expect(throws: JSONSyntaxError.self) { try parse(input) }
    }

    @Test func loneSurrogateErrorPointsAtTheEscape() throws {
        let error = try #require(validationError(Array(#"{"k": "ab\uD800"}"#.utf8)))
        #expect(error.offset == 9)
    }

    @Test func keepsRawNonASCII() throws {
        #expect(try parse("[\"héllo wörld 中文 😀\"]") == ["héllo wörld 中文 😀"])
    }

    @Test(arguments: [
        [0xC0, 0x80],  // overlong NUL
        [0xC1, 0xBF],  // overlong
        [0xE0, 0x80, 0x80],  // overlong 3-byte
        [0xF0, 0x80, 0x80, 0x80],  // overlong 4-byte
        [0xED, 0xA0, 0x80],  // UTF-8-encoded surrogate U+D800
        [0xED, 0xBF, 0xBF],  // U+DFFF
        [0xF4, 0x90, 0x80, 0x80],  // U+110000
        [0xF5, 0x80, 0x80, 0x80],
        [0xFF],
        [0x80],  // lone continuation
        [0xE2, 0x82],  // truncated
        [0xC3, 0x28],  // bad continuation
    ] as [[UInt8]])
    func rejectsInvalidUTF8(sequence: [UInt8]) throws {
        let bytes = Array("[\"ab".utf8) + sequence + Array("cd\"]".utf8)
        let error = try #require(scanError(bytes))
        #expect(error.reason == .invalidUTF8)
        #expect(error.offset == 4)
    }

    @Test func acceptsTheUTF8Boundaries() throws {
        for scalar: UInt32 in [0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF] {
            let s = String(Unicode.Scalar(scalar)!)
            #expect(try parse("[\"\(s)\"]") == .array([.string(s)]))
        }
    }

    @Test func invalidUTF8OutsideStringsIsRejected() {
        #expect(scanError([0x5B, 0xC3, 0xA9, 0x5D]) != nil)
    }
}
