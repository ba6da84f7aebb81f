import CFlowSIMD
import Testing
@testable import FlowJSON

@Suite struct ScannerTests {
    @Test func tapeMatchesTheDocumentedWorkedExample() throws {
        // The example at the top of JSONTape.swift; kinds: object 6, string 4, array 5,
        // number 3, true 2.
        #expect(try entries(#"{"a":[1,true],"b":"x\n"}"#) == [
            "6 0 0 7", "4 0 2 1", "5 0 5 5", "3 1 6 1", "2 0 8 0", "4 0 15 1", "4 1 19 3",
        ])
    }

    @Test func skipJumpsOverWholeSubtrees() throws {
        let document = try JSONDocument(#"[[1,[2,[3]]],{"k":{"j":[]}},4]"#)
        document.withView { view in
            var roots: [JSONKind] = []
            view.forEachElement(0) { e in roots.append(view.kind(e)); return true }
            #expect(roots == [.array, .object, .number])
            #expect(view.next(0) == view.count)
        }
    }

    /// `next` and `isNull` read the kind's bits without going through `JSONKind`: they must
    /// agree with `kind` on every kind, scalars stepping by one and containers jumping.
    @Test func bitReadersAgreeWithTheKindOnEveryKind() throws {
        let document = try JSONDocument(#"[null,false,true,-1.5,"s",[null,[]],{"k":{}},{}]"#)
        document.withView { view in
            var kinds: [JSONKind] = []
            for i in 0..<view.count {
                let kind = view.kind(i)
                kinds.append(kind)
                #expect(view.isNull(i) == (kind == .null), "entry \(i)")
                let container = kind == .array || kind == .object
                #expect(container ? view.next(i) > i + 1 || view.childCount(i) == 0 : view.next(i) == i + 1, "entry \(i)")
            }
            #expect(Set(kinds) == [.null, .false, .true, .number, .string, .array, .object])
            var elements: [Int] = []
            view.forEachElement(0) { e in elements.append(e); return true }
            #expect(elements.map { view.next($0) } == Array(elements.dropFirst()) + [view.count])
        }
    }

    @Test func memberLookupTakesTheFirstOccurrence() throws {
        let document = try JSONDocument(#"{"a":1,"b":2,"a":3}"#)
        document.withView { view in
            #expect(view.member(0, "a").map { String(decoding: view.rawBytes($0), as: UTF8.self) } == "1")
            #expect(view.member(0, "c") == nil)
            #expect(view.childCount(0) == 3)
        }
    }

    @Test func escapedKeysCompareByDecodedValue() throws {
        let document = try JSONDocument(#"{"\u0061b":1}"#)
        document.withView { view in #expect(view.member(0, "ab") != nil) }
    }

    @Test func errorsCarryOffsetLineAndColumn() throws {
        let error = try #require(scanError("{\n  \"a\": 1,\n  \"b\": tru\n}"))
        #expect(error.offset == 22)
        #expect(error.line == 3)
        #expect(error.column == 11)
        #expect(error.description.hasPrefix("offset 22 (line 3, column 11): expected 'true'"))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let error = try #require(scanError("[\"é€😀\", x]"))
        #expect(error.offset == 14)
        #expect(error.column == 9)
    }

    @Test(arguments: [
        ("[1,]", "trailing comma before ']'"),
        ("{\"a\":1,}", "trailing comma before '}'"),
        ("[1] x", "after the end of the document"),
        ("// c\n[]", "comments are not allowed"),
        ("[NaN]", "NaN and Infinity"),
        ("['a']", "double quotes"),
        ("[01]", "leading zeros"),
        ("[1.]", "after the decimal point"),
        ("[1e]", "after the exponent marker"),
        ("[-]", "after '-'"),
        ("[+1]", "must not start with '+'"),
        ("[.5]", "must start with a digit"),
        ("{\"a\" 1}", "':' after an object key"),
        ("{1:2}", "a string key"),
        ("[1 2]", "',' or ']'"),
        ("\"abc", "not terminated"),
        ("[\"a\tb\"]", "control character U+0009"),
        ("[\"\\x\"]", "invalid escape '\\x'"),
        ("[\"\\u12G4\"]", "four hexadecimal digits"),
        ("", "the document is empty"),
        ("   ", "unexpected end of input"),
        ("[", "unexpected end of input"),
        ("{\"a\":", "unexpected end of input"),
    ])
    func rejectsWithAReasonAPersonCanActOn(input: String, reason: String) throws {
        let error = try #require(scanError(input), "accepted \(input)")
        #expect(error.message.contains(reason), "\(input): \(error.message)")
    }

    @Test func skipsALeadingByteOrderMark() {
        #expect(scanError([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == nil)
        #expect(scanError([0xEF, 0xBB] + Array("{}".utf8)) != nil)
    }

    @Test func acceptsAnyRootValue() {
        for root in ["1", "\"s\"", "true", "null", " [] ", "{}"] { #expect(scanError(root) == nil, "\(root)") }
    }

    @Test func depthLimitAcceptsTheLimitAndRefusesOneMore() throws {
        #expect(scanError(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)) == nil)
        let error = try #require(scanError(String(repeating: "[", count: 513) + String(repeating: "]", count: 513)))
        #expect(error.reason == .depthLimitExceeded(limit: 512))
        #expect(error.offset == 512)
        let objects = String(repeating: "{\"a\":", count: 513) + "1" + String(repeating: "}", count: 513)
        #expect(scanError(objects)?.reason == .depthLimitExceeded(limit: 512))
    }

    @Test func depthLimitIsConfigurable() {
        let three = "[[[1]]]"
        #expect(scanError(three, options: JSONScanOptions(maximumDepth: 3)) == nil)
        #expect(scanError(three, options: JSONScanOptions(maximumDepth: 2))?.reason == .depthLimitExceeded(limit: 2))
        #expect(JSONScanOptions(maximumDepth: 1 << 40).maximumDepth == JSONScanOptions.depthCeiling)
    }

    @Test func aMillionOpenBracketsIsAnErrorNotAStackOverflow() {
        let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(scanError(hostile)?.reason == .depthLimitExceeded(limit: 512))
        let deep = JSONScanOptions(maximumDepth: JSONScanOptions.depthCeiling)
        #expect(scanError(hostile, options: deep)?.reason == .depthLimitExceeded(limit: JSONScanOptions.depthCeiling))
    }

    @Test func documentSizeLimitIsAClearError() {
        let error = scanError("[1,2,3]", options: JSONScanOptions(maximumDocumentSize: 4))
        #expect(error?.reason == .documentTooLarge(size: 7, limit: 4))
        #expect(scanError("[1,2,3]", options: JSONScanOptions(maximumDocumentSize: 7)) == nil)
    }

    @Test func numbersKeepTheirIntegerFlag() throws {
        #expect(try entries("[0,-12,1.5,2e3,-0.0]").dropFirst().map { $0.split(separator: " ")[1] } == ["1", "1", "0", "0", "0"])
    }

    @Test func literalsMustBeComplete() {
        for bad in ["[tru]", "[fals]", "[nul]", "[truex]", "[nulll]", "t", "fa"] {
            #expect(scanError(bad) != nil, "accepted \(bad)")
        }
    }

    @Test func indentationOfAnyWidthIsSkippedToTheExactByte() throws {
        // After a line break, spaces go eight at a time: every width around the word size,
        // followed by a value, by other whitespace, by a bad byte, or by the end.
        for n in 0..<34 {
            let indent = String(repeating: " ", count: n)
            #expect(try parse("[1,\n\(indent)2]") == parse("[1,2]"))
            #expect(try parse("{\n\(indent)\t \"k\":\r\n\(indent)true\n\(indent)}") == parse(#"{"k":true}"#))
            #expect(try parse("null\n\(indent)") == .null)
            let error = try #require(scanError("[1,\n\(indent)x]"))
            #expect(error.offset == 4 + n)
            #expect(error.line == 2)
            #expect(error.column == n + 1)
            #expect(scanError("[1,\n\(indent)") != nil)
        }
    }

    @Test func documentsDenserThanTheFirstGuessGrowTheIndex() throws {
        // Two bytes per value (and one per value for nesting): several times past the
        // starting capacity of one entry per 8 bytes.
        let n = 100_000
        let document = try JSONDocument("[" + Array(repeating: "7", count: n).joined(separator: ",") + "]")
        #expect(document.entryCount == n + 1)
        document.withView { view in
            #expect(view.next(0) == n + 1)
            #expect(String(decoding: view.rawBytes(n), as: UTF8.self) == "7")
        }
        let nested = try JSONDocument(String(repeating: "[", count: 400) + String(repeating: "]", count: 400))
        #expect(nested.entryCount == 400)
        #expect(nested.indexByteCount == 400 * 8)
    }

    /// The string loop looks at sixteen bytes, then eight, then one at a time near the end
    /// of the document: every byte that matters must stop it exactly where it is, whatever
    /// its place in those windows and however far the document's end is.
    @Test func everySpecialByteIsFoundAtEveryPlaceInAString() throws {
        let bytes: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x5C, 0x7E, 0x7F, 0x80, 0xBF, 0xC2, 0xFF]
        for length in 1..<40 {
            for place in 0..<length {
                for b in bytes {
                    for trailing in [0, 1, 7, 8, 15, 16] {
                        var doc = Array("[\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: length)
                        doc[2 + place] = b
                        doc += Array("\"]".utf8) + Array(repeating: UInt8(ascii: " "), count: trailing)
                        let error = scanError(doc)
                        let at = 2 + place
                        switch b {
                        case ..<0x20:
                            #expect(error?.reason == .controlCharacterInString(b) && error?.offset == at, "\(b) at \(place) of \(length)")
                        case 0x80...:
                            #expect(error?.reason == .invalidUTF8 && error?.offset == at, "\(b) at \(place) of \(length)")
                        case 0x5C where place < length - 1:
                            #expect(error?.reason == .invalidEscape(UInt8(ascii: "a")) && error?.offset == at, "backslash at \(place) of \(length)")
                        case 0x5C:
                            #expect(error?.reason == .unterminatedString, "backslash last of \(length)")
                        case 0x22:
                            // The string ends here; what follows it is out of place.
                            #expect(error?.offset == at + 1, "quote at \(place) of \(length)")
                        default:
                            #expect(error == nil, "\(b) at \(place) of \(length)")
                            if error == nil {
                                let range = try JSONDocument(bytes: doc).withView { $0.byteRange(1) }
                                #expect(range == 2..<(2 + length))
                            }
                        }
                    }
                }
            }
        }
    }

    /// A short plain key followed by its colon is read from one 16-byte block; every other
    /// key goes the full way. Whichever way a key goes, it must index and fail exactly as
    /// the same bytes do as a string value: every special byte in every place of keys
    /// around the block's size, with and without space around the colon, and with the
    /// document's end near (where the block does not fit, or the value is missing).
    @Test func keysIndexAndFailAsTheSameBytesDoAsAString() throws {
        let specials: [UInt8] = [0x00, 0x1F, 0x22, 0x5C, 0x80, 0xC3, 0xFF]
        let separators = [":", " :", ": ", ":\n\t", "\n:"]
        for length in 0..<20 {
            for place in -1..<length {  // -1: a plain key
                for b in place < 0 ? [UInt8(ascii: "a")] : specials {
                    var key = Array(repeating: UInt8(ascii: "k"), count: length)
                    if place >= 0 { key[place] = b }
                    if b == 0xC3 && place < length - 1 { key[place + 1] = 0xA9 }  // a valid é
                    let twin = scanError(Array("[\"".utf8) + key + Array("\"]".utf8))
                    for separator in separators {
                        for tail in ["1}", "1} ", "1}" + String(repeating: " ", count: 17), ""] {
                            let doc = Array("{\"".utf8) + key + Array("\"\(separator)\(tail)".utf8)
                            let what = "key \(key) before \(separator.debugDescription)\(tail.debugDescription)"
                            let error = scanError(doc)
                            if let twin, !(b == 0x22 || (b == 0x5C && place == length - 1)) {
                                // The key's own bytes are at fault: the same error, the same place.
                                #expect(error == twin, "\(what)")
                            } else if b == 0x22 {
                                // The key ends early, at the quote; a 'k' follows it, not a colon.
                                #expect(error?.offset == 2 + place + 1, "\(what): \(String(describing: error))")
                            } else if b == 0x5C {
                                // An escaped quote: the key does not end where it seems to.
                                #expect(error != nil, "\(what)")
                            } else if tail.isEmpty {
                                #expect(error?.reason == .unexpectedEndOfInput(expected: "a value") && error?.offset == doc.count, "\(what)")
                            } else {
                                #expect(error == nil, "\(what): \(String(describing: error))")
                                if error == nil {
                                    let document = try JSONDocument(bytes: doc)
                                    #expect(document.withView { $0.byteRange(1) } == 2..<(2 + length), "\(what)")
                                    #expect(document.withView { $0.kind(2) } == .number, "\(what)")
                                    #expect(try JSONValue(parsing: doc) == .object(JSONObject([JSONObject.Member(key: String(decoding: key, as: UTF8.self), value: 1)])), "\(what)")
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The vector search and the portable one (what targets without SSE2 run) find the
    /// first byte that needs a look, for every byte in every place and for random blocks.
    @Test func sixteenByteSearchMatchesTheBytewiseOne() {
        func expected(_ block: [UInt8]) -> Int {
            block.firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 >= 0x80 } ?? 32
        }
        // The lowest set bit, 32 for none.
        func first(_ mask: UInt32) -> Int { mask.trailingZeroBitCount }
        var block = [UInt8](repeating: UInt8(ascii: "a"), count: 16)
        #expect(flow_string_specials16(block) == 0 && flow_string_specials16_portable(block) == 0)
        for place in 0..<16 {
            for b in 0...255 {
                block[place] = UInt8(b)
                let want = expected(block)
                #expect(first(flow_string_specials16(block)) == want, "byte \(b) in place \(place)")
                #expect(first(flow_string_specials16_portable(block)) == want, "byte \(b) in place \(place), portable")
            }
            block[place] = UInt8(ascii: "a")
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<4_000 {
            // Mostly plain text with a few specials, so the first one falls anywhere.
            let random = (0..<16).map { _ in UInt8.random(in: 0...15, using: &rng) == 0 ? UInt8.random(in: 0...255, using: &rng) : UInt8.random(in: 0x20...0x7E, using: &rng) }
            #expect(first(flow_string_specials16(random)) == expected(random))
            #expect(first(flow_string_specials16_portable(random)) == expected(random))
        }
    }

    @Test func stringsLongerThanTheWordLoopAreScannedToTheEnd() throws {
        for n in 0..<40 {
            let s = String(repeating: "a", count: n)
            #expect(try parse("[\"\(s)\"]") == .array([.string(s)]))
            #expect(scanError("[\"\(s)") != nil)
            #expect(scanError("[\"\(s)\u{1}\"]") != nil)
        }
    }
}
