import FlowJSON

/// Writes a model's object through the ``FieldTable`` its decoder reads, so that one
/// declaration per model says both how its fields are spelled and in which order they are
/// written: decode and encode cannot spell a field differently.
///
///     var o = FieldWriter(Self.fields, &writer)
///     o.field(.text, text, &writer)
///     o.field(.font, font, &writer)
///     o.close(&writer)
///
/// Fields go out in the table's order; debug builds check it, so a field written out of
/// order, or a table reordered under its writer, fails every test that encodes the model.
package struct FieldWriter<Field: RawRepresentable & CaseIterable> where Field.RawValue == Int {
    private var object: ObjectWriter
    private let keys: FieldKeys
    #if DEBUG
    private var last = -1
    #endif

    @inline(__always)
    package init(_ table: FieldTable<Field>, _ writer: inout JSONWriter) {
        object = ObjectWriter(&writer)
        keys = table.keys
    }

    /// Writes `field` with `value`; nothing when `value` is nil.
    @inline(__always)
    package mutating func field(_ field: Field, _ value: (some JSONWritable)?, _ writer: inout JSONWriter) {
        guard let value else { return }
        key(field, &writer)
        value.write(to: &writer)
    }

    /// Writes `field`'s key; the caller writes its value next.
    @inline(__always)
    package mutating func key(_ field: Field, _ writer: inout JSONWriter) {
        #if DEBUG
        precondition(Self.follows(last, field.rawValue), "\(Field.self).\(field) is written after a field that follows it in the table")
        last = field.rawValue
        #endif
        object.key(keys.names[field.rawValue], &writer)
    }

    @inline(__always)
    package func close(_ writer: inout JSONWriter) { object.close(&writer) }

    /// Whether a field at `next` in the table may be written after one at `previous`.
    static func follows(_ previous: Int, _ next: Int) -> Bool { next > previous }
}
