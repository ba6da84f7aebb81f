/// Writes compact JSON: no whitespace, members in the order held.
///
/// From a ``JSONValue``, strings are escaped minimally (quote, backslash, control
/// characters) and numbers written as their literal. From a tape subtree, string contents
/// and number literals are copied byte for byte as received, escapes included, so the
/// output differs from the input only by insignificant whitespace. Either way, rescanning
/// the output gives an equal value.
public struct JSONWriter {
    public internal(set) var bytes: [UInt8] = []

    public init() {}

    public init(reservingCapacity n: Int) { bytes.reserveCapacity(n) }

    /// Compact JSON for `value`.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    public mutating func writeRaw(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func writeByte(_ b: UInt8) { bytes.append(b) }

    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: writeRaw("null")
        case .bool(let b): b ? writeRaw("true") : writeRaw("false")
        case .number(let n): bytes.append(contentsOf: n.text.utf8)
        case .string(let s): writeString(s)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (n, e) in elements.enumerated() {
                if n > 0 { bytes.append(UInt8(ascii: ",")) }
                write(e)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (n, m) in object.members.enumerated() {
                if n > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(m.key)
                bytes.append(UInt8(ascii: ":"))
                write(m.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `s` as a JSON string literal.
    public mutating func writeString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""): writeRaw("\\\"")
            case UInt8(ascii: "\\"): writeRaw("\\\\")
            case 0x0A: writeRaw("\\n")
            case 0x0D: writeRaw("\\r")
            case 0x09: writeRaw("\\t")
            case 0x08: writeRaw("\\b")
            case 0x0C: writeRaw("\\f")
            case 0..<0x20:
                writeRaw("\\u00")
                bytes.append(Self.hexDigits[Int(c >> 4)])
                bytes.append(Self.hexDigits[Int(c & 0xF)])
            default: bytes.append(c)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Writes the subtree at entry `i` of `view`, strings and numbers exactly as received.
    public mutating func write(_ view: JSONTapeView, at i: Int) {
        switch view.kind(i) {
        case .null: writeRaw("null")
        case .false: writeRaw("false")
        case .true: writeRaw("true")
        case .number: bytes.append(contentsOf: view.rawBytes(i))
        case .string: writeRawString(view, at: i)
        case .array:
            bytes.append(UInt8(ascii: "["))
            var first = true
            view.forEachElement(i) { e in
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                write(view, at: e)
                return true
            }
            bytes.append(UInt8(ascii: "]"))
        case .object:
            bytes.append(UInt8(ascii: "{"))
            var first = true
            view.forEachMember(i) { k, v in
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                writeRawString(view, at: k)
                bytes.append(UInt8(ascii: ":"))
                write(view, at: v)
                return true
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func writeRawString(_ view: JSONTapeView, at i: Int) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: view.rawBytes(i))
        bytes.append(UInt8(ascii: "\""))
    }
}

extension JSONWriter {
    /// Indented JSON (two spaces, one member or element per line, `"key": value`), for
    /// files people read: golden outputs, baselines. Empty containers stay `{}` and `[]`.
    public static func pretty(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.writePretty(value, indent: 0)
        writer.writeByte(0x0A)
        return writer.bytes
    }

    private mutating func newline(_ indent: Int) {
        writeByte(0x0A)
        for _ in 0..<indent { writeRaw("  ") }
    }

    private mutating func writePretty(_ value: JSONValue, indent: Int) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            writeByte(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { writeByte(UInt8(ascii: ",")) }
                newline(indent + 1)
                writePretty(e, indent: indent + 1)
            }
            newline(indent)
            writeByte(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            writeByte(UInt8(ascii: "{"))
            for (i, m) in object.members.enumerated() {
                if i > 0 { writeByte(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(m.key)
                writeRaw(": ")
                writePretty(m.value, indent: indent + 1)
            }
            newline(indent)
            writeByte(UInt8(ascii: "}"))
        default:
            write(value)
        }
    }
}
