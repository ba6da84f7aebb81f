/// A JSON number kept exactly as written.
///
/// Opaque JSON (tracking, postbacks, raw action objects) must come back unchanged, so the
/// literal is the value: `9007199254740993` stays that, not the nearest Double, and `1.50`
/// is written back as `1.50`. Conversions (``int64Value``, ``doubleValue``) are on demand.
///
/// Equality is by exact decimal value, not spelling: `1`, `1.0`, `10e-1` and `-0` versus `0`
/// compare equal, and the hash agrees. (Exponents longer than 36 digits, which no real
/// document has, compare by their normalised spelling.)
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The literal, valid by RFC 8259's number grammar.
    public let text: String

    /// Wraps a literal; nil when `text` is not a JSON number.
    public init?(_ text: String) {
        guard Self.isValidLiteral(Array(text.utf8)) else { return nil }
        self.text = text
    }

    /// Wraps a literal the scanner already validated.
    @usableFromInline init(validated text: String) { self.text = text }

    public init(_ value: Int64) { self.text = String(value) }
    public init(_ value: UInt64) { self.text = String(value) }
    public init(integerLiteral value: Int64) { self.init(value) }

    /// The shortest literal that reads back as `value`; nil for NaN and the infinities,
    /// which JSON cannot spell.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.text = value.description
    }

    public var description: String { text }

    /// The value as an Int64 when the literal is an integer in range (`2`, not `2.0`).
    public var int64Value: Int64? {
        Array(text.utf8).withUnsafeBufferPointer { JSONNumberParsing.exactInt64($0) }
    }

    /// The value as the nearest Double; nil past Double's range (see ``JSONNumberParsing``).
    public var doubleValue: Double? {
        Array(text.utf8).withUnsafeBufferPointer { JSONNumberParsing.double($0) }
    }

    public static func == (a: JSONNumber, b: JSONNumber) -> Bool {
        a.text == b.text || a.canonical == b.canonical
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(canonical) }

    /// Sign, significant digits and exponent with leading/trailing zeros folded away, so
    /// equal values have equal canonical forms.
    private var canonical: Canonical { Canonical(Array(text.utf8)) }

    private struct Canonical: Hashable {
        var negative = false
        var digits: [UInt8] = []
        /// The exponent, exactly: `exponentHigh`·10^18 + `exponentLow`, 0 ≤ `exponentLow` < 10^18
        /// (two words, where `Int128` would need iOS 18 and macOS 15). An exponent written
        /// with up to 36 digits fits.
        var exponentHigh = 0
        var exponentLow = 0
        /// Set only for exponents written with more than 36 digits: their normalised digits
        /// (`exponentLow` then holds the adjustment for trailing zeros and fraction digits).
        var hugeExponent: [UInt8]?

        static let base = 1_000_000_000_000_000_000

        init(_ s: [UInt8]) {
            var i = 0
            if i < s.count && s[i] == UInt8(ascii: "-") { negative = true; i += 1 }
            var fractionDigits = 0
            var seenPoint = false
            while i < s.count, s[i] != UInt8(ascii: "e"), s[i] != UInt8(ascii: "E") {
                let c = s[i]
                i += 1
                if c == UInt8(ascii: ".") { seenPoint = true; continue }
                if seenPoint { fractionDigits += 1 }
                if digits.isEmpty && c == UInt8(ascii: "0") { continue }
                digits.append(c)
            }
            // Digits dropped as leading zeros after the point still count as fraction digits.
            var exponentNegative = false
            var exponentDigits: [UInt8] = []
            if i < s.count {
                i += 1
                if s[i] == UInt8(ascii: "-") { exponentNegative = true; i += 1 } else if s[i] == UInt8(ascii: "+") { i += 1 }
                while i < s.count {
                    if !(exponentDigits.isEmpty && s[i] == UInt8(ascii: "0")) { exponentDigits.append(s[i]) }
                    i += 1
                }
            }
            var trailingZeros = 0
            while let last = digits.last, last == UInt8(ascii: "0") {
                digits.removeLast()
                trailingZeros += 1
            }
            if digits.isEmpty {  // zero, whatever its sign or exponent
                negative = false
                return
            }
            let adjustment = trailingZeros - fractionDigits
            if exponentDigits.count <= 36 {
                func value(_ digits: ArraySlice<UInt8>) -> Int { digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } }
                let split = max(0, exponentDigits.count - 18)
                let high = value(exponentDigits[..<split]), low = value(exponentDigits[split...])
                // ±(high·B + low) + adjustment as q·B + r, 0 ≤ r < B: |adjustment| is at most
                // the literal's length, so no step leaves Int's range.
                let sum = exponentNegative ? Self.base - low + adjustment : low + adjustment
                let carry = sum >= 0 ? sum / Self.base : -((Self.base - 1 - sum) / Self.base)
                exponentHigh = (exponentNegative ? -high - 1 : high) + carry
                exponentLow = sum - carry * Self.base
            } else {
                hugeExponent = (exponentNegative ? [UInt8(ascii: "-")] : []) + exponentDigits
                exponentLow = adjustment
            }
        }
    }

    /// RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    static func isValidLiteral(_ s: [UInt8]) -> Bool {
        var i = 0
        func digits() -> Int {
            let start = i
            while i < s.count && s[i] &- UInt8(ascii: "0") < 10 { i += 1 }
            return i - start
        }
        if i < s.count && s[i] == UInt8(ascii: "-") { i += 1 }
        guard i < s.count else { return false }
        if s[i] == UInt8(ascii: "0") { i += 1 } else if digits() == 0 { return false }
        if i < s.count && s[i] == UInt8(ascii: ".") {
            i += 1
            if digits() == 0 { return false }
        }
        if i < s.count && (s[i] | 0x20) == UInt8(ascii: "e") {
            i += 1
            if i < s.count && (s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-")) { i += 1 }
            if digits() == 0 { return false }
        }
        return i == s.count
    }
}
