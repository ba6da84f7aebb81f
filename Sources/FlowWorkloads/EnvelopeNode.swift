import FlowJSON

/// A JSON document as the envelope mutator edits it: a tree whose scalars keep their bytes
/// exactly as received (a string with its quotes and escapes, a number's literal), so a lone
/// surrogate escape or a `1e400` survives every edit that does not touch it. `JSONValue` would
/// replace the one and the writer would respell nothing, but a tree of decoded strings loses
/// precisely the spellings the fuzzer should keep.
enum EnvelopeNode: Equatable, Sendable {
    /// `null`, `true`, `false`, a number literal, or a string literal quotes included.
    case scalar([UInt8])
    case array([EnvelopeNode])
    case object([EnvelopeMember])

    /// The tree of an accepted document; nil when FlowJSON rejects the bytes. Recursion is
    /// bounded by the scan's depth limit.
    init?(parsing bytes: [UInt8]) {
        guard let document = try? JSONDocument(bytes: bytes) else { return nil }
        self = document.withView { EnvelopeNode($0, at: 0) }
    }

    init(_ view: JSONTapeView, at i: Int) {
        switch view.kind(i) {
        case .null: self = .scalar(Array("null".utf8))
        case .false: self = .scalar(Array("false".utf8))
        case .true: self = .scalar(Array("true".utf8))
        case .number: self = .scalar(Array(view.rawBytes(i)))
        case .string: self = .scalar([0x22] + view.rawBytes(i) + [0x22])
        case .array:
            var elements: [EnvelopeNode] = []
            view.forEachElement(i) { e in
                elements.append(EnvelopeNode(view, at: e))
                return true
            }
            self = .array(elements)
        case .object:
            var members: [EnvelopeMember] = []
            view.forEachMember(i) { k, v in
                members.append(EnvelopeMember(key: Array(view.rawBytes(k)), value: EnvelopeNode(view, at: v)))
                return true
            }
            self = .object(members)
        }
    }

    /// A string literal for `text`, written as the bytes given (the caller escapes).
    static func string(_ text: String) -> EnvelopeNode { .scalar(Array("\"\(text)\"".utf8)) }

    /// A node from JSON text the mutator itself wrote (templates, edge values).
    static func literal(_ text: String) -> EnvelopeNode { EnvelopeNode(parsing: Array(text.utf8)) ?? .scalar(Array("null".utf8)) }

    var isString: Bool { if case .scalar(let b) = self { b.first == 0x22 } else { false } }
    var isNumber: Bool {
        if case .scalar(let b) = self, let f = b.first { f == UInt8(ascii: "-") || (f >= 0x30 && f <= 0x39) } else { false }
    }

    /// The raw contents of a string literal (escapes as written), nil for anything else.
    var stringContents: ArraySlice<UInt8>? {
        if case .scalar(let b) = self, b.count >= 2, b.first == 0x22 { b.dropFirst().dropLast() } else { nil }
    }

    /// The JSON type as a small number (null, bool, number, string, array, object), for
    /// choosing a replacement of another type.
    var typeCode: Int {
        switch self {
        case .array: 4
        case .object: 5
        case .scalar(let b):
            switch b.first {
            case UInt8(ascii: "n"): 0
            case UInt8(ascii: "t"), UInt8(ascii: "f"): 1
            case 0x22: 3
            default: 2
            }
        }
    }

    /// The first member named `key` (raw key bytes, as the contract's keys are plain ASCII).
    subscript(key: String) -> EnvelopeNode? {
        guard case .object(let members) = self else { return nil }
        let k = Array(key.utf8)
        return members.first { $0.key == k }?.value
    }

    /// The node at `path` (child positions: an array's element, an object's member).
    func node(at path: ArraySlice<Int>) -> EnvelopeNode? {
        guard let first = path.first else { return self }
        switch self {
        case .array(let a): return a.indices.contains(first) ? a[first].node(at: path.dropFirst()) : nil
        case .object(let m): return m.indices.contains(first) ? m[first].value.node(at: path.dropFirst()) : nil
        case .scalar: return nil
        }
    }

    /// Runs `body` on the node at `path` in place. The container is emptied while its child
    /// is edited, so the child's storage stays uniquely referenced and the edit costs the
    /// path's length, not the document's size.
    mutating func modify(_ path: ArraySlice<Int>, _ body: (inout EnvelopeNode) -> Void) {
        guard let first = path.first else { body(&self); return }
        switch self {
        case .array(var a) where a.indices.contains(first):
            self = .scalar([])
            a[first].modify(path.dropFirst(), body)
            self = .array(a)
        case .object(var m) where m.indices.contains(first):
            self = .scalar([])
            m[first].value.modify(path.dropFirst(), body)
            self = .object(m)
        default: break
        }
    }

    /// Compact JSON.
    func write(into out: inout [UInt8]) {
        switch self {
        case .scalar(let b): out += b
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (n, e) in elements.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                e.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (n, m) in members.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                out.append(0x22)
                out += m.key
                out += [0x22, UInt8(ascii: ":")]
                m.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    var bytes: [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }
}

/// An object member: its key's raw contents (between the quotes) and its value.
struct EnvelopeMember: Equatable, Sendable {
    var key: [UInt8]
    var value: EnvelopeNode

    init(key: [UInt8], value: EnvelopeNode) {
        self.key = key
        self.value = value
    }

    init(_ key: String, _ value: EnvelopeNode) { self.init(key: Array(key.utf8), value: value) }
}

extension [EnvelopeMember] {
    /// Sets the first member named `key`, or inserts it first when there is none.
    mutating func set(_ key: String, _ value: EnvelopeNode) {
        let k = [UInt8](key.utf8)
        if let i = firstIndex(where: { $0.key == k }) { self[i].value = value } else { insert(EnvelopeMember(key: k, value: value), at: 0) }
    }

    /// Removes every member named `key` (a duplicate left behind would take its place).
    mutating func remove(_ key: String) {
        let k = [UInt8](key.utf8)
        removeAll { $0.key == k }
    }
}
