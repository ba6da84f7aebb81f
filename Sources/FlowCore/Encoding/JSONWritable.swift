import FlowJSON

/// A model that writes itself back as JSON, in a canonical form: fields in a fixed order,
/// absent fields omitted, the shorthand spelling where an atom has one and nothing else is
/// set. Decoding the output gives an equal model, so writing is idempotent.
package protocol JSONWritable {
    func write(to writer: inout JSONWriter)
}

/// Writes a JSON object member by member.
package struct ObjectWriter {
    private var first = true

    package init(_ writer: inout JSONWriter) { writer.writeByte(UInt8(ascii: "{")) }

    package mutating func key(_ name: StaticString, _ writer: inout JSONWriter) {
        if !first { writer.writeByte(UInt8(ascii: ",")) }
        first = false
        writer.writeByte(UInt8(ascii: "\""))
        writer.writeRaw(name)
        writer.writeByte(UInt8(ascii: "\""))
        writer.writeByte(UInt8(ascii: ":"))
    }

    package mutating func dynamicKey(_ name: String, _ writer: inout JSONWriter) {
        if !first { writer.writeByte(UInt8(ascii: ",")) }
        first = false
        writer.writeString(name)
        writer.writeByte(UInt8(ascii: ":"))
    }

    package mutating func field(_ name: StaticString, _ value: (some JSONWritable)?, _ writer: inout JSONWriter) {
        guard let value else { return }
        key(name, &writer)
        value.write(to: &writer)
    }

    package func close(_ writer: inout JSONWriter) { writer.writeByte(UInt8(ascii: "}")) }
}

extension String: JSONWritable {
    package func write(to writer: inout JSONWriter) { writer.writeString(self) }
}

extension Bool: JSONWritable {
    package func write(to writer: inout JSONWriter) { self ? writer.writeRaw("true") : writer.writeRaw("false") }
}

extension Double: JSONWritable {
    /// The shortest literal that reads back as this value (finite values only reach here).
    package func write(to writer: inout JSONWriter) {
        writer.write(.number(JSONNumber(self) ?? JSONNumber(0)))
    }
}

extension Int: JSONWritable {
    package func write(to writer: inout JSONWriter) { writer.write(.number(JSONNumber(Int64(self)))) }
}

extension Array: JSONWritable where Element: JSONWritable {
    package func write(to writer: inout JSONWriter) {
        writer.writeByte(UInt8(ascii: "["))
        for (i, e) in enumerated() {
            if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
            e.write(to: &writer)
        }
        writer.writeByte(UInt8(ascii: "]"))
    }
}

extension RawJSON: JSONWritable {}

extension JSONWritable {
    /// Compact JSON bytes.
    package var jsonBytes: [UInt8] {
        var w = JSONWriter()
        write(to: &w)
        return w.bytes
    }
}
