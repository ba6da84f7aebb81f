import Testing
@testable import FlowJSON

/// The two places the number code needs more than 64 bits (Foundation's 128-bit `Decimal`
/// mantissa, a number's exact exponent) do without `UInt128`/`Int128`, which need iOS 18 and
/// macOS 15. Checked here against those types, which Linux has.
@Suite struct WideIntegerTests {
    static func wide(_ m: Mantissa128) -> UInt128 { UInt128(m.high) << 64 | UInt128(m.low) }

    @Test func mantissaArithmeticMatchesUInt128() {
        var random = SystemRandomNumberGenerator()
        var values: [UInt128] = [0, 1, 9, 10, UInt128(UInt64.max), UInt128(UInt64.max) + 1, UInt128.max / 10, UInt128.max / 10 + 1, UInt128.max - 5, UInt128.max]
        for _ in 0..<2000 { values.append(UInt128(random.next() as UInt64) << UInt128(random.next() % 65) | UInt128(random.next() as UInt64)) }
        for v in values {
            let m = Mantissa128(high: UInt64(v >> 64), low: UInt64(truncatingIfNeeded: v))
            #expect(Self.wide(m) == v)
            #expect(m.isZero == (v == 0))
            #expect(m.uint64 == (v <= UInt128(UInt64.max) ? UInt64(v) : nil))
            let (q, r) = m.dividedByTen()
            #expect(Self.wide(q) == v / 10 && UInt128(r) == v % 10, "\(v)")
            for digit: UInt64 in [0, 7, 9] {
                let (product, o1) = v.multipliedReportingOverflow(by: 10)
                let (sum, o2) = product.addingReportingOverflow(UInt128(digit))
                let got = m.timesTenPlus(digit)
                #expect(got.map(Self.wide) == (o1 || o2 ? nil : sum), "\(v)·10+\(digit)")
            }
        }
    }

    /// Literals whose values are equal exactly when their exponents, computed in Int128, are.
    @Test func numberEqualityFollowsTheExactExponent() {
        func number(_ s: String) -> JSONNumber { JSONNumber(validated: s) }
        let nines = String(repeating: "9", count: 18), ten18 = "1" + String(repeating: "0", count: 18)
        let pairs: [(String, String, Bool)] = [
            ("1e\(ten18)", "10e\(nines)", true),                 // carry into the high word
            ("1e-\(ten18)", "0.1e-\(nines)", true),              // and out of it, negatively
            ("1e-\(nines)", "10e-\(ten18)", true),
            ("1e\(nines)9", "10e\(nines)8", true),               // 19 digits
            ("5e\(String(repeating: "9", count: 36))", "50e\(String(repeating: "9", count: 35))8", true),
            ("1e\(ten18)", "1e\(nines)", false),
            ("1e-\(ten18)", "1e-\(nines)", false),
            ("-2.50e-\(ten18)", "-25e-1000000000000000001", true),
            ("0e\(ten18)", "-0.0e-5", true),                     // zero is zero
            ("1e0", "1", true), ("100e-2", "1.0", true), ("12e1", "120", true), ("12e1", "121", false),
        ]
        for (a, b, equal) in pairs {
            #expect((number(a) == number(b)) == equal, "\(a) vs \(b)")
            if equal { #expect(number(a).hashValue == number(b).hashValue, "\(a) vs \(b)") }
        }
    }
}
