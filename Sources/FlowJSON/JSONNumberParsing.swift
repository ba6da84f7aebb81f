/// Conversions from a validated JSON number literal to Swift numbers.
///
/// These are the rules every decoder in the library uses for typed fields. They reproduce
/// Foundation's `JSONDecoder` (swift-foundation, as shipped with Swift 6.3) exactly, because
/// the fast decoder is checked against it on every input:
/// - **Double** (and Float, converted straight from the text): correctly rounded; a result
///   that overflows to infinity is refused (`1e400`); subnormals (`1e-320`) and `-0` are
///   kept. A literal that is zero reads as zero however it is spelled (`0e5`, `0E9`,
///   `0.00e5`, `-0e3`). Any other literal that rounds to zero (an underflow: `1e-400`,
///   `2e-324`) is refused, as Foundation refuses it, except where Foundation's zero check
///   takes it. That check reads the bytes past the last whole 4-byte block back to front,
///   so when the exponent marker falls there its digits are seen first: it refuses `0e5`
///   and `0.00e2` (where we differ, on purpose) while taking `0e10`, `0.0e5` and an
///   underflowing `0.000…001e0` (which we take too: the decoders agree wherever the value
///   allows). See ``foundationSaysTrueZero(_:)``.
/// - **Integers**: a plain literal (`-?digits`) that fits the type is taken as is. Any other
///   spelling goes through the correctly rounded Double D, which must be integral and in
///   range; below 2^53 the result is D (so `2.0000000000000001` reads as 2 and `1e-400` as
///   0); from 2^53 up the literal is re-read as a Foundation `Decimal` and truncated toward
///   zero (`9007199254740993.5` reads as 9007199254740993). Where Foundation's own decoder
///   traps on such a literal (a Decimal exponent overflow), we refuse the value instead.
public enum JSONNumberParsing {
    /// The value of a plain integer literal (no fraction, no exponent) when it fits Int64.
    @inlinable
    public static func exactInt64(_ s: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !s.isEmpty else { return nil }
        var i = 0
        let negative = s[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        guard i < s.count else { return nil }
        // Accumulate negatively so Int64.min is reachable.
        var value: Int64 = 0
        while i < s.count {
            let d = s[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (r, o2) = m.subtractingReportingOverflow(Int64(d))
            if o1 || o2 { return nil }
            value = r
            i += 1
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    /// The value of a plain non-negative integer literal when it fits UInt64.
    @inlinable
    public static func exactUInt64(_ s: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !s.isEmpty else { return nil }
        var value: UInt64 = 0
        for c in s {
            let d = c &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (r, o2) = m.addingReportingOverflow(UInt64(d))
            if o1 || o2 { return nil }
            value = r
        }
        return value
    }

    /// The correctly rounded Double nearest the literal, or nil when it is out of Double's
    /// range: infinite, or an underflow to zero that Foundation refuses too (see the type's
    /// comment). A literal that is zero is zero.
    @inlinable
    public static func double(_ s: UnsafeBufferPointer<UInt8>) -> Double? {
        let value = nearestDouble(s)
        if !value.isFinite { return nil }
        if value == 0 && !isZero(s) && !foundationSaysTrueZero(s) { return nil }
        return value
    }

    /// The correctly rounded Float (straight from the text, not through Double), by the same
    /// rules as ``double(_:)``.
    public static func float(_ s: UnsafeBufferPointer<UInt8>) -> Float? {
        guard let value = Float(String(decoding: s, as: UTF8.self)), value.isFinite else { return nil }
        if value == 0 && !isZero(s) && !foundationSaysTrueZero(s) { return nil }
        return value
    }

    /// Whether the literal's value is exactly zero: no digit 1-9 before its exponent, whatever
    /// the exponent (`0e5`, `-0.000E99`).
    @inlinable
    public static func isZero(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        for c in s {
            if c | 0x20 == UInt8(ascii: "e") { return true }
            if c >= UInt8(ascii: "1") && c <= UInt8(ascii: "9") { return false }
        }
        return true
    }

    /// Foundation's test for "this literal really is zero" (rather than a value that
    /// underflowed): the first digit 1-9 it meets means no, the first exponent marker means
    /// yes, neither means yes. Not what ``double(_:)`` applies (see ``isZero(_:)``): kept so
    /// that the checks comparing our decoder with Foundation's know where they differ. It visits whole 4-byte blocks front to back and the remaining
    /// tail back to front; the order matters, and matching it is the point.
    @inlinable
    public static func foundationSaysTrueZero(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        @inline(__always) func verdict(_ c: UInt8) -> Bool? {
            if c >= UInt8(ascii: "1") && c <= UInt8(ascii: "9") { return false }
            if c | 0x20 == UInt8(ascii: "e") { return true }
            return nil
        }
        let blocks = s.count & ~3
        var i = 0
        while i < blocks {
            if let v = verdict(s[i]) { return v }
            i += 1
        }
        var j = s.count - 1
        while j >= blocks {
            if let v = verdict(s[j]) { return v }
            j -= 1
        }
        return true
    }

    /// The correctly rounded nearest Double, with overflow to infinity and underflow to zero.
    @inlinable
    public static func nearestDouble(_ s: UnsafeBufferPointer<UInt8>) -> Double {
        if let fast = clingerFastPath(s) { return fast }
        return Double(String(decoding: s, as: UTF8.self)) ?? .nan
    }

    /// Exact when the significand fits 2^53 and the power of ten is exact (|e| <= 22):
    /// one IEEE multiplication or division, which rounds correctly.
    @inlinable
    static func clingerFastPath(_ s: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let negative = !s.isEmpty && s[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var afterPoint = false
        while i < s.count {
            let c = s[i]
            if c == UInt8(ascii: ".") {
                afterPoint = true
            } else if c | 0x20 == UInt8(ascii: "e") {
                break
            } else {
                if mantissa == 0 && c == UInt8(ascii: "0") {
                    if afterPoint { exponent -= 1 }
                } else {
                    digits += 1
                    if digits > 15 { return nil }
                    mantissa = mantissa * 10 + UInt64(c &- UInt8(ascii: "0"))
                    if afterPoint { exponent -= 1 }
                }
            }
            i += 1
        }
        if i < s.count {
            i += 1
            var e = 0
            var eNegative = false
            if s[i] == UInt8(ascii: "-") { eNegative = true; i += 1 } else if s[i] == UInt8(ascii: "+") { i += 1 }
            while i < s.count {
                e = e * 10 + Int(s[i] &- UInt8(ascii: "0"))
                if e > 400 { return nil }
                i += 1
            }
            exponent += eNegative ? -e : e
        }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        guard exponent >= -22 && exponent <= 22 else { return nil }
        var value = Double(mantissa)
        if exponent < 0 { value /= powersOfTen[-exponent] } else { value *= powersOfTen[exponent] }
        return negative ? -value : value
    }

    @usableFromInline
    static let powersOfTen: [Double] = (0...22).map { e in
        var p = 1.0
        for _ in 0..<e { p *= 10 }
        return p
    }


    /// The literal as an integer of type `T`, by Foundation's rules (see the type's comment).
    @inlinable
    public static func integer<T: FixedWidthInteger>(_ s: UnsafeBufferPointer<UInt8>, isIntegerLiteral: Bool, as: T.Type = T.self) -> T? {
        if isIntegerLiteral { return plainInteger(s) }
        let d = nearestDouble(s)
        guard d.isFinite, d == d.rounded(.towardZero), let fromDouble = T(exactly: d) else { return nil }
        if d.magnitude < 9_007_199_254_740_992 { return fromDouble }
        return largeInteger(s)
    }

    /// A plain `-?digits` literal, exactly, when it fits `T`.
    @inlinable
    static func plainInteger<T: FixedWidthInteger>(_ s: UnsafeBufferPointer<UInt8>) -> T? {
        guard let first = s.first else { return nil }
        let negative = first == UInt8(ascii: "-")
        var value: T = 0
        for c in s.dropFirst(negative ? 1 : 0) {
            let d = c &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            // Accumulate toward the sign so T.min is reachable.
            let (r, o2) = negative ? m.subtractingReportingOverflow(T(d)) : m.addingReportingOverflow(T(d))
            if o1 || o2 { return nil }
            value = r
        }
        return value
    }

    /// Foundation's route for integral values at or above 2^53 written with a fraction or
    /// exponent: read as a Decimal, mantissa (trailing zeros stripped) within UInt64, the
    /// exponent applied with truncation toward zero, magnitude within T.max.
    @usableFromInline
    static func largeInteger<T: FixedWidthInteger>(_ s: UnsafeBufferPointer<UInt8>) -> T? {
        guard var decimal = FoundationDecimal(s) else { return nil }
        decimal.stripTrailingZeros()
        guard var magnitude = decimal.mantissa.uint64 else { return nil }
        if decimal.exponent < 0 {
            magnitude = -decimal.exponent >= 20 ? 0 : magnitude / pow10(-decimal.exponent)
        } else if decimal.exponent > 0 {
            guard decimal.exponent < 20 else { return nil }
            let (m, overflow) = magnitude.multipliedReportingOverflow(by: pow10(decimal.exponent))
            if overflow { return nil }
            magnitude = m
        }
        if decimal.negative && !T.isSigned && magnitude != 0 { return nil }
        guard magnitude <= UInt64(clamping: T.max), let value = T(exactly: magnitude) else { return nil }
        return decimal.negative ? 0 - value : value
    }

    @usableFromInline
    static func pow10(_ e: Int) -> UInt64 {
        var p: UInt64 = 1
        for _ in 0..<e { p &*= 10 }
        return p
    }

    /// Whether Foundation's `Decimal` (as `JSONDecoder` reads it) holds the literal's exact
    /// value: no digits truncated and the exponent within range. Opaque JSON decoded through
    /// Foundation is exact only for such literals; tests and fuzzers use this to know when
    /// the reference decoder can be compared number for number.
    public static func isExactInFoundationDecimal(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        FoundationDecimal(s)?.truncated == false
    }

    /// Whether Foundation's `JSONDecoder` reads the literal as a `Decimal` at all (it refuses
    /// exponents outside [-128, 127]; it silently truncates long mantissas).
    public static func isFoundationDecimal(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        FoundationDecimal(s) != nil
    }
}

/// Foundation's `Decimal` as `JSONDecoder` parses a number literal: a 128-bit mantissa that
/// takes digits while they fit (later integer digits are dropped and raise the exponent,
/// later fraction digits are ignored), and an exponent that must stay in [-128, 127].
@usableFromInline
struct FoundationDecimal {
    @usableFromInline var negative = false
    @usableFromInline var mantissa = Mantissa128()
    @usableFromInline var exponent = 0
    /// Whether digits were dropped or ignored (the value is not exact).
    @usableFromInline var truncated = false

    @usableFromInline
    init?(_ s: UnsafeBufferPointer<UInt8>) {
        var i = 0
        if i < s.count && s[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        func push(_ c: UInt8) -> Bool {
            guard let next = mantissa.timesTenPlus(UInt64(c &- UInt8(ascii: "0"))) else { return false }
            mantissa = next
            return true
        }
        while i < s.count, s[i] &- UInt8(ascii: "0") < 10 {
            if !push(s[i]) {
                if s[i] != UInt8(ascii: "0") { truncated = true }
                exponent += 1
                if exponent > 127 { return nil }
            }
            i += 1
        }
        if i < s.count && s[i] == UInt8(ascii: ".") {
            i += 1
            var full = false
            while i < s.count, s[i] &- UInt8(ascii: "0") < 10 {
                if !full && push(s[i]) {
                    exponent -= 1
                    if exponent < -128 { return nil }
                } else {
                    full = true
                    if s[i] != UInt8(ascii: "0") { truncated = true }
                }
                i += 1
            }
        }
        if i < s.count {  // exponent part
            i += 1
            var eNegative = false
            if s[i] == UInt8(ascii: "-") { eNegative = true; i += 1 } else if s[i] == UInt8(ascii: "+") { i += 1 }
            var e = 0
            while i < s.count {
                e = e * 10 + Int(s[i] &- UInt8(ascii: "0"))
                if e > 254 { return nil }
                i += 1
            }
            exponent += eNegative ? -e : e
            if exponent < -128 || exponent > 127 { return nil }
        }
    }

    @usableFromInline
    mutating func stripTrailingZeros() {
        while !mantissa.isZero && exponent < 127 {
            let (quotient, remainder) = mantissa.dividedByTen()
            guard remainder == 0 else { return }
            mantissa = quotient
            exponent += 1
        }
    }
}

/// An unsigned 128-bit integer with the few operations ``FoundationDecimal`` needs: the
/// standard library's `UInt128` needs iOS 18 and macOS 15, earlier than the package supports.
@usableFromInline
struct Mantissa128: Equatable {
    @usableFromInline var high: UInt64 = 0
    @usableFromInline var low: UInt64 = 0

    @usableFromInline init() {}

    @usableFromInline init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    @usableFromInline var isZero: Bool { high == 0 && low == 0 }

    /// The value, when it fits in 64 bits.
    @usableFromInline var uint64: UInt64? { high == 0 ? low : nil }

    /// `self · 10 + digit`, or nil past 2^128 - 1.
    @usableFromInline
    func timesTenPlus(_ digit: UInt64) -> Mantissa128? {
        let lowProduct = low.multipliedFullWidth(by: 10)
        let (highProduct, o1) = high.multipliedReportingOverflow(by: 10)
        let (highSum, o2) = highProduct.addingReportingOverflow(lowProduct.high)
        let (newLow, carry) = lowProduct.low.addingReportingOverflow(digit)
        let (newHigh, o3) = highSum.addingReportingOverflow(carry ? 1 : 0)
        return o1 || o2 || o3 ? nil : Mantissa128(high: newHigh, low: newLow)
    }

    /// Quotient and remainder by 10.
    @usableFromInline
    func dividedByTen() -> (quotient: Mantissa128, remainder: UInt64) {
        let (highQuotient, highRemainder) = high.quotientAndRemainder(dividingBy: 10)
        // highRemainder < 10, so the quotient of (highRemainder, low) by 10 fits in 64 bits.
        let (lowQuotient, remainder) = UInt64(10).dividingFullWidth((high: highRemainder, low: low))
        return (Mantissa128(high: highQuotient, low: lowQuotient), remainder)
    }
}
