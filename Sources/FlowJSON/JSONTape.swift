// The flat index ("tape") that the scanner produces and every reader walks.
//
// One 64-bit entry per JSON value, in document order. Object keys are values too (strings),
// so an object's children alternate key, value, key, value.
//
//     63   61  60  59                      30  29                       0
//     +-----+---+-----------------------------+--------------------------+
//     |kind |flg|   byte offset (30 bits)     |   payload (30 bits)      |
//     +-----+---+-----------------------------+--------------------------+
//
//   kind     null 0, false 1, true 2, number 3, string 4, array 5, object 6
//   flag     string: the contents hold at least one backslash escape
//            number: an integer literal (no fraction, no exponent)
//   offset   string: first byte *inside* the quotes; anything else: first byte of the value
//   payload  string: length of the contents in bytes (quotes excluded)
//            number: length of the literal in bytes
//            array, object: index of the first entry *after* the container's last
//                           descendant, so a reader skips a whole subtree in O(1)
//            null, true, false: 0
//
// Thirty bits bound a document at 1 GiB - 1 bytes; the scanner refuses anything larger with
// a clean error (a UI page of that size is a bug upstream, not a workload).
//
// Worked example. The 24-byte document
//
//     {"a":[1,true],"b":"x\n"}
//     012345678901234567890123         <- byte offsets, units digit
//
// scans to seven entries:
//
//     index  kind    flag  offset  payload
//     0      object         0      7        subtree ends before entry 7 (the end of tape)
//     1      string         2      1        "a"
//     2      array          5      5        its children are entries 3 and 4
//     3      number  int    6      1        1
//     4      true           8      0
//     5      string        15      1        "b"
//     6      string  esc   19      3        x\n, decoded on demand to "x" + newline
//
// Strings and numbers stay byte ranges; nothing is decoded until a reader asks, and a reader
// that does not care about a subtree jumps from entry i to entry payload(i).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kind of a JSON value, as recorded in a tape entry.
public enum JSONKind: UInt8, Sendable, CustomStringConvertible {
    case null = 0, `false`, `true`, number, string, array, object

    /// How an error message names a value of this kind ("expected a string, found a number").
    public var description: String {
        switch self {
        case .null: "null"
        case .false, .true: "a bool"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// The packing of a tape entry. Internal: readers go through ``JSONTapeView``.
@usableFromInline
enum TapeEntry {
    @usableFromInline static let kindShift: UInt64 = 61
    @usableFromInline static let flagBit: UInt64 = 1 << 60
    @usableFromInline static let offsetShift: UInt64 = 30
    @usableFromInline static let fieldMask: UInt64 = (1 << 30) - 1

    /// The largest document (in bytes) whose offsets fit an entry.
    @usableFromInline static let maximumDocumentSize = Int(fieldMask)

    @inline(__always) @usableFromInline
    static func make(_ kind: JSONKind, flag: Bool, offset: Int, payload: Int) -> UInt64 {
        UInt64(kind.rawValue) << kindShift
            | (flag ? flagBit : 0)
            | UInt64(truncatingIfNeeded: offset) << offsetShift
            | UInt64(truncatingIfNeeded: payload)
    }
}

/// A borrowed view of a scanned document: its bytes and its tape.
///
/// Valid only inside ``JSONDocument/withView(_:)``; cheap to copy (two buffer pointers).
/// Every accessor is O(1) unless it says otherwise.
public struct JSONTapeView {
    public let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline let tape: UnsafeBufferPointer<UInt64>

    @inlinable init(bytes: UnsafeBufferPointer<UInt8>, tape: UnsafeBufferPointer<UInt64>) {
        self.bytes = bytes
        self.tape = tape
    }

    /// Number of entries; the root value is entry 0.
    @inlinable public var count: Int { tape.count }

    @inlinable @inline(__always)
    public func kind(_ i: Int) -> JSONKind {
        JSONKind(rawValue: UInt8(truncatingIfNeeded: tape[i] >> TapeEntry.kindShift))!
    }

    /// Whether entry `i` is null: the kind's bits compared directly (no trap for the
    /// unused kind 7, so it is small enough to inline into every field read).
    @inlinable @inline(__always)
    public func isNull(_ i: Int) -> Bool { tape[i] >> TapeEntry.kindShift == UInt64(JSONKind.null.rawValue) }

    /// The string-has-escapes or number-is-integer flag of entry `i`.
    @inlinable @inline(__always)
    public func flag(_ i: Int) -> Bool { tape[i] & TapeEntry.flagBit != 0 }

    @inlinable @inline(__always)
    public func offset(_ i: Int) -> Int { Int(truncatingIfNeeded: (tape[i] >> TapeEntry.offsetShift) & TapeEntry.fieldMask) }

    @inlinable @inline(__always)
    func payload(_ i: Int) -> Int { Int(truncatingIfNeeded: tape[i] & TapeEntry.fieldMask) }

    /// The index just past the subtree rooted at entry `i` (i + 1 for a scalar).
    @inlinable @inline(__always)
    public func next(_ i: Int) -> Int {
        // The kind's bits compared directly: `kind(i)` would trap on the unused value 7.
        let bits = UInt8(truncatingIfNeeded: tape[i] >> TapeEntry.kindShift)
        return bits == JSONKind.array.rawValue || bits == JSONKind.object.rawValue ? payload(i) : i &+ 1
    }

    /// The byte range of a string's contents (quotes excluded) or of a number's literal.
    @inlinable @inline(__always)
    public func byteRange(_ i: Int) -> Range<Int> {
        let start = offset(i)
        return start..<(start + payload(i))
    }

    /// The raw bytes of a string's contents (escapes as written) or of a number literal.
    @inlinable @inline(__always)
    public func rawBytes(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[byteRange(i)])
    }

    /// Whether entry `i` is a string whose decoded value is exactly `key`.
    ///
    /// Compares bytes without allocating when the string holds no escapes.
    @inlinable
    public func stringEquals(_ i: Int, _ key: String) -> Bool {
        guard kind(i) == .string else { return false }
        if flag(i) { return (try? string(i)) == key }
        let raw = rawBytes(i)
        var key = key
        return key.withUTF8 { k in
            k.count == raw.count && (k.isEmpty || memcmp(k.baseAddress!, raw.baseAddress!, k.count) == 0)
        }
    }

    /// Calls `body` with (key index, value index) for each member of the object at `i`, in
    /// document order, duplicates included. Stops early when `body` returns false.
    @inlinable
    public func forEachMember(_ i: Int, _ body: (_ key: Int, _ value: Int) throws -> Bool) rethrows {
        precondition(kind(i) == .object, "entry \(i) is \(kind(i)), not an object")
        let end = payload(i)
        var k = i + 1
        while k < end {
            let v = k + 1
            if try !body(k, v) { return }
            k = next(v)
        }
    }

    /// Calls `body` with the index of each element of the array at `i`, in order.
    @inlinable
    public func forEachElement(_ i: Int, _ body: (_ element: Int) throws -> Bool) rethrows {
        precondition(kind(i) == .array, "entry \(i) is \(kind(i)), not an array")
        let end = payload(i)
        var e = i + 1
        while e < end {
            if try !body(e) { return }
            e = next(e)
        }
    }

    /// The value of the first member named `key` in the object at `i` (first occurrence wins,
    /// as Foundation's decoder), or nil when absent.
    ///
    /// - Complexity: O(m) in the object's members; callers reading many keys of a large
    ///   object build an index instead (see ``JSONObjectIndex``).
    @inlinable
    public func member(_ i: Int, _ key: String) -> Int? {
        var found: Int?
        forEachMember(i) { k, v in
            if stringEquals(k, key) { found = v; return false }
            return true
        }
        return found
    }

    /// Number of children (elements of an array, members of an object).
    ///
    /// - Complexity: O(children).
    @inlinable
    public func childCount(_ i: Int) -> Int {
        var n = 0
        switch kind(i) {
        case .array: forEachElement(i) { _ in n += 1; return true }
        case .object: forEachMember(i) { _, _ in n += 1; return true }
        default: break
        }
        return n
    }
}
