import FlowJSON

/// Opaque JSON kept exactly as received: a widget's `data`, an action object, tracking,
/// a postback.
///
/// On the fast path it is a slice of the scanned document (no copy, no tree: the page keeps
/// its source document alive instead); values built in code or by the reference decoder
/// hold a `JSONValue`. Either way `write(to:)` gives compact JSON with strings and
/// numbers as received, and equality is JSON's (see `JSONValue`) over ``value``, whatever
/// the storage (so two payloads that differ only in which lone surrogate they carry compare
/// equal; a refresh diff, which compares bytes, still tells them apart).
public struct RawJSON: @unchecked Sendable, Hashable, CustomStringConvertible {
    enum Storage {
        case slice(JSONDocument, Int)
        case value(ValueBox)
    }

    final class ValueBox: Sendable {
        let value: JSONValue
        init(_ value: JSONValue) { self.value = value }
    }

    // A reference and an index, not the `Storage` enum: an enum would hide its case in
    // the pointer's spare bits, and a pointer so tagged is invisible to leak checkers
    // (LeakSanitizer reported the `emptyObject` box as leaked). 16 bytes, optional or not
    // (the nil pointer marks `nil`); a page holds two or three per widget.
    /// The document of a slice (`index` >= 0) or the box of a value (`index` == -1); both
    /// immutable, hence the unchecked `Sendable`.
    private let owner: AnyObject
    private let index: Int

    var storage: Storage {
        index >= 0 ? .slice(unsafeDowncast(owner, to: JSONDocument.self), index) : .value(unsafeDowncast(owner, to: ValueBox.self))
    }

    init(document: JSONDocument, index: Int) {
        owner = document
        self.index = index
    }

    public init(_ value: JSONValue) {
        owner = ValueBox(value)
        index = -1
    }

    /// `{}`: what an absent widget `data` decodes as.
    public static let emptyObject = RawJSON(.object(JSONObject()))

    /// The value as a tree (built on demand for a slice).
    ///
    /// Opaque JSON is kept whatever its strings hold, so a slice may hold a `\u` escape
    /// naming a lone surrogate, which no Swift `String` can: the tree shows each as U+FFFD,
    /// the replacement character. Writing (`write(to:)`, ``jsonBytes``) gives the bytes
    /// as received, escape included; only this view and equality see the replacement.
    public var value: JSONValue {
        switch storage {
        case .value(let box): return box.value
        case .slice(let document, let index):
            return document.withView { view in JSONValue(replacingLoneSurrogates: view, at: index) }
        }
    }

    public var kind: JSONKind {
        switch storage {
        case .value(let box): return box.value.kind
        case .slice(let document, let index): return document.withView { $0.kind(index) }
        }
    }

    /// Writes compact JSON, strings and numbers as received.
    package func write(to writer: inout JSONWriter) {
        switch storage {
        case .value(let box): writer.write(box.value)
        case .slice(let document, let index): document.withView { writer.write($0, at: index) }
        }
    }

    public var jsonBytes: [UInt8] {
        var w = JSONWriter()
        write(to: &w)
        return w.bytes
    }

    public var description: String { String(decoding: jsonBytes, as: UTF8.self) }

    public static func == (a: RawJSON, b: RawJSON) -> Bool {
        if case .slice(let d1, let i1) = a.storage, case .slice(let d2, let i2) = b.storage, d1 === d2, i1 == i2 {
            return true
        }
        return a.value == b.value
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(value) }

    /// Decodes the payload into a type of the caller's (what an action handler does with
    /// its action object), through the tape decoder.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch storage {
        case .slice(let document, let index):
            return try T(from: TapeDecoder(document: document, index: index))
        case .value(let box):
            let document = try JSONDocument(bytes: JSONWriter.encode(box.value))
            return try T(from: TapeDecoder(document: document, index: 0))
        }
    }
}
