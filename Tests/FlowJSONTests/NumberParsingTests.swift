import Foundation
import Testing
@testable import FlowJSON

/// Typed number conversion must match Foundation's JSONDecoder exactly (the page contract, "Widgets", §10): the
/// expectations here are not written by hand, they are what JSONDecoder answers on this
/// machine for the same literal.
@Suite struct NumberParsingTests {
    struct Box<T: Decodable>: Decodable { let v: T }

    static func foundation<T: Decodable>(_ literal: String, as: T.Type) -> T? {
        try? JSONDecoder().decode(Box<T>.self, from: Data("{\"v\":\(literal)}".utf8)).v
    }

    static func ours<T: FixedWidthInteger>(_ literal: String, as: T.Type) -> T? {
        let document = try! JSONDocument(literal)
        return document.withView { view in
            JSONNumberParsing.integer(view.rawBytes(0), isIntegerLiteral: view.flag(0), as: T.self)
        }
    }

    static func oursDouble(_ literal: String) -> Double? {
        Array(literal.utf8).withUnsafeBufferPointer { JSONNumberParsing.double($0) }
    }

    /// Foundation traps (SIGILL) on some literals it routes through Decimal; never hand it one.
    static func foundationWouldTrap(_ literal: String) -> Bool {
        Array(literal.utf8).withUnsafeBufferPointer { s in
            let d = JSONNumberParsing.nearestDouble(s)
            let plain = !literal.contains(where: { ".eE".contains($0) })
            return !plain && d.isFinite && d == d.rounded(.towardZero) && d.magnitude >= 9_007_199_254_740_992
                && d.magnitude <= 18_446_744_073_709_551_616 && FoundationDecimal(s) == nil
        }
    }

    static let tableLiterals = [
        "2", "2.0", "2e0", "2E0", "2e+0", "2e-0", "2.5", "1e30", "1e-400", "-0", "-0.0", "0e5", "0.0", "-0e0",
        "0e-999999", "9007199254740992", "9007199254740993", "9007199254740993.0", "9007199254740993.5",
        "9007199254740995.9", "-9007199254740993.5", "9007199254740993.1234", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "9223372036854775807.0",
        "9223372036854775806.5", "-9223372036854775808.0", "9.223372036854775807e18", "9223372036854775808.0",
        "18446744073709551615", "18446744073709551616", "18446744073709551615.0", "1.8446744073709551615e19",
        "1.5e1", "100e-2", "0.1e1", "1e2", "1E2", "12345678901234567890e-10", "1234567890000000000e-10",
        "100000000000000000000000000000.000000000000000000000000001", "123456789012345678901234567890.5e-29",
        "1.00000000000000000000000000000000000000000000e1", "10000000000000000000000000000000000000000e-40",
        "100000000000000000000000000000000000000000e-40", "-1", "128", "127.0", "-128", "-129", "-128.0",
        "255.0", "255", "256", "256.0", "2.0000000000000001", "1.9999999999999999", "2.000000000000001",
        "0.99999999999999999", "1e15", "1e16", "1e17", "1e18", "1e19", "1e20", "1.0e18", "10e17",
        "4611686018427387904e1", "1e99999999999", "1e-99999999999", "0e99999999999", "-1e99999999999", "0.5",
        "-0.5", "0.9999999", "1e-1", "-1e-400", "1e400", "-1e400", "2e-324", "3e-324", "4.9e-324", "1e-320",
        "2.4703282292062327e-324", "2.4703282292062328e-324", "2.2250738585072011e-308", "0e-400", "0.0e999",
        "1.7976931348623157e308", "1.7976931348623159e308", "1.797693134862315807e308",
        "1.7976931348623158079e308", "1.797693134862315808e308", "0.1", "123.456e-7",
        "9007199254740993" + String(repeating: "0", count: 200) + "e-200",
        "1" + String(repeating: "0", count: 300) + "e-284",
    ]

    /// A deterministic spread over the shapes that matter: plain integers near the type
    /// limits, fractions and exponents that land on or near integers, long digit strings.
    static let generatedLiterals: [String] = {
        var rng = SplitMix(seed: 0x5EED)
        var result: [String] = []
        let pivots: [String] = ["9007199254740992", "9223372036854775807", "18446744073709551615", "2147483647", "4294967295", "32767", "255"]
        for _ in 0..<3000 {
            var s = rng.next() % 4 == 0 ? "-" : ""
            switch rng.next() % 6 {
            case 0: s += pivots[Int(rng.next() % UInt64(pivots.count))]
            case 1: s += String(rng.next() % 100_000)
            case 2: s += String(rng.next())
            case 3: s += String(1 + rng.next() % 9) + String(repeating: "0", count: Int(rng.next() % 30))
            case 4: s += String(rng.next() % 10)
            default: s += String(1 + rng.next() % 9) + (0..<Int(rng.next() % 45)).map { _ in String(rng.next() % 10) }.joined()
            }
            switch rng.next() % 4 {
            case 0: s += "." + (0..<Int(1 + rng.next() % 25)).map { _ in String(rng.next() % 10) }.joined()
            case 1: s += ".0"
            default: break
            }
            if rng.next() % 3 == 0 {
                let e = Int(rng.next() % 60) - 30
                s += (rng.next() % 2 == 0 ? "e" : "E") + String(e)
            }
            result.append(s)
        }
        return result
    }()

    static var allLiterals: [String] { tableLiterals + generatedLiterals }

    func compareIntegers<T: FixedWidthInteger & Decodable>(_: T.Type) {
        var compared = 0
        for literal in Self.allLiterals where !Self.foundationWouldTrap(literal) {
            #expect(Self.ours(literal, as: T.self) == Self.foundation(literal, as: T.self), "\(T.self) \(literal)")
            compared += 1
        }
        #expect(compared > 2500)
    }

    @Test func int64MatchesFoundation() { compareIntegers(Int64.self) }
    @Test func uint64MatchesFoundation() { compareIntegers(UInt64.self) }
    @Test func intMatchesFoundation() { compareIntegers(Int.self) }
    @Test func int32MatchesFoundation() { compareIntegers(Int32.self) }
    @Test func uint8MatchesFoundation() { compareIntegers(UInt8.self) }
    @Test func int8MatchesFoundation() { compareIntegers(Int8.self) }

    /// Foundation's answer, but for a literal that is exactly zero, which is zero however it
    /// is spelled (the page contract, "Numbers"), where Foundation's zero check refuses some spellings.
    static func expectedDouble(_ literal: String) -> Double? {
        let zero = Array(literal.utf8).withUnsafeBufferPointer { JSONNumberParsing.isZero($0) }
        return zero ? (literal.hasPrefix("-") ? -0.0 : 0.0) : foundation(literal, as: Double.self)
    }

    @Test func doubleMatchesFoundationBitForBit() {
        for literal in Self.allLiterals {
            let expected = Self.expectedDouble(literal)
            let actual = Self.oursDouble(literal)
            #expect(actual?.bitPattern == expected?.bitPattern, "\(literal): ours \(String(describing: actual)), Foundation \(String(describing: expected))")
        }
    }

    @Test func theIssueEdgeCases() {
        #expect(Self.oursDouble("-0")?.sign == .minus)
        #expect(Self.oursDouble("1E400") == nil)
        #expect(Self.oursDouble("1e-400") == nil)
        #expect(Self.ours("9007199254740993", as: Int64.self) == 9_007_199_254_740_993)
        #expect(Self.oursDouble("9007199254740993") == 9_007_199_254_740_992)
        #expect(Self.ours("1e-400", as: Int.self) == 0)
        #expect(Self.ours("1" + String(repeating: "0", count: 300) + "e-284", as: Int64.self) == nil)
    }

    @Test func decimalExactnessIsKnown() {
        func exact(_ s: String) -> Bool { Array(s.utf8).withUnsafeBufferPointer { JSONNumberParsing.isExactInFoundationDecimal($0) } }
        #expect(exact("9007199254740993"))
        #expect(exact("0.1000000000000000055511151231257827"))
        #expect(exact("-1.5e-7"))
        #expect(!exact("1.00000000000000000000000000000000000000000000000001"))
        #expect(!exact("1e400"))
        #expect(!exact("1e-129"))
        #expect(!exact("0e1000"))
    }
}

/// A tiny deterministic generator for test inputs.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension NumberParsingTests {
    /// Every spelling of zero reads as zero (with its sign), where Foundation's zero check,
    /// reading the tail of the literal back to front, refuses some
    /// (`JSONNumberParsing.foundationSaysTrueZero`, which must keep matching Foundation: the
    /// agreement checks use it to know where the two decoders differ).
    @Test func everyZeroSpellingIsZeroAndFoundationsQuirkIsKnown() {
        var literals: [String] = []
        for sign in ["", "-"] {
            for fraction in ["", ".0", ".00", ".000", ".0000000000"] {
                for marker in ["e", "E"] {
                    for expSign in ["", "+", "-"] {
                        for digits in ["0", "1", "5", "9", "00", "05", "10", "11", "19", "50", "99", "100", "308", "400", "999"] {
                            literals.append(sign + "0" + fraction + marker + expSign + digits)
                        }
                    }
                }
            }
        }
        literals += ["0." + String(repeating: "0", count: 326) + "1e0", "0." + String(repeating: "0", count: 325) + "1e0", "1e-400", "2e-324"]
        var refusedByFoundation = 0
        for literal in literals {
            let zero = Array(literal.utf8).withUnsafeBufferPointer { JSONNumberParsing.isZero($0) }
            let foundation = Self.foundation(literal, as: Double.self)
            let foundationSaysZero = Array(literal.utf8).withUnsafeBufferPointer { JSONNumberParsing.foundationSaysTrueZero($0) }
            if zero {
                #expect(Self.oursDouble(literal)?.bitPattern == (literal.hasPrefix("-") ? -0.0 : 0.0).bitPattern, "Double \(literal)")
                let float = Array(literal.utf8).withUnsafeBufferPointer { JSONNumberParsing.float($0) }
                #expect(float?.bitPattern == (literal.hasPrefix("-") ? Float(-0.0) : 0).bitPattern, "Float \(literal)")
                #expect((foundation != nil) == foundationSaysZero, "the quirk's model, \(literal)")
                if foundation == nil { refusedByFoundation += 1 }
            } else {
                #expect(Self.oursDouble(literal)?.bitPattern == foundation?.bitPattern, "Double \(literal)")
                let expectedFloat = Self.foundation(literal, as: Float.self)
                let ours = Array(literal.utf8).withUnsafeBufferPointer { JSONNumberParsing.float($0) }
                #expect(ours?.bitPattern == expectedFloat?.bitPattern, "Float \(literal)")
            }
        }
        #expect(refusedByFoundation > 50, "Foundation refuses spellings of zero such as 0e5: the divergence is real")
        #expect(Self.foundation("0e5", as: Double.self) == nil && Self.oursDouble("0e5") == 0)
    }
}
