import Testing
import FlowJSON

/// A value's span (its bytes up to its last token) written alone gives what the tape writer
/// gives for the value: what a raw slice writes once the page's index is gone.
@Suite struct ValueSpanTests {
    func spanAndTape(_ text: String) throws -> [(span: [UInt8], tape: [UInt8])] {
        let document = try JSONDocument(text, options: JSONScanOptions(maximumDepth: 1000))
        return document.withView { view in
            (0..<view.count).map { i in
                var fromSpan = JSONWriter()
                fromSpan.write(valueSpan: UnsafeBufferPointer(rebasing: view.bytes[view.valueSpan(i)]))
                var fromTape = JSONWriter()
                fromTape.write(view, at: i)
                return (fromSpan.bytes, fromTape.bytes)
            }
        }
    }

    @Test(arguments: [
        #"{"a":[1,true],"b":"x\n"}"#,
        "{ \"a\" : [ 1 , { \"b\" : [ ] } ] ,\n\t\"c\" : { } }\r\n",
        #"["\"]}", "\\", "a b ] }", {"k": "{[", "n": -1.5e3}]"#,
        #"[[[[]]], [{}], "s", 0, null, false]"#,
        "  \"only a string\"  ",
        "[\n  {\n    \"deep\": [[{\"x\": [1, 2]}]]\n  }\n]",
        #"["a\\", "\\\"", "x\\\\\"y", "\"\"\"", "", " ", "\u0022]"]"#,
        #"{"k\"ey": {"\\": ["\\\\"]}}"#,
    ])
    func everyValueWritesAsTheTapeWritesIt(_ text: String) throws {
        for (n, pair) in try spanAndTape(text).enumerated() {
            #expect(pair.span == pair.tape, "entry \(n) of \(text): \(String(decoding: pair.span, as: UTF8.self))")
        }
    }

    @Test func containersDeeperThanSixtyFourLevelsClose() throws {
        let text = String(repeating: "[{\"k\":", count: 70) + "1" + String(repeating: "}]", count: 70)
        let pairs = try spanAndTape(text)
        #expect(pairs[0].span == Array(text.utf8))
        for pair in pairs { #expect(pair.span == pair.tape) }
    }

    @Test func theSpanLeavesOutOnlyTheClosingBracketsAfterTheLastToken() throws {
        let document = try JSONDocument(#" {"a": [1, {"b": "c"}] } "#)
        document.withView { view in
            #expect(String(decoding: view.bytes[view.valueSpan(0)], as: UTF8.self) == #"{"a": [1, {"b": "c""#)
            #expect(String(decoding: view.bytes[view.valueSpan(5)], as: UTF8.self) == #""b""#)
        }
    }
}
