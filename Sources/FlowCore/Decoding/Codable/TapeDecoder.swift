#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FlowJSON

/// A `Decoder` over the FlowJSON index: how a host's plain `Decodable` widget content is
/// decoded on the fast path.
///
/// It answers as Foundation's `JSONDecoder` does (that is what the reference path runs, and
/// the two must agree): first occurrence of a duplicate key wins; keys compare as Swift
/// strings; `decodeIfPresent` treats null as absent; numbers follow `JSONNumberParsing`;
/// `Date`, `Data`, `URL` and `Decimal` use `JSONDecoder`'s default strategies.
/// One instance serves a whole value: nested values are decoded by moving its cursor, as
/// `JSONDecoder` does, so nesting costs no allocation beyond the containers themselves.
///
/// It holds its document, and its view points into the document's own storage, so a
/// decoder a `Decodable` keeps (Foundation's containers may be stored) stays valid.
package final class TapeDecoder: Decoder {
    let document: JSONDocument
    let view: JSONTapeView
    // Unchecked exclusivity: a decoder is used by one decode on one thread, and the dynamic
    // checks on these two fields cost more than the reads they guard.
    /// The entry being decoded.
    @exclusivity(unchecked) var index: Int
    @exclusivity(unchecked) var path: [any CodingKey] = []
    package let userInfo: [CodingUserInfoKey: Any]
    /// Key to value entry of each large object opened so far (first occurrence kept), by
    /// the object's entry: here rather than in the container, which then stays small
    /// (see ``TapeKeyedContainer``).
    @exclusivity(unchecked) private var memberTables: [Int: [String: Int]] = [:]
    /// Keyed containers this decoder made, kept to be handed out again once the value that
    /// asked for them has let them go (see ``container(keyedBy:)``): one per key type.
    @exclusivity(unchecked) private var idleContainers: [IdleContainer] = []
    /// Whether this decoder hands out the containers it keeps: from
    /// ``reusing(_:in:index:)`` to ``settle()`` (a value that keeps its decoder and
    /// asks it for a container later gets one of its own).
    @exclusivity(unchecked) private var keepsContainers = false
    /// How many keyed containers this decoder has made (not handed out again): what shows
    /// that reuse works.
    @exclusivity(unchecked) package private(set) var containersMade = 0

    /// A keyed container for one key type: the standard library's box, which holds a
    /// ``TapeKeyedContainer`` of `state`. A struct in the decoder's array, so that the
    /// uniqueness check and the hand-out read its fields in place, without counting them.
    private struct IdleContainer {
        let keyType: ObjectIdentifier
        /// Not counted: the box holds the container, which holds this, and the box is held
        /// here for as long as this is.
        unowned(unsafe) let state: TapeKeyedObject
        /// Optional for the uniqueness check: asked of a plain `AnyObject`, it opens the
        /// existential into a copy (in an unoptimized build), which is never unique; asked
        /// of an optional one, it reads the reference in place. Never nil.
        var box: AnyObject?
    }

    /// How many key types a decoder keeps a container for: a page's host types, each with
    /// its nested structs. Beyond these, containers are made as they are asked for.
    private static var idleContainerLimit: Int { 8 }

    /// A decoder of the document's root value (it keeps the document alive).
    package convenience init(document: JSONDocument, userInfo: [CodingUserInfoKey: Any] = [:]) {
        self.init(document: document, index: 0, userInfo: userInfo)
    }

    init(document: JSONDocument, index: Int, userInfo: [CodingUserInfoKey: Any] = [:]) {
        self.document = document
        self.view = document.retainedView
        self.index = index
        self.userInfo = userInfo
    }

    package var codingPath: [any CodingKey] { path }

    /// A decoder of entry `index`: `spare`, reset, when nothing else holds it (the value it
    /// decoded last did not keep it, or one of its containers), else a new one. The caller
    /// calls ``settle()`` when the value is decoded, then hands the decoder back in `spare`.
    @inline(__always)
    static func reusing(_ spare: inout TapeDecoder?, in source: TapeSource, index: Int) -> TapeDecoder {
        // Taken, not copied: the decoder moves without being counted.
        if spare?.document === source.document, var decoder = spare.take() {
            if isKnownUniquelyReferenced(&decoder) {
                decoder.index = index
                // Usually empty already (each push is popped): clearing checks first.
                if !decoder.path.isEmpty { decoder.path.removeAll(keepingCapacity: true) }
                if !decoder.memberTables.isEmpty { decoder.memberTables.removeAll() }
                decoder.keepsContainers = true
                return decoder
            }
        }
        return fresh(in: source, index: index)
    }

    /// ``reusing(_:in:index:)`` without a decoder to reuse: a new one.
    @inline(never)
    private static func fresh(in source: TapeSource, index: Int) -> TapeDecoder {
        let decoder = TapeDecoder(document: source.document, index: index)
        decoder.keepsContainers = true
        return decoder
    }

    /// Ends the decode of one value: each container the value kept past its decode is
    /// forgotten, and counts this decoder from now on (it keeps the decoder, and with it the
    /// document, as any kept container does). Afterwards only the caller and what the value
    /// kept hold this decoder.
    func settle() {
        keepsContainers = false
        for i in idleContainers.indices where !isFree(i) {
            release(keptBy: i)
            return
        }
    }

    /// Whether only this decoder holds the box of idle container `i`: then no one can read
    /// the container.
    @inline(__always)
    private func isFree(_ i: Int) -> Bool { isKnownUniquelyReferenced(&idleContainers[i].box) }

    /// ``settle()`` for a value that kept containers, from idle container `i` on: each one
    /// kept counts this decoder, and is forgotten.
    @inline(never)
    private func release(keptBy first: Int) {
        var i = idleContainers.count
        while i > first {
            i -= 1
            if !isFree(i) {
                idleContainers[i].state.keep()
                idleContainers.remove(at: i)
            }
        }
    }

    deinit {
        // The bound on `TapeKeyedObject.owner`: no container of this decoder is out without
        // counting it (the caller of `reusing` settles before letting go of the decoder).
        for i in idleContainers.indices {
            precondition(isFree(i) || idleContainers[i].state.isKept, "a tape decoder ended with a keyed container out; settle() was not called")
        }
    }

    @inline(__always)
    func kind(_ i: Int) -> JSONKind { view.kind(i) }

    /// Runs `body` with the cursor on entry `i`, reached through `key`.
    func at<R>(_ i: Int, key: any CodingKey, _ body: () throws -> R) rethrows -> R {
        let saved = index
        index = i
        path.append(key)
        defer {
            index = saved
            path.removeLast()
        }
        return try body()
    }

    /// Decodes `T` from entry `i`, reached through `key`.
    func decode<T: Decodable>(_ type: T.Type, at i: Int, key: any CodingKey) throws -> T {
        try at(i, key: key) { try unwrap(T.self) }
    }

    /// `JSONDecoder`'s special cases, then the type's own `init(from:)`.
    func unwrap<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self {
            return Date(timeIntervalSinceReferenceDate: try number(Double.self, index, nil)) as! T
        }
        if T.self == Data.self {
            let text = try string(index, nil)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Encountered Data is not valid Base64."))
            }
            return data as! T
        }
        if T.self == URL.self {
            let text = try string(index, nil)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Invalid URL string."))
            }
            return url as! T
        }
        if T.self == Decimal.self {
            try expect(.number, Decimal.self, index, nil)
            guard JSONNumberParsing.isFoundationDecimal(view.rawBytes(index)),
                  let decimal = Decimal(string: String(decoding: view.rawBytes(index), as: UTF8.self))
            else { throw notRepresentable(index, nil) }
            return decimal as! T
        }
        return try T(from: self)
    }

    // MARK: Primitives

    // Each reads entry `i`, reached through `key` below the decoder's path (nil: the entry
    // at the cursor, whose path is the decoder's). Containers read their scalar members in
    // place, without moving the cursor: the path with the key is built only for an error.

    /// The coding path of entry `i` reached through `key`.
    func codingPath(_ key: (any CodingKey)?) -> [any CodingKey] { key.map { path + [$0] } ?? path }

    func expect(_ kind: JSONKind, _ type: Any.Type, _ i: Int, _ key: (any CodingKey)?) throws {
        let found = view.kind(i)
        if found == kind || (kind == .true && found == .false) { return }
        if found == .null && type != Bool.self {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath(key), debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
        throw DecodingError.typeMismatch(type, .init(codingPath: codingPath(key), debugDescription: "Expected to decode \(type) but found \(found.description) instead."))
    }

    func notRepresentable(_ i: Int, _ key: (any CodingKey)?) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: codingPath(key), debugDescription: "Number \(String(decoding: view.rawBytes(i), as: UTF8.self)) is not representable in Swift."))
    }

    func bool(_ i: Int, _ key: (any CodingKey)?) throws -> Bool {
        try expect(.true, Bool.self, i, key)
        return view.kind(i) == .true
    }

    func string(_ i: Int, _ key: (any CodingKey)?) throws -> String {
        try expect(.string, String.self, i, key)
        do {
            return try view.string(i)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath(key), debugDescription: error.message, underlyingError: error))
        }
    }

    func number(_ type: Double.Type, _ i: Int, _ key: (any CodingKey)?) throws -> Double {
        try expect(.number, Double.self, i, key)
        guard let d = JSONNumberParsing.double(view.rawBytes(i)) else { throw notRepresentable(i, key) }
        return d
    }

    func number(_ type: Float.Type, _ i: Int, _ key: (any CodingKey)?) throws -> Float {
        try expect(.number, Float.self, i, key)
        guard let f = JSONNumberParsing.float(view.rawBytes(i)) else { throw notRepresentable(i, key) }
        return f
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type, _ i: Int, _ key: (any CodingKey)?) throws -> T {
        try expect(.number, T.self, i, key)
        guard let v = JSONNumberParsing.integer(view.rawBytes(i), isIntegerLiteral: view.flag(i), as: T.self) else {
            throw notRepresentable(i, key)
        }
        return v
    }

    /// Builds the member table of `object` (a large one), unless it is built already.
    func buildMemberTable(_ object: Int, members: Int) {
        if memberTables[object] != nil { return }
        var table = [String: Int](minimumCapacity: members)
        view.forEachMember(object) { k, v in
            if let key = try? view.string(k), table[key] == nil { table[key] = v }
            return true
        }
        memberTables[object] = table
    }

    /// The member table of `object`, built when its container was opened.
    func memberTable(_ object: Int) -> [String: Int] { memberTables[object] ?? [:] }

    // MARK: Decoder

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // The kind is checked here first: `expect` takes an optional key, and even a nil
        // one costs a box and its destruction on every container.
        if view.kind(index) != .object { try expect(.object, [String: Any].self, index, nil) }
        guard keepsContainers else { return try newContainer(counted: true).container }
        let keyType = ObjectIdentifier(Key.self)
        for i in idleContainers.indices where idleContainers[i].keyType == keyType {
            // In use (a value nested in one of its own type): a container of its own.
            guard isFree(i) else { return try newContainer(counted: true).container }
            // No one else can read the container: it is handed out again, on this object.
            try idleContainers[i].state.open(self)
            return unsafeBitCast(idleContainers[i].box.unsafelyUnwrapped, to: KeyedDecodingContainer<Key>.self)
        }
        let keeps = idleContainers.count < Self.idleContainerLimit && Self.containersAreOneBox
        let (container, state) = try newContainer(Key.self, counted: !keeps)
        if keeps { idleContainers.append(IdleContainer(keyType: keyType, state: state, box: withUnsafeBytes(of: container) { $0.load(as: AnyObject.self) })) }
        return container
    }

    /// A new keyed container on the object at the cursor (see ``TapeKeyedObject/init(decoder:counted:)``).
    private func newContainer<Key: CodingKey>(_ type: Key.Type = Key.self, counted: Bool) throws -> (container: KeyedDecodingContainer<Key>, state: TapeKeyedObject) {
        let state = try TapeKeyedObject(decoder: self, counted: counted)
        containersMade += 1
        return (KeyedDecodingContainer(TapeKeyedContainer<Key>(state: state)), state)
    }

    package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if view.kind(index) != .array { try expect(.array, [Any].self, index, nil) }
        return TapeUnkeyedContainer(decoder: self, array: index)
    }

    package func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TapeSingleValueContainer(decoder: self)
    }

    /// Whether a `KeyedDecodingContainer` is exactly one object: the standard library's box
    /// of the concrete container. Checked once, not assumed: the container is as large as a
    /// reference, its only stored property (as reflection lists it) is an object, and the
    /// container's bits are that object's reference. The layout is the same for every key
    /// type (the box's type does not depend on it). Only then does ``container(keyedBy:)``
    /// keep containers, and turn a box back into one by reading it as one; with another
    /// standard library, containers are made each time.
    static let containersAreOneBox: Bool = {
        let empty = TapeDecoder(document: try! JSONDocument("{}"), index: 0)
        guard let state = try? TapeKeyedObject(decoder: empty, counted: true) else { return false }
        let container = KeyedDecodingContainer(TapeKeyedContainer<AnyCodingKey>(state: state))
        guard MemoryLayout<KeyedDecodingContainer<AnyCodingKey>>.size == MemoryLayout<AnyObject>.size else { return false }
        let fields = Mirror(reflecting: container).children
        guard fields.count == 1, let field = fields.first?.value, type(of: field) is AnyClass else { return false }
        return unsafeBitCast(container, to: AnyObject.self) === field as AnyObject
    }()
}

extension TapeDecoder {
    private static let nullDocument = try! JSONDocument("null")

    /// A decoder over a standalone `null`.
    static func null(path: [any CodingKey]) -> TapeDecoder {
        let d = TapeDecoder(document: nullDocument, index: 0)
        d.path = path
        return d
    }
}
