import FlowJSON

/// An action: `{ "type": string (required), …anything }`.
///
/// `type` is an open string agreed with the backend; the whole object is kept raw so the
/// handler that understands the type decodes its own payload (``payload(_:)``), and
/// writing gives the object back exactly as received.
public struct ActionData: FlowDecodable, JSONWritable, Hashable {
    public var type: String
    public var raw: RawJSON

    /// An action built in code: `raw` is `{"type": type}` plus `fields`.
    public init(type: String, fields: JSONObject = JSONObject()) {
        var object = JSONObject()
        object.append("type", .string(type))
        for m in fields where m.key != "type" { object.append(m.key, m.value) }
        self.type = type
        self.raw = RawJSON(.object(object))
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "an action object", found: reader) }
        guard let t = o.present("type") else { throw ContentError.missing("type") }
        guard let type = t.string() else { throw ContentError.mismatch(expected: "a string", found: t).at(.key("type")) }
        guard let raw = reader.raw() else { throw ContentError("the action holds a string or number that does not decode") }
        self.type = type
        self.raw = raw
    }

    /// Decodes the action object into a handler's own payload type.
    public func payload<T: Decodable>(_ type: T.Type) throws -> T { try raw.decode(T.self) }

    package func write(to writer: inout JSONWriter) { raw.write(to: &writer) }
}
