/// Why a document is not valid JSON, and where.
///
/// `offset` is the zero-based byte offset of the offending byte; `line` and `column` are
/// one-based, lines end at `\n`, and the column counts characters (UTF-8 sequences), not
/// bytes, so it matches what an editor shows.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: Reason
    public var offset: Int
    public var line: Int
    public var column: Int

    public enum Reason: Sendable, Hashable {
        case emptyDocument
        case unexpectedEndOfInput(expected: String)
        case unexpectedByte(found: UInt8, expected: String)
        case trailingComma(closing: UInt8)
        case trailingContent(found: UInt8)
        case unterminatedString
        case controlCharacterInString(UInt8)
        case invalidEscape(UInt8)
        case invalidUnicodeEscape
        case invalidUTF8
        case leadingZero
        case missingDigits(after: String)
        case depthLimitExceeded(limit: Int)
        case documentTooLarge(size: Int, limit: Int)
        /// A `\u` escape names half of a surrogate pair without the other half. The scan
        /// accepts it (as Foundation does); decoding that string fails with this reason.
        case loneSurrogate
    }

    public init(_ reason: Reason, offset: Int, line: Int, column: Int) {
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// Locates `offset` in `bytes` and builds the error. Costs O(offset); only on error paths.
    @inline(never)
    public init(_ reason: Reason, offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        var line = 1
        var column = 1
        var i = 0
        let end = min(offset, bytes.count)
        while i < end {
            let b = bytes[i]
            if b == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        self.init(reason, offset: offset, line: line, column: column)
    }

    /// What went wrong, in words a person can act on.
    public var message: String {
        switch reason {
        case .emptyDocument:
            return "the document is empty; expected a JSON value"
        case .unexpectedEndOfInput(let expected):
            return "unexpected end of input; expected \(expected)"
        case .unexpectedByte(let found, let expected):
            return "expected \(expected), found \(Self.describe(found))\(Self.hint(found))"
        case .trailingComma(let closing):
            return "trailing comma before '\(Character(Unicode.Scalar(closing)))' (JSON does not allow one)"
        case .trailingContent(let found):
            return "unexpected \(Self.describe(found)) after the end of the document; only whitespace may follow the root value"
        case .unterminatedString:
            return "string is not terminated; expected a closing '\"'"
        case .controlCharacterInString(let b):
            return "control character U+\(Self.hex4(b)) must be escaped inside a string"
        case .invalidEscape(let b):
            return "invalid escape '\\\(Self.printable(b))'; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
        case .invalidUnicodeEscape:
            return "invalid \\u escape; expected four hexadecimal digits"
        case .invalidUTF8:
            return "invalid UTF-8 byte sequence"
        case .leadingZero:
            return "numbers must not have leading zeros"
        case .missingDigits(let after):
            return "expected a digit after \(after)"
        case .depthLimitExceeded(let limit):
            return "nesting is deeper than the maximum depth of \(limit)"
        case .documentTooLarge(let size, let limit):
            return "document is \(size) bytes, larger than the limit of \(limit) bytes"
        case .loneSurrogate:
            return "\\u escape names a lone UTF-16 surrogate, which is not a character"
        }
    }

    /// One line: `offset 17 (line 2, column 5): reason`.
    public var description: String {
        "offset \(offset) (line \(line), column \(column)): \(message)"
    }

    static func describe(_ b: UInt8) -> String {
        if b >= 0x20 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16, uppercase: true).leftPadded(to: 2))"
    }

    private static func printable(_ b: UInt8) -> String {
        b >= 0x20 && b < 0x7F ? String(Character(Unicode.Scalar(b))) : "x" + String(b, radix: 16)
    }

    private static func hex4(_ b: UInt8) -> String {
        String(b, radix: 16, uppercase: true).leftPadded(to: 4)
    }

    /// A nudge for the usual suspects: JavaScript-isms that are not JSON.
    private static func hint(_ b: UInt8) -> String {
        switch b {
        case UInt8(ascii: "/"): " (comments are not allowed in JSON)"
        case UInt8(ascii: "'"): " (strings must use double quotes)"
        case UInt8(ascii: "N"), UInt8(ascii: "I"): " (NaN and Infinity are not JSON numbers)"
        case UInt8(ascii: "+"): " (a number must not start with '+')"
        case UInt8(ascii: "."): " (a number must start with a digit)"
        default: ""
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
