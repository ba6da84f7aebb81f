import Foundation
import Testing
import FlowCore
import FlowJSON

/// The tape decoder's fast routes (scalars read in place, keys found by their bytes, one
/// decoder reused across a page's widgets) answer exactly as the general route and as
/// Foundation's `JSONDecoder` do: same values, same errors at the same coding paths.
@Suite struct TapeDecoderTests {
    struct Scalars: Decodable, Equatable {
        struct Inner: Decodable, Equatable { let n: Int; let s: String? }
        let d: Double
        let i: Int
        let s: String
        let b: Bool?
        let u8: UInt8?
        let f: Float?
        let list: [Int]?
        let names: [String]?
        let inner: Inner?
    }

    /// An error as a comparable shape: its case and its coding path. A value that does not
    /// convert (a number out of range, a lone surrogate) is `dataCorrupted` on both, but
    /// Foundation reports it at the document's root and the tape decoder at the member,
    /// which is what a diagnostic should name: its path is left out.
    static func shape(_ error: any Error) -> String {
        guard let e = error as? DecodingError else { return "not a DecodingError: \(error)" }
        func path(_ c: [any CodingKey]) -> String { c.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") }
        switch e {
        case .typeMismatch(_, let c): return "typeMismatch at \(path(c.codingPath))"
        case .valueNotFound(_, let c): return "valueNotFound at \(path(c.codingPath))"
        case .keyNotFound(let k, let c): return "keyNotFound \(k.stringValue) at \(path(c.codingPath))"
        case .dataCorrupted: return "dataCorrupted"
        @unknown default: return "\(e)"
        }
    }

    enum Outcome<T: Equatable>: Equatable {
        case value(T)
        case error(String)
    }

    static func outcome<T: Decodable & Equatable>(_ type: T.Type, tape text: String) -> Outcome<T> {
        do { return .value(try T(from: TapeDecoder(document: try JSONDocument(text)))) } catch { return .error(shape(error)) }
    }

    static func outcome<T: Decodable & Equatable>(_ type: T.Type, foundation text: String) -> Outcome<T> {
        do { return .value(try JSONDecoder().decode(T.self, from: Data(text.utf8))) } catch { return .error(shape(error)) }
    }

    static let cases = [
        #"{"d": 1.5, "i": 2, "s": "x"}"#,
        #"{"d": 1.5, "i": 2, "s": "x", "b": true, "u8": 255, "f": 0.5, "list": [1, 2], "names": ["a"], "inner": {"n": 1, "s": null}}"#,
        #"{"d": "1.5", "i": 2, "s": "x"}"#,                        // a string for a Double
        #"{"d": 1.5, "i": 2.5, "s": "x"}"#,                        // not an integer
        #"{"d": 1.5, "i": 2, "s": null}"#,                         // null for a required String
        #"{"d": 1.5, "i": 2}"#,                                    // a required key missing
        #"{"d": 1.5, "i": 2, "s": "x", "u8": 256}"#,               // out of UInt8's range
        #"{"d": 1e400, "i": 2, "s": "x"}"#,                        // out of Double's range
        #"{"d": 1.5, "i": 2, "s": "x", "b": "yes"}"#,              // a string for an optional Bool
        #"{"d": 1.5, "i": 2, "s": "x", "list": [1, "2"]}"#,        // a bad array element
        #"{"d": 1.5, "i": 2, "s": "x", "names": ["a", 3]}"#,
        #"{"d": 1.5, "i": 2, "s": "x", "list": [1, null]}"#,
        #"{"d": 1.5, "i": 2, "s": "x", "inner": {"n": "1"}}"#,     // a bad nested scalar
        #"{"d": 1.5, "i": 2, "s": "x", "inner": {"s": "t"}}"#,     // a nested key missing
        #"{"d": 1.5, "i": 2, "s": "\ud800"}"#,                     // a lone surrogate
        #"{"\u0064": 1.5, "i": 2, "s": "x"}"#,                     // an escaped key
        #"{"d": 1.5, "i": 1, "i": 2, "s": "x"}"#,                  // a duplicate key: the first wins
        #"{"d": 1.5, "i": 2, "s": "x", "é": 1}"#,                  // a key nobody reads, not ASCII
        #"{"d": 1.5, "i": 2, "s": "x\ny\u00e9"}"#,                 // an escaped value: the slow read
        #"{"d": true, "i": 2, "s": "x"}"#,                         // a Bool for a Double
        #"{"d": 1.5, "i": "2", "s": 3}"#,                          // the first error wins
        #"{"d": 1.5, "i": 2, "s": "x", "b": null, "u8": null}"#,   // null for optionals: absent
        #"{"d": 1.5, "i": 9223372036854775808, "s": "x"}"#,        // one past Int.max
    ]

    @Test func scalarsAndErrorsAgreeWithJSONDecoder() {
        for text in Self.cases {
            let tape = Self.outcome(Scalars.self, tape: text)
            let foundation = Self.outcome(Scalars.self, foundation: text)
            #expect(tape == foundation, "\(text)")
        }
    }

    /// A key is found by its bytes only when nothing else can spell it: a Kelvin sign is the
    /// letter K to a Swift string (canonical equivalence), as it is to `JSONDecoder`.
    @Test func keysCompareAsSwiftStrings() {
        struct K: Decodable, Equatable { let K: Int }
        for text in [#"{"K": 1}"#, #"{"\u212A": 1}"#, "{\"\u{212A}\": 1}", #"{"k": 1}"#] {
            #expect(Self.outcome(K.self, tape: text) == Self.outcome(K.self, foundation: text), "\(text)")
        }
    }

    /// An object of more than sixteen members is looked up through a table the decoder keeps
    /// for it: the first of duplicate keys wins there too, two such objects open at once
    /// (one nested in the other) each find their own members, and a decoder reused for the
    /// next widget forgets the tables of the last.
    @Test func largeObjectsAgreeWithJSONDecoder() throws {
        struct Wide: Decodable, Equatable {
            struct Inner: Decodable, Equatable { let k0: Int; let k16: String }
            let k0: Int
            let k9: String
            let k16: Double
            let inner: Inner?
        }
        func wide(_ extra: String, value: (Int) -> String) -> String {
            "{" + (0..<17).map { #""k\#($0)": \#(value($0))"# }.joined(separator: ", ") + extra + "}"
        }
        let inner = wide("", value: { $0 == 16 ? #""deep""# : "\(100 + $0)" })
        let texts = [
            wide("", value: { $0 == 9 ? #""nine""# : "\($0)" }),
            wide(#", "k0": 99"#, value: { $0 == 9 ? #""nine""# : "\($0)" }),       // a duplicate: the first wins
            wide(#", "inner": \#(inner)"#, value: { $0 == 9 ? #""nine""# : "\($0)" }),
            wide("", value: { $0 == 9 ? "9" : "\($0)" }),                      // a number for a String
            wide(#", "\u006b0": 5"#, value: { $0 == 9 ? #""nine""# : "\($0)" }), // an escaped duplicate
        ]
        for text in texts {
            #expect(Self.outcome(Wide.self, tape: text) == Self.outcome(Wide.self, foundation: text), "\(text)")
        }

        var registry = WidgetRegistry()
        registry.register(Wide.self, as: "wide")
        let widgets = [texts[2], texts[0], texts[1]].enumerated().map { #"{"type":"wide","id":"w\#($0.offset)","data":\#($0.element)}"# }
        let page = try PageDecoder(registry: registry, options: PageDecodingOptions(threads: 1))
            .decode(Array(#"{"page":{"sections":[{"widgets":[\#(widgets.joined(separator: ","))]}]}}"#.utf8)).page
        let models = page.allWidgets.compactMap { $0.model(as: Wide.self) }
        #expect(models.map(\.k0) == [0, 0, 0])
        #expect(models.map(\.k9) == ["nine", "nine", "nine"])
        #expect(models[0].inner == Wide.Inner(k0: 100, k16: "deep"))
    }

    /// A content value that keeps its decoder (and reads it later) keeps its own: the decoder
    /// a page reuses for its widgets is reused only when nothing else holds it.
    @Test func aDecoderKeptByItsValueIsNotReused() throws {
        struct Kept: Decodable, @unchecked Sendable {
            enum Keys: String, CodingKey { case label }
            let decoder: any Decoder
            init(from decoder: any Decoder) throws { self.decoder = decoder }
            func label() throws -> String { try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .label) }
        }
        struct Plain: Decodable, Sendable { let label: String }
        var registry = WidgetRegistry()
        registry.register(Kept.self, as: "kept")
        registry.register(Plain.self, as: "plain")
        let widgets = (0..<6).map { n in #"{"type":"\#(n % 2 == 0 ? "kept" : "plain")","id":"w\#(n)","data":{"label":"L\#(n)"}}"# }
        let text = #"{"page":{"sections":[{"widgets":[\#(widgets.joined(separator: ","))]}]}}"#
        let page = try PageDecoder(registry: registry, options: PageDecodingOptions(threads: 1)).decode(Array(text.utf8)).page
        let labels = try page.allWidgets.map { w in
            if let kept = w.model(as: Kept.self) { return try kept.label() }
            return try #require(w.model(as: Plain.self)).label
        }
        #expect(labels == (0..<6).map { "L\($0)" })
    }
}
