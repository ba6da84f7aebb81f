import Foundation
import Testing
import FlowCore
import FlowJSON
import FlowWidgets

/// A host registers a plain Decodable type in one call; the fast path decodes it through
/// TapeDecoder, the reference path through JSONDecoder, and the two must agree.
@Suite struct HostContentTests {
    struct OrderCard: Decodable, Equatable, Sendable {
        enum Status: String, Decodable, Sendable { case open, shipped }
        struct Line: Decodable, Equatable, Sendable {
            let sku: String
            let qty: Int
            let price: Double?
        }
        let orderID: String
        let status: Status
        let lines: [Line]
        let note: String?
        let flags: [String: Bool]
        let placed: Date?
        let link: URL?
        let total: Decimal?
        let small: Int8?
        let ratio: Float?

        enum CodingKeys: String, CodingKey {
            case orderID = "order_id", status, lines, note, flags, placed, link, total, small, ratio
        }
    }

    /// A host type written with the manual container API, nested containers included.
    struct Manual: Decodable, Equatable, Sendable {
        let a: Int
        let b: [String]
        let c: String?
        enum Keys: String, CodingKey { case a, nested, c }
        enum NestedKeys: String, CodingKey { case b }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            a = try container.decode(Int.self, forKey: .a)
            let nested = try container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested)
            var list = try nested.nestedUnkeyedContainer(forKey: .b)
            var items: [String] = []
            while !list.isAtEnd {
                if try list.decodeNil() { items.append("nil") } else { items.append(try list.decode(String.self)) }
            }
            b = items
            c = try container.decodeIfPresent(String.self, forKey: .c)
        }
    }

    static let registry: WidgetRegistry = {
        var r = FlowWidgets.registry
        r.register(OrderCard.self, as: "order_card")
        r.register(Manual.self, as: "manual")
        return r
    }()

    static let cases: [String] = [
        #"{"order_id": "A1", "status": "open", "lines": [{"sku": "x", "qty": 2, "price": 9.5}], "flags": {"gift": true}}"#,
        #"{"order_id": "A1", "status": "shipped", "lines": [], "flags": {}, "note": null, "placed": 0, "link": "https://x.example/o?a=1", "total": 12.50, "small": 127, "ratio": 0.5}"#,
        #"{"order_id": "A1", "status": "lost", "lines": [], "flags": {}}"#,
        #"{"order_id": 7, "status": "open", "lines": [], "flags": {}}"#,
        #"{"status": "open", "lines": [], "flags": {}}"#,
        #"{"order_id": "A1", "status": "open", "lines": [{"sku": "x", "qty": 2.5}], "flags": {}}"#,
        #"{"order_id": "A1", "status": "open", "lines": [{"sku": "x", "qty": 2.0}], "flags": {}}"#,
        #"{"order_id": "A1", "status": "open", "lines": [{"sku": "x", "qty": 1e-400}], "flags": {}}"#,
        #"{"order_id": "A1", "status": "open", "lines": [], "flags": {"a": 1}}"#,
        #"{"order_id": "A1", "status": "open", "lines": [], "flags": {}, "small": 128}"#,
        #"{"order_id": "A1", "status": "open", "lines": [], "flags": {}, "ratio": 1e39}"#,
        #"{"order_id": "A1", "status": "open", "lines": [], "flags": {}, "link": ""}"#,
        #"{"order_id": "A1", "order_id": 5, "status": "open", "lines": [], "flags": {}}"#,
        #"{"order_id": "\uD800", "status": "open", "lines": [], "flags": {}}"#,
        #"{"order_id": "A1", "status": "open", "lines": null, "flags": {}}"#,
        #"{"order_id": "A1", "status": "open", "lines": [], "flags": {}, "total": 1e-400}"#,
        #"[1, 2]"#,
        #""just a string""#,
    ]

    static let manualCases: [String] = [
        #"{"a": 1, "nested": {"b": ["x", null, "y"]}, "c": "z"}"#,
        #"{"a": 1, "nested": {"b": []}}"#,
        #"{"a": 1, "nested": {"b": [1]}}"#,
        #"{"a": 1, "nested": []}"#,
        #"{"a": 1}"#,
    ]

    static func page(_ type: String, _ data: String) -> [UInt8] {
        bytes(#"{"page": {"sections": [{"widgets": [{"type": ""# + type + #"", "id": "w", "data": "# + data + "}]}]}}")
    }

    @Test func fastAndReferencePathsAgreeOnHostTypes() throws {
        for (type, list) in [("order_card", Self.cases), ("manual", Self.manualCases)] {
            for data in list {
                let input = Self.page(type, data)
                let fast = try PageDecoder(registry: Self.registry).decode(input)
                // Literals beyond Foundation's Decimal (1e-400, 1e39) are refused by the
                // reference page decoder; the type-level comparison below still covers them.
                guard ReferencePageDecoder.accepts(input) else { continue }
                let reference = try ReferencePageDecoder(registry: Self.registry).decode(input)
                #expect(keys(fast.diagnostics) == keys(reference.diagnostics), "\(data)")
                #expect(fast.page == reference.page, "\(data)")
            }
        }
    }

    /// The content type alone: TapeDecoder against JSONDecoder, value for value, failure
    /// for failure.
    @Test func tapeDecoderAgreesWithJSONDecoderOnEveryCase() throws {
        func both<T: Decodable & Equatable>(_ type: T.Type, _ text: String) {
            let foundation = try? JSONDecoder().decode(T.self, from: Data(text.utf8))
            let fast: T?
            do {
                let document = try JSONDocument(text)
                fast = try T(from: TapeDecoder(document: document))
            } catch {
                fast = nil
            }
            #expect(fast == foundation, "\(T.self) \(text)")
        }
        for text in Self.cases { both(OrderCard.self, text) }
        for text in Self.manualCases { both(Manual.self, text) }
    }

    @Test func aHostTypeDecodesOnTheFastPath() throws {
        let decoded = try PageDecoder(registry: Self.registry).decode(Self.page("order_card", Self.cases[1]))
        let card = try #require(decoded.page.sections[0].widgets[0].model(as: OrderCard.self))
        #expect(card.status == .shipped)
        #expect(card.placed == Date(timeIntervalSinceReferenceDate: 0))
        #expect(card.link?.absoluteString == "https://x.example/o?a=1")
        #expect(card.total == Decimal(string: "12.5"))
        #expect(card.small == 127)
    }

    @Test func tapeDecoderReadsLikeJSONDecoder() throws {
        struct Everything: Decodable, Equatable {
            let i: Int, u: UInt64, d: Double, f: Float, b: Bool, s: String, o: [String: [Int]], a: [Double?], n: Int?
        }
        let text = #"{"i": -3, "u": 18446744073709551615, "d": 1.5e-3, "f": 0.1, "b": false, "s": "a\u00e9", "o": {"k": [1, 2]}, "a": [null, 2], "n": null}"#
        let document = try JSONDocument(text)
        let fast = try Everything(from: TapeDecoder(document: document))
        let foundation = try JSONDecoder().decode(Everything.self, from: Data(text.utf8))
        #expect(fast == foundation)
    }
}

extension HostContentTests {
    struct Note: Decodable, Equatable, Sendable { let text: String }

    /// The fast path finds a type by its bytes; a spelling that differs in bytes but is the
    /// same Swift string (canonically equivalent) still finds it, by name, as Foundation's
    /// path does; a type registered again replaces the first.
    @Test func typeNamesAreFoundByBytesAndByCanonicalEquivalence() throws {
        var registry = WidgetRegistry()
        registry.register(Note.self, as: "caf\u{E9}")         // é precomposed
        registry.register(Note.self, as: "note")
        registry.register(Note.self, as: "")
        let decomposed = "cafe\u{301}"                        // e + combining acute
        let text = #"{"page":{"sections":[{"widgets":["#
            + #"{"type":"café","id":"a","data":{"text":"1"}},"#
            + #"{"type":"\#(decomposed)","id":"b","data":{"text":"2"}},"#
            + #"{"type":"caf\u00e9","id":"c","data":{"text":"3"}},"#
            + #"{"type":"note","id":"d","data":{"text":"4"}},"#
            + #"{"type":"","id":"e","data":{"text":"5"}},"#
            + #"{"type":"not","id":"f","data":{"text":"6"}},"#
            + #"{"type":"notes","id":"g","data":{"text":"7"}}]}]}}"#
        for threads in [1, 2] {
            let options = PageDecodingOptions(threads: threads, parallelMinimumEntries: 0)
            let fast = try PageDecoder(registry: registry, options: options).decode(Array(text.utf8))
            let reference = try ReferencePageDecoder(registry: registry).decode(Array(text.utf8))
            #expect(fast.page.allWidgets.map(\.id) == ["a", "b", "c", "d", "e"])
            #expect(fast.page.allWidgets.compactMap { $0.content.model(as: Note.self)?.text } == ["1", "2", "3", "4", "5"])
            #expect(fast.diagnostics.map(\.kind) == [.unknownType, .unknownType])
            #expect(fast.page == reference.page)
            #expect(fast.diagnostics.map(\.key) == reference.diagnostics.map(\.key))
        }
    }
}
