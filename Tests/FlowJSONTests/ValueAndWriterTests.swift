import Testing
@testable import FlowJSON

@Suite struct ValueAndWriterTests {
    @Test func keepsKeyOrderAndDuplicates() throws {
        let value = try parse(#"{"b":1,"a":2,"b":3}"#)
        #expect(value.objectValue?.members.map(\.key) == ["b", "a", "b"])
        #expect(value["b"] == 1)
        #expect(String(decoding: JSONWriter.encode(value), as: UTF8.self) == #"{"b":1,"a":2,"b":3}"#)
    }

    @Test func objectEqualityIsByFirstOccurrenceAndIgnoresOrder() throws {
        #expect(try parse(#"{"a":1,"b":2}"#) == parse(#"{"b":2,"a":1}"#))
        #expect(try parse(#"{"a":1,"a":2}"#) == parse(#"{"a":1}"#))
        #expect(try parse(#"{"a":1,"a":2}"#) != parse(#"{"a":2}"#))
        #expect(try parse(#"{"a":1}"#).hashValue == parse(#"{"a":1.0,"a":7}"#).hashValue)
        let many = (0..<20).map { "\"k\($0)\":\($0)" }
        #expect(try parse("{" + many.joined(separator: ",") + "}") == parse("{" + many.reversed().joined(separator: ",") + "}"))
    }

    @Test func numbersKeepTheirLiteralAndCompareByValue() throws {
        let value = try parse("[9007199254740993,-0,1E400,1e-400,1.50,12345678901234567890123]")
        #expect(String(decoding: JSONWriter.encode(value), as: UTF8.self) == "[9007199254740993,-0,1E400,1e-400,1.50,12345678901234567890123]")
        #expect(JSONNumber("1")! == JSONNumber("1.0")!)
        #expect(JSONNumber("100")! == JSONNumber("1e2")!)
        #expect(JSONNumber("0.001")! == JSONNumber("1E-3")!)
        #expect(JSONNumber("-0")! == JSONNumber("0")!)
        #expect(JSONNumber("0e999999999999999999999999999999999999999999")! == JSONNumber("0")!)
        #expect(JSONNumber("9007199254740993")! != JSONNumber("9007199254740992")!)
        #expect(JSONNumber("1.5")!.hashValue == JSONNumber("15e-1")!.hashValue)
        #expect(JSONNumber("1e999999999999999999999999999999")! == JSONNumber("10e999999999999999999999999999998")!)
        // Past 36 exponent digits, equality falls back to the normalised spelling (documented).
        #expect(JSONNumber("1e0000000000000000000000000000000000000001")! == JSONNumber("1e1")!)
        #expect(JSONNumber("01") == nil)
        #expect(JSONNumber("1.") == nil)
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(0.1)?.text == "0.1")
    }

    @Test func writingThenRescanningGivesAnEqualValue() throws {
        let source = #"{"s":"a\"b\\c\nd\u0001é😀","n":[0,-1.5e-3,true,false,null],"o":{"":{}},"e":[]}"#
        let value = try parse(source)
        let written = JSONWriter.encode(value)
        #expect(try JSONValue(parsing: written) == value)
        #expect(String(decoding: written, as: UTF8.self).contains(#"\u0001"#))
    }

    @Test func tapeWriterCopiesTokensExactlyAndDropsWhitespace() throws {
        let source = "{ \"a\" : [ 1.50 , \"x\\u0041\" , { } ] ,\n \"b\" : null }"
        let document = try JSONDocument(source)
        let written = document.withView { view in
            var w = JSONWriter()
            w.write(view, at: 0)
            return w.bytes
        }
        #expect(String(decoding: written, as: UTF8.self) == #"{"a":[1.50,"x\u0041",{}],"b":null}"#)
        #expect(try JSONValue(parsing: written) == parse(source))
    }

    @Test func literalsBuildValues() {
        let value: JSONValue = ["a": [1, "two", true, nil]]
        #expect(String(decoding: JSONWriter.encode(value), as: UTF8.self) == #"{"a":[1,"two",true,null]}"#)
    }

    @Test func anOpaqueTreeShowsALoneSurrogateAsTheReplacementCharacter() throws {
        let document = try JSONDocument(#"{"a":"Deal \uDFFF","b\ud800":["\ud83d\ude00","x\uD83Dy"],"c":"\u00e9"}"#)
        #expect(throws: JSONSyntaxError.self) {
            try document.withView { view in Result { () throws(JSONSyntaxError) in try JSONValue(view, at: 0) } }.get()
        }
        let value = document.withView { JSONValue(replacingLoneSurrogates: $0, at: 0) }
        #expect(value == ["a": "Deal \u{FFFD}", "b\u{FFFD}": ["\u{1F600}", "x\u{FFFD}y"], "c": "é"])
    }
}
