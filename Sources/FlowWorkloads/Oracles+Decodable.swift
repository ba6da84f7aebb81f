import FlowCore
import Foundation

extension FuzzTarget {
    /// The decodable target: see ``Oracles/decodable(_:)``; the input is a page document.
    public static let decodable: FuzzTarget = {
        var target = FuzzTarget(
            name: "decodable",
            summary: "pages of a host's plain Decodable types: the page oracle, and each widget's data as JSONDecoder reads it",
            seedFolders: [.corpus("decodable")],
            check: { Oracles.decodable($0) })
        target.mutator = EnvelopeMutator(format: .document, typeNames: DecodableContent.registry.typeNames, pages: [])
        return target
    }()
}

/// Content types as a host writes them: plain `Decodable` (not ``FlowDecodable``), so the
/// fast path decodes them through `TapeDecoder`, the `Decoder` over FlowJSON's index, and
/// the reference path through Foundation's `JSONDecoder`. Between them they ask for every
/// kind of value a `Decoder` serves: integers of each width, floating point, strings, Bools,
/// optionals (absent and null), arrays, nested structs, dictionaries, enums with raw values,
/// `Date`, `Data`, `URL`, `Decimal`, each scalar type's own overloads (``Gauge``), and
/// (``Ledger``) the container calls synthesized code never makes.
public enum DecodableContent {
    public enum Tier: String, Decodable, Sendable, Equatable { case bronze, silver, gold }
    public enum Priority: Int, Decodable, Sendable, Equatable { case low = 1, normal = 2, high = 3 }

    public struct Size: Decodable, Sendable, Equatable {
        public let width: Double
        public let height: Float
        public let unit: String?
    }

    /// Synthesized `Decodable`, snake_case keys through `CodingKeys`.
    public struct Product: Decodable, Sendable, Equatable {
        public let sku: String
        public let quantity: Int
        public let price: Double
        public let inStock: Bool
        public let note: String?
        public let tags: [String]
        public let ratings: [Double]?
        public let size: Size?
        public let tier: Tier
        public let priority: Priority?
        public let stock: [String: Int]
        public let variants: [Size]?

        enum CodingKeys: String, CodingKey {
            case sku, quantity, price, note, tags, ratings, size, tier, priority, stock, variants
            case inStock = "in_stock"
        }
    }

    /// Every fixed-width integer, and the types `JSONDecoder` treats specially.
    public struct Reading: Decodable, Sendable, Equatable {
        public let i8: Int8?
        public let i16: Int16?
        public let i32: Int32?
        public let i64: Int64?
        public let u: UInt?
        public let u8: UInt8?
        public let u16: UInt16?
        public let u32: UInt32?
        public let u64: UInt64?
        public let at: Date?
        public let blob: Data?
        public let link: URL?
        public let amount: Decimal?
        public let matrix: [[Int]]?
        public let flags: [Bool?]?
    }

    /// Every scalar type a `Decoder` serves by name (its own overload in each container):
    /// as a required key, an optional one, an array's elements (an unkeyed container) and,
    /// in ``Singles``, a single-value container.
    public struct Gauge: Decodable, Sendable, Equatable {
        public let i8: Int8, i16: Int16, i32: Int32, i64: Int64, u: UInt, u8: UInt8, u16: UInt16, u32: UInt32, u64: UInt64
        public let f: Float, d: Double, b: Bool, n: Int
        public let on: Bool?, ratio: Double?, scale: Float?, count: Int?, label: String?
        public let bools: [Bool]?, doubles: [Double]?, floats: [Float]?, ints: [Int]?, strings: [String]?
        public let i8s: [Int8]?, i16s: [Int16]?, i32s: [Int32]?, i64s: [Int64]?
        public let us: [UInt]?, u8s: [UInt8]?, u16s: [UInt16]?, u32s: [UInt32]?, u64s: [UInt64]?
        public let singles: Singles?
    }

    /// Each member read through its own single-value container (a super decoder per key);
    /// then `list`'s elements, as many as there are, through the unkeyed container's
    /// overload for each type in turn. The calls are spelled out one per type on purpose: a
    /// generic helper would reach the containers' generic `decode<T>`, not these overloads.
    public struct Singles: Decodable, Sendable, Equatable {
        public var values: [String] = []

        enum Keys: String, CodingKey { case i8, i16, i32, i64, u, u8, u16, u32, u64, f, d, b, n, s, list }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            func single(_ key: Keys) throws -> (any SingleValueDecodingContainer)? {
                container.contains(key) ? try container.superDecoder(forKey: key).singleValueContainer() : nil
            }
            if let c = try single(.i8) { values.append("\(try c.decode(Int8.self))") }
            if let c = try single(.i16) { values.append("\(try c.decode(Int16.self))") }
            if let c = try single(.i32) { values.append("\(try c.decode(Int32.self))") }
            if let c = try single(.i64) { values.append("\(try c.decode(Int64.self))") }
            if let c = try single(.u) { values.append("\(try c.decode(UInt.self))") }
            if let c = try single(.u8) { values.append("\(try c.decode(UInt8.self))") }
            if let c = try single(.u16) { values.append("\(try c.decode(UInt16.self))") }
            if let c = try single(.u32) { values.append("\(try c.decode(UInt32.self))") }
            if let c = try single(.u64) { values.append("\(try c.decode(UInt64.self))") }
            if let c = try single(.f) { values.append("\(try c.decode(Float.self))") }
            if let c = try single(.d) { values.append("\(try c.decode(Double.self))") }
            if let c = try single(.b) { values.append("\(try c.decode(Bool.self))") }
            if let c = try single(.n) { values.append("\(try c.decode(Int.self))") }
            if let c = try single(.s) { values.append(c.decodeNil() ? "nil" : try c.decode(String.self)) }
            guard container.contains(.list) else { return }
            var list = try container.nestedUnkeyedContainer(forKey: .list)
            if !list.isAtEnd { values.append("\(try list.decode(Bool.self))") }
            if !list.isAtEnd { values.append("\(try list.decode(Double.self))") }
            if !list.isAtEnd { values.append("\(try list.decode(Float.self))") }
            if !list.isAtEnd { values.append("\(try list.decode(Int8.self))") }
            if !list.isAtEnd { values.append("\(try list.decode(Int16.self))") }
            if !list.isAtEnd { values.append("\(try list.decode(Int32.self))") }
            if !list.isAtEnd { values.append("\(try list.decode(Int64.self))") }
            if !list.isAtEnd { values.append("\(try list.decode(UInt.self))") }
            if !list.isAtEnd { values.append("\(try list.decode(UInt8.self))") }
            if !list.isAtEnd { values.append("\(try list.decode(UInt16.self))") }
            if !list.isAtEnd { values.append("\(try list.decode(UInt32.self))") }
            if !list.isAtEnd { values.append("\(try list.decode(UInt64.self))") }
        }
    }

    /// A hand-written `init(from:)`: nested keyed and unkeyed containers, `contains`,
    /// `decodeNil`, `allKeys`, super decoders and single-value containers, on both paths.
    public struct Ledger: Decodable, Sendable, Equatable {
        public var title: String
        public var keys: [String]
        public var entries: [Int]
        public var nulls: Int
        public var totals: [String: Double]
        public var parent: String?
        public var first: Tier?
        /// From `grid`: element 3k an object (its `name`), 3k+1 an array of strings, 3k+2 a
        /// string read through a super decoder.
        public var cells: [String]
        /// From `range`: exactly two integers read, whatever the array holds (fewer fails).
        public var range: [Int]

        enum Keys: String, CodingKey { case title, entries, totals, parent, first, grid, range }

        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue).sorted()
            title = try container.decode(String.self, forKey: .title)
            entries = []
            nulls = 0
            if container.contains(.entries), !(try container.decodeNil(forKey: .entries)) {
                var list = try container.nestedUnkeyedContainer(forKey: .entries)
                while !list.isAtEnd {
                    if try list.decodeNil() { nulls += 1 } else { entries.append(try list.decode(Int.self)) }
                }
            }
            totals = [:]
            if container.contains(.totals) {
                let nested = try container.nestedContainer(keyedBy: AnyKey.self, forKey: .totals)
                for key in nested.allKeys { totals[key.stringValue] = try nested.decode(Double.self, forKey: key) }
            }
            parent = try container.contains(.parent)
                ? container.superDecoder(forKey: .parent).singleValueContainer().decode(String?.self) : nil
            first = try container.decodeIfPresent([Tier].self, forKey: .first)?.first
            cells = []
            if container.contains(.grid) {
                var grid = try container.nestedUnkeyedContainer(forKey: .grid)
                while !grid.isAtEnd {
                    switch grid.currentIndex % 3 {
                    case 0: cells.append(try grid.nestedContainer(keyedBy: AnyKey.self).decode(String.self, forKey: AnyKey(stringValue: "name")))
                    case 1:
                        var strings = try grid.nestedUnkeyedContainer()
                        while !strings.isAtEnd { cells.append(try strings.decode(String.self)) }
                    default: cells.append(try grid.superDecoder().singleValueContainer().decode(String.self))
                    }
                }
            }
            range = []
            if container.contains(.range) {
                var pair = try container.nestedUnkeyedContainer(forKey: .range)
                range = [try pair.decode(Int.self), try pair.decode(Int.self)]
            }
        }
    }

    /// The registry the target decodes with: the starter types and these.
    public static let registry: WidgetRegistry = {
        var registry = Oracles.registry
        registry.register(Product.self, as: "product")
        registry.register(Reading.self, as: "reading")
        registry.register(Ledger.self, as: "ledger")
        registry.register(Gauge.self, as: "gauge")
        return registry
    }()

    /// For each registered type name: decodes a widget's data with Foundation's `JSONDecoder`
    /// and compares with the content the page holds (nil: none, with a reason).
    static let agreement: [String: @Sendable (_ data: [UInt8], _ content: WidgetContent) -> String?] = [
        "product": { agree(Product.self, $0, $1) },
        "reading": { agree(Reading.self, $0, $1) },
        "ledger": { agree(Ledger.self, $0, $1) },
        "gauge": { agree(Gauge.self, $0, $1) },
    ]

    /// Same success or failure, and the same value when both succeed. The page holds a
    /// model when the fast path decoded the data, a `malformed_payload` placeholder when it
    /// failed (any other placeholder is about something else: skipped).
    static func agree<T: Decodable & Equatable & Sendable>(_ type: T.Type, _ data: [UInt8], _ content: WidgetContent) -> String? {
        let foundation = Result { try JSONDecoder().decode(T.self, from: Data(data)) }
        switch (content, foundation) {
        case (.model, .success(let expected)):
            guard let value = content.model(as: T.self) else { return "the model is not a \(T.self)" }
            return value == expected ? nil : "TapeDecoder gives \(value), JSONDecoder \(expected)"
        case (.model, .failure(let error)):
            return "TapeDecoder decodes what JSONDecoder rejects (\(error))"
        case (.placeholder(.malformedPayload), .success(let expected)):
            return "TapeDecoder rejects what JSONDecoder decodes (\(expected))"
        case (.placeholder, _):
            return nil
        }
    }
}

extension Oracles {
    /// The decodable oracle: a page whose widgets include a host's plain `Decodable` types
    /// (``DecodableContent``).
    /// - the page oracle (``page(_:options:registry:)``) through their registry: the fast
    ///   path (TapeDecoder) and the reference path (JSONDecoder over the whole page) agree;
    /// - each widget of those types, decoded with placeholders kept: its content agrees with
    ///   `JSONDecoder` on the widget's own `data` (``DecodableContent/agree(_:_:_:)``), the
    ///   data's zeros respelled as Foundation takes them (``zerosRespelledForFoundation(_:)``:
    ///   the one known divergence). A widget without data, or with `null`, decodes `{}`.
    public static func decodable(_ bytes: [UInt8]) -> [String] {
        var failures = page(bytes, registry: DecodableContent.registry)
        var options = PageDecodingOptions(placeholders: true)
        options.threads = 1
        guard let decoded = try? PageDecoder(registry: DecodableContent.registry, options: options).decode(bytes) else {
            return failures
        }
        for widget in decoded.page.allWidgets {
            guard let agree = DecodableContent.agreement[widget.type] else { continue }
            var data = widget.data.kind == .null ? Array("{}".utf8) : widget.data.jsonBytes
            data = zerosRespelledForFoundation(data) ?? data
            if let failure = agree(data, widget.content) { failures.append("\(widget.type) \(widget.id): \(failure)") }
        }
        return failures
    }
}
