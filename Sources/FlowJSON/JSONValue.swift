/// A JSON value held as a tree: for opaque JSON the library hands on untouched (tracking,
/// postbacks, raw action objects).
///
/// Nothing is lost between reading and writing: numbers keep their literal
/// (``JSONNumber``), objects keep every member in order, duplicates included.
///
/// Equality is JSON's, not the spelling's: numbers compare by exact value, and objects
/// compare as maps in which the *first* occurrence of a key counts (what a typed decoder
/// reads, as Foundation's does) regardless of member order. Two values that a decoder cannot
/// tell apart are equal; ``JSONWriter`` still writes each exactly as received.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// The members of a JSON object, in document order, duplicates kept.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public var members: [Member]

    public init(_ members: [Member] = []) { self.members = members }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.members = elements.map { Member(key: $0.0, value: $0.1) }
    }

    public var startIndex: Int { members.startIndex }
    public var endIndex: Int { members.endIndex }
    public subscript(position: Int) -> Member { members[position] }

    /// The value of the first member named `key`.
    ///
    /// - Complexity: O(n).
    public subscript(key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }

    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    /// Members a typed decoder would see: the first occurrence of each key.
    private func effectiveMembers() -> [Member] {
        if members.count <= 8 {
            var result: [Member] = []
            for m in members where !result.contains(where: { $0.key == m.key }) { result.append(m) }
            return result
        }
        var seen = Set<String>(minimumCapacity: members.count)
        return members.filter { seen.insert($0.key).inserted }
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        if a.members == b.members { return true }
        let x = a.effectiveMembers()
        let y = b.effectiveMembers()
        guard x.count == y.count else { return false }
        if x.count <= 8 {
            return x.allSatisfy { m in y.contains { $0.key == m.key && $0.value == m.value } }
        }
        var index = [String: JSONValue](minimumCapacity: y.count)
        for m in y { index[m.key] = m.value }
        return x.allSatisfy { index[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine the members' own hashes commutatively.
        let effective = effectiveMembers()
        var sum = 0
        for m in effective { sum &+= m.hashValue }
        hasher.combine(effective.count)
        hasher.combine(sum)
    }
}

extension JSONValue {
    public var isNull: Bool { if case .null = self { true } else { false } }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }

    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }

    public var numberValue: JSONNumber? { if case .number(let n) = self { n } else { nil } }

    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }

    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }

    /// The first member named `key` when this is an object.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    public var kind: JSONKind {
        switch self {
        case .null: .null
        case .bool(let b): b ? .true : .false
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .number(JSONNumber(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// Builds the tree for the subtree at entry `i`.
    ///
    /// Recursion is bounded by the scan's depth limit (at most
    /// ``JSONScanOptions/depthCeiling``). Throws only for a string holding a lone surrogate.
    public init(_ view: JSONTapeView, at i: Int) throws(JSONSyntaxError) {
        self = try JSONValue.tree(view, i) { k throws(JSONSyntaxError) in try view.string(k) }
    }

    /// The tree of an opaque value, which never fails: a lone surrogate escape shows as
    /// U+FFFD (see ``JSONTapeView/stringReplacingLoneSurrogates(_:)``). The bytes, not
    /// this view, are what a writer of the document's slice writes back.
    public init(replacingLoneSurrogates view: JSONTapeView, at i: Int) {
        self = JSONValue.tree(view, i) { k in view.stringReplacingLoneSurrogates(k) }
    }

    private static func tree<E: Error>(_ view: JSONTapeView, _ i: Int, _ text: (Int) throws(E) -> String) throws(E) -> JSONValue {
        switch view.kind(i) {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return .number(JSONNumber(validated: String(decoding: view.rawBytes(i), as: UTF8.self)))
        case .string: return .string(try text(i))
        case .array:
            var elements: [JSONValue] = []
            var e = i + 1
            let end = view.next(i)
            while e < end {
                elements.append(try tree(view, e, text))
                e = view.next(e)
            }
            return .array(elements)
        case .object:
            var members: [JSONObject.Member] = []
            var k = i + 1
            let end = view.next(i)
            while k < end {
                members.append(JSONObject.Member(key: try text(k), value: try tree(view, k + 1, text)))
                k = view.next(k + 1)
            }
            return .object(JSONObject(members))
        }
    }

    /// Parses a whole document into a tree.
    public init(parsing bytes: [UInt8], options: JSONScanOptions = JSONScanOptions()) throws(JSONSyntaxError) {
        let document = try JSONDocument(bytes: bytes, options: options)
        let result = document.withView { view in Result { () throws(JSONSyntaxError) in try JSONValue(view, at: 0) } }
        self = try result.get()
    }
}
