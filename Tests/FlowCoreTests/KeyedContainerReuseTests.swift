import Foundation
import Testing
@testable import FlowCore
import FlowJSON

/// The tape decoder hands the keyed container a widget's content let go of to the next
/// widget of the same type, pointed at the next object: no allocation, no type lookups for
/// a struct of scalars. These tests hold it to what a container must still do: read its
/// own object, wherever it is kept and however the values nest.
@Suite struct KeyedContainerReuseTests {
    static func page(_ widgets: [String]) -> [UInt8] {
        Array(#"{"page":{"sections":[{"widgets":[\#(widgets.joined(separator: ","))]}]}}"#.utf8)
    }

    static func decode(_ registry: WidgetRegistry, _ widgets: [String]) throws -> Page {
        try PageDecoder(registry: registry, options: PageDecodingOptions(threads: 1)).decode(page(widgets)).page
    }

    /// Which decoder a widget's content was given, and how many containers it had made then.
    struct Probe: Decodable, Sendable {
        let amount: Double
        let label: String?
        let decoder: ObjectIdentifier
        let made: Int
        enum CodingKeys: String, CodingKey { case amount, label }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            amount = try c.decode(Double.self, forKey: .amount)
            label = try c.decodeIfPresent(String.self, forKey: .label)
            guard let tape = decoder as? TapeDecoder else { throw CancellationError() }
            self.decoder = ObjectIdentifier(tape)
            made = tape.containersMade
        }
    }

    @Test func aPageOfOneTypeMakesOneContainer() throws {
        #expect(TapeDecoder.containersAreOneBox, "this standard library's keyed container is one box")
        var registry = WidgetRegistry()
        registry.register(Probe.self, as: "probe")
        let widgets = (0..<50).map { n in
            #"{"type":"probe","id":"p\#(n)","data":{"amount":\#(n)\#(n % 3 == 0 ? #","label":"L\#(n)""# : "")}}"#
        }
        let probes = try Self.decode(registry, widgets).allWidgets.compactMap { $0.model(as: Probe.self) }
        #expect(probes.count == 50)
        #expect(probes.map(\.amount) == (0..<50).map(Double.init))
        #expect(probes.map(\.label) == (0..<50).map { $0 % 3 == 0 ? "L\($0)" : nil })
        #expect(Set(probes.map(\.decoder)).count == 1, "one decoder for the page")
        #expect(probes.map(\.made) == Array(repeating: 1, count: 50), "one container, handed out again")
    }

    /// A value may keep its container and read it later; the next widgets then get another.
    struct Keeper: Decodable, @unchecked Sendable {
        enum CodingKeys: String, CodingKey { case label, keep }
        let container: KeyedDecodingContainer<CodingKeys>?
        let label: String
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            label = try c.decode(String.self, forKey: .label)
            container = try c.decodeIfPresent(Bool.self, forKey: .keep) == true ? c : nil
        }
    }

    @Test func aContainerKeptByItsValueReadsItsOwnObject() throws {
        var registry = WidgetRegistry()
        registry.register(Keeper.self, as: "keeper")
        let widgets = (0..<12).map { n in
            #"{"type":"keeper","id":"k\#(n)","data":{"label":"L\#(n)"\#(n % 4 == 1 ? #","keep":true"# : "")}}"#
        }
        var page: Page? = try Self.decode(registry, widgets)
        let keepers = page!.allWidgets.compactMap { $0.model(as: Keeper.self) }
        page = nil
        #expect(keepers.map(\.label) == (0..<12).map { "L\($0)" })
        let kept = keepers.compactMap(\.container)
        #expect(kept.count == 3)
        #expect(try kept.map { try $0.decode(String.self, forKey: .label) } == ["L1", "L5", "L9"])
        #expect(kept.map { $0.contains(.keep) } == [true, true, true])
    }

    /// A value that keeps its decoder and asks it for a container after the decode gets one
    /// of its own, which stays readable when the value and the decoder are gone.
    @Test func aContainerAskedForAfterTheDecodeOutlivesItsDecoder() throws {
        struct Late: Decodable, @unchecked Sendable {
            enum CodingKeys: String, CodingKey { case label }
            let decoder: any Decoder
            init(from decoder: any Decoder) throws {
                _ = try decoder.container(keyedBy: CodingKeys.self)
                self.decoder = decoder
            }
        }
        var registry = WidgetRegistry()
        registry.register(Late.self, as: "late")
        let widgets = (0..<3).map { #"{"type":"late","id":"l\#($0)","data":{"label":"L\#($0)"}}"# }
        var page: Page? = try Self.decode(registry, widgets)
        let containers = try page!.allWidgets.map { try #require($0.model(as: Late.self)).decoder.container(keyedBy: Late.CodingKeys.self) }
        page = nil
        #expect(try containers.map { try $0.decode(String.self, forKey: .label) } == ["L0", "L1", "L2"])
    }

    /// A value nested in one of its own type: the inner one gets a container of its own
    /// while the outer one's is in use, and both read as Foundation reads them.
    struct Node: Decodable, Equatable, Sendable {
        let name: String
        let weight: Double?
        let children: [Node]?
    }

    @Test func nestedValuesOfOneTypeReadAsFoundationReadsThem() throws {
        var registry = WidgetRegistry()
        registry.register(Node.self, as: "node")
        let data = [
            #"{"name":"a","children":[{"name":"b","weight":2},{"name":"c","children":[{"name":"d"}]}],"weight":1}"#,
            #"{"name":"e"}"#,
            #"{"children":[],"name":"f","weight":0.5}"#,
        ]
        let widgets = data.enumerated().map { #"{"type":"node","id":"n\#($0.offset)","data":\#($0.element)}"# }
        let nodes = try Self.decode(registry, widgets).allWidgets.compactMap { $0.model(as: Node.self) }
        let expected = try data.map { try JSONDecoder().decode(Node.self, from: Data($0.utf8)) }
        #expect(nodes == expected)
    }

    /// An object whose key does not decode fails its widget alone; the container handed out
    /// again afterwards reads the next objects.
    @Test func aKeyThatDoesNotDecodeFailsItsWidgetAlone() throws {
        var registry = WidgetRegistry()
        registry.register(Probe.self, as: "probe")
        let widgets = [
            #"{"type":"probe","id":"p0","data":{"amount":1}}"#,
            #"{"type":"probe","id":"p1","data":{"amount":2,"\ud800":3}}"#,
            #"{"type":"probe","id":"p2","data":{"label":"three","amount":3}}"#,
        ]
        let page = try Self.decode(registry, widgets)
        #expect(page.allWidgets.map(\.id) == ["p0", "p2"])
        let probes = page.allWidgets.compactMap { $0.model(as: Probe.self) }
        #expect(probes.map(\.amount) == [1, 3])
        #expect(probes.map(\.label) == [nil, "three"])
        #expect(probes.map(\.made) == [1, 1])
    }

    /// Keys asked for out of the document's order, twice, and absent, in objects with and
    /// without a duplicate key: each answer is Foundation's (the first occurrence wins).
    struct Shuffled: Decodable, Equatable, Sendable {
        let c: Int, a: Int, cAgain: Int, b: Int?, aAgain: Int, z: Int?
        enum CodingKeys: String, CodingKey { case a, b, c, z }
        init(from decoder: any Decoder) throws {
            let k = try decoder.container(keyedBy: CodingKeys.self)
            c = try k.decode(Int.self, forKey: .c)
            a = try k.decode(Int.self, forKey: .a)
            // Right after `a` in the fifth object stands a second `c`: the first one wins.
            cAgain = try k.decode(Int.self, forKey: .c)
            b = try k.decodeIfPresent(Int.self, forKey: .b)
            aAgain = try k.decode(Int.self, forKey: .a)
            z = try k.decodeIfPresent(Int.self, forKey: .z)
        }
    }

    @Test func keysAskedOutOfOrderReadAsFoundationReadsThem() throws {
        var registry = WidgetRegistry()
        registry.register(Shuffled.self, as: "shuffled")
        let data = [
            #"{"a":1,"b":2,"c":3}"#,
            #"{"c":3,"a":1}"#,
            #"{"a":1,"a":9,"c":3,"b":2}"#,
            #"{"b":2,"c":3,"a":1,"c":8}"#,
            #"{"a":1,"b":2,"c":3,"z":26}"#,
            #"{"c":3,"a":1,"c":9}"#,
        ]
        let widgets = data.enumerated().map { #"{"type":"shuffled","id":"s\#($0.offset)","data":\#($0.element)}"# }
        let models = try Self.decode(registry, widgets).allWidgets.compactMap { $0.model(as: Shuffled.self) }
        let expected = try data.map { try JSONDecoder().decode(Shuffled.self, from: Data($0.utf8)) }
        #expect(models == expected)
        #expect(models.map(\.a) == [1, 1, 1, 1, 1, 1])
        #expect(models.map(\.cAgain) == [3, 3, 3, 3, 3, 3])
    }

    /// Names of every kind the lookup treats apart: empty, short, longer than a learned name
    /// holds, not ASCII, and one (the Kelvin sign) that is canonically equal to an ASCII key.
    struct Named: Decodable, Equatable, Sendable {
        enum Key: Int, CodingKey, CaseIterable {
            case empty, short, long, accented, kelvin
            var stringValue: String { ["", "short", "a_key_longer_than_sixteen_bytes", "größe", "\u{212A}"][rawValue] }
            init?(stringValue: String) { nil }
        }
        let values: [Int?]
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            // Twice each, in an order the documents do not share.
            values = try (Key.allCases.reversed() + Key.allCases).map { try c.decodeIfPresent(Int.self, forKey: $0) }
        }
    }

    @Test func keyNamesOfEveryKindReadAsFoundationReadsThem() throws {
        var registry = WidgetRegistry()
        registry.register(Named.self, as: "named")
        let data = [
            #"{"":1,"short":2,"a_key_longer_than_sixteen_bytes":3,"größe":4,"K":5}"#,
            #"{"K":5,"short":2}"#,
            #"{"a_key_longer_than_sixteen_bytes":3,"":1,"shor":7,"shortt":8}"#,
            #"{"short":2,"short":9,"größe":4}"#,
            #"{}"#,
        ]
        let widgets = (0..<20).map { n in #"{"type":"named","id":"n\#(n)","data":\#(data[n % data.count])}"# }
        let models = try Self.decode(registry, widgets).allWidgets.compactMap { $0.model(as: Named.self) }
        let expected = try data.map { try JSONDecoder().decode(Named.self, from: Data($0.utf8)) }
        #expect(models == (0..<20).map { expected[$0 % data.count] })
        #expect(expected[1].values == [5, nil, nil, 2, nil, nil, 2, nil, nil, 5], "the Kelvin sign finds \"K\"")
    }

    /// Counts how often a key type is asked for its names.
    final class NameCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    struct Counted: Decodable, Equatable, Sendable {
        static let asked = NameCount()
        enum Key: Int, CodingKey {
            case amount, label, absent
            var stringValue: String {
                Counted.asked.add()
                return ["amount", "label", "absent"][rawValue]
            }
            init?(stringValue: String) { nil }
        }
        let amount: Double, label: String?, absent: Int?
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            amount = try c.decode(Double.self, forKey: .amount)
            label = try c.decodeIfPresent(String.self, forKey: .label)
            absent = try c.decodeIfPresent(Int.self, forKey: .absent)
        }
    }

    @Test func aKeysNameIsAskedOncePerContainer() throws {
        var registry = WidgetRegistry()
        registry.register(Counted.self, as: "counted")
        let widgets = (0..<50).map { n in
            #"{"type":"counted","id":"c\#(n)","data":{"amount":\#(n)\#(n % 2 == 0 ? #","label":"L""# : "")}}"#
        }
        let before = Counted.asked.value
        let models = try Self.decode(registry, widgets).allWidgets.compactMap { $0.model(as: Counted.self) }
        #expect(Counted.asked.value - before == 3, "one container for the page, and each of its three keys asked once")
        #expect(models.map(\.amount) == (0..<50).map(Double.init))
        #expect(models.map(\.label) == (0..<50).map { $0 % 2 == 0 ? "L" : nil })
        #expect(models.allSatisfy { $0.absent == nil })
    }

    /// A key of one byte that is not an enum: its name is a function of its byte.
    struct Letter: CodingKey {
        let code: UInt8
        var stringValue: String { String(UnicodeScalar(code)) }
        var intValue: Int? { nil }
        init(_ code: Character) { self.code = code.asciiValue! }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }

    struct Letters: Decodable, Equatable, Sendable {
        let values: [Int?]
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Letter.self)
            values = try "zyxa".map { try c.decodeIfPresent(Int.self, forKey: Letter($0)) }
        }
    }

    @Test func keysOfOneByteAreKnownByTheirByte() throws {
        #expect(MemoryLayout<Letter>.size == 1)
        var registry = WidgetRegistry()
        registry.register(Letters.self, as: "letters")
        let data = [#"{"a":1,"x":2,"y":3}"#, #"{"z":4}"#, #"{"y":5,"a":6}"#]
        let widgets = (0..<9).map { n in #"{"type":"letters","id":"l\#(n)","data":\#(data[n % 3])}"# }
        let models = try Self.decode(registry, widgets).allWidgets.compactMap { $0.model(as: Letters.self) }
        let expected = try data.map { try JSONDecoder().decode(Letters.self, from: Data($0.utf8)) }
        #expect(expected.map(\.values) == [[nil, 3, 2, 1], [4, nil, nil, nil], [nil, 5, nil, 6]])
        #expect(models == (0..<9).map { expected[$0 % 3] })
    }
}
