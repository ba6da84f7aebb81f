#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlowJSON

/// The keys a model reads from an object, declared once per model so the fast path finds
/// all of them in a single pass over the object's members (instead of one scan per key).
///
///     enum Field: Int, CaseIterable { case text, font }
///     static let fields = FieldTable<Field>(["text", "font"])
///     let f = object.fields(Self.fields)
///     text = try f.required(.text)
@usableFromInline package struct FieldTable<Field: RawRepresentable & CaseIterable>: Sendable where Field.RawValue == Int {
    @usableFromInline let keys: FieldKeys

    /// `names[i]` is the JSON key of the field whose raw value is `i`.
    @usableFromInline package init(_ names: [StaticString]) {
        precondition(names.count == Field.allCases.count, "one key per field: \(names.count) keys for \(Field.allCases.count) fields")
        keys = FieldKeys(names)
    }

    /// The JSON key of `field`.
    package func name(_ field: Field) -> StaticString { keys.names[field.rawValue] }
}

/// The untyped part of a field table: what readers match keys against. A class so that
/// passing it around costs one pointer (tables are static: alive for the process).
/// Immutable after init (the slot buffer is written only there), hence Sendable.
@usableFromInline package final class FieldKeys: @unchecked Sendable {
    /// The most keys one table holds (the widest model, a button, reads eight).
    package static let capacity = 8

    @usableFromInline package let names: [StaticString]
    /// Candidate key per (length, first byte, last byte) slot: index + 1, 0 for none, or
    /// `ambiguous` when two keys share the slot (then every key is tried). One lookup and
    /// one comparison per member instead of a scan of the table.
    private let slots: UnsafeMutablePointer<UInt8>
    /// Each key's length and the words a member's bytes must equal, loaded once here so
    /// that matching a member neither reads the key's bytes nor checks its `StaticString`.
    private let probes: UnsafeMutablePointer<Probe>
    private static let slotCount = 128
    private static let ambiguous: UInt8 = 0xFF

    init(_ names: [StaticString]) {
        precondition(names.count <= Self.capacity, "a field table holds at most \(Self.capacity) keys, got \(names.count)")
        self.names = names
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: 0, count: Self.slotCount)
        probes = .allocate(capacity: max(names.count, 1))
        for (j, name) in names.enumerated() {
            let n = name.utf8CodeUnitCount
            let slot = Self.slot(n, n > 0 ? name.utf8Start[0] : 0, n > 0 ? name.utf8Start[n - 1] : 0)
            slots[slot] = slots[slot] == 0 ? UInt8(j + 1) : Self.ambiguous
            (probes + j).initialize(to: Probe(name))
        }
    }

    deinit {
        slots.deallocate()
        probes.deallocate()
    }

    @inline(__always)
    private static func slot(_ count: Int, _ first: UInt8, _ last: UInt8) -> Int {
        (count &* 31 &+ Int(first) &* 7 &+ Int(last)) & (slotCount - 1)
    }

    /// The index of the key spelled by the `count` bytes at `bytes`.
    @inline(__always)
    func index(of bytes: UnsafePointer<UInt8>, count: Int) -> Int? {
        guard count > 0 else { return names.firstIndex { $0.utf8CodeUnitCount == 0 } }
        let candidate = slots[Self.slot(count, bytes[0], bytes[count &- 1])]
        if candidate == 0 { return nil }
        if candidate != Self.ambiguous {
            let j = Int(candidate) &- 1
            return probes[j].matches(bytes, count) ? j : nil
        }
        for j in names.indices where probes[j].matches(bytes, count) { return j }
        return nil
    }

    /// A key as matching wants it: its length and its `ShortBytes.words`. Longer
    /// than 16 bytes, the words only filter and `memcmp` decides.
    struct Probe {
        let count: Int
        let head: UInt64
        let tail: UInt64
        /// The key's bytes: a `StaticString`'s, alive for the process.
        let start: UnsafePointer<UInt8>

        init(_ name: StaticString) {
            count = name.utf8CodeUnitCount
            start = name.utf8Start
            (head, tail) = count == 0 ? (0, 0) : ShortBytes.words(start, count)
        }

        /// Whether the `count` (> 0) bytes at `bytes` spell this key.
        @inline(__always)
        func matches(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
            guard count == self.count else { return false }
            let (h, t) = ShortBytes.words(bytes, count)
            return h == head && t == tail && (count <= 16 || memcmp(start, bytes, count) == 0)
        }
    }

    /// The index of a decoded key (escaped keys).
    func index(of key: String) -> Int? { names.firstIndex { $0.description == key } }
}

/// Where each field of a table was found in an object: a reader-defined handle, or -1.
@usableFromInline package struct FieldSlots: Sendable {
    @usableFromInline var handles: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (-1, -1, -1, -1, -1, -1, -1, -1)
    /// How many handles it holds (``FieldKeys/capacity``).
    @usableFromInline static var count: Int { 8 }

    @usableFromInline package init() {}

    @inlinable
    package subscript(i: Int) -> Int32 {
        get { withUnsafeBytes(of: handles) { $0.load(fromByteOffset: i * 4, as: Int32.self) } }
        set { withUnsafeMutableBytes(of: &handles) { $0.storeBytes(of: newValue, toByteOffset: i * 4, as: Int32.self) } }
    }

    /// Keeps the first handle offered for a field (first occurrence wins).
    /// Writes in place: reading through `self[i]` copied all eight handles to the stack.
    /// `i` is a field index, below `FieldKeys.capacity`; the mask keeps a wrong one in bounds.
    @inlinable
    package mutating func offer(_ i: Int, _ handle: Int32) {
        withUnsafeMutableBytes(of: &handles) { raw in
            let slot = raw.baseAddress!.assumingMemoryBound(to: Int32.self) + (i & 7)
            if slot.pointee < 0 { slot.pointee = handle }
        }
    }
}

/// The values an object holds for a table's fields: the first occurrence of each key, null
/// included (as `value(forKey:)` answers).
///
/// The readers below are forced inline: a model asks for every field of its table and most
/// are absent, which inline is a load and a compare. Out of line the optimizer merges their
/// specializations into shared functions, and each absent field costs a call.
@usableFromInline package struct FieldValues<Field: RawRepresentable & CaseIterable, Object: ObjectReader> where Field.RawValue == Int {
    @usableFromInline let object: Object
    @usableFromInline let keys: FieldKeys
    @usableFromInline let slots: FieldSlots

    @inlinable
    init(object: Object, keys: FieldKeys, slots: FieldSlots) {
        self.object = object
        self.keys = keys
        self.slots = slots
    }

    /// The member for `field`, null included; nil when absent.
    @inlinable @inline(__always)
    package func value(_ field: Field) -> Object.Value? {
        let handle = slots[field.rawValue]
        return handle < 0 ? nil : object.member(handle, keys, field.rawValue)
    }

    /// The member for `field`, nil when absent or null (null counts as absent).
    @inlinable @inline(__always)
    package func present(_ field: Field) -> Object.Value? {
        guard let v = value(field), !v.isNull else { return nil }
        return v
    }

    /// Whether any field but `field` and `other` is in the object (null included).
    @inlinable @inline(__always)
    package func hasField(besides field: Field, _ other: Field? = nil) -> Bool {
        let skipped = other?.rawValue ?? field.rawValue
        // Every slot past the table's fields holds -1.
        for i in 0..<FieldSlots.count where i != field.rawValue && i != skipped && slots[i] >= 0 { return true }
        return false
    }

    /// A required field: missing, null or malformed is an error.
    @inlinable @inline(__always)
    package func required<T: FlowDecodable>(_ field: Field, as: T.Type = T.self) throws -> T {
        guard let v = present(field) else { throw ContentError.missing(keys.names[field.rawValue]) }
        do { return try v.read(T.self) } catch { throw locate(error, field) }
    }

    /// An optional field: absent or null is nil; present and malformed is an error.
    @inlinable @inline(__always)
    package func optional<T: FlowDecodable>(_ field: Field, as: T.Type = T.self) throws -> T? {
        guard let v = present(field) else { return nil }
        do { return try v.read(T.self) } catch { throw locate(error, field) }
    }

    @usableFromInline
    func locate(_ error: any Error, _ field: Field) -> any Error {
        (error as? ContentError)?.at(.key(keys.names[field.rawValue].description)) ?? error
    }
}

extension ObjectReader {
    /// The values for every field of `table`, found in one pass.
    @inlinable
    package func fields<F>(_ table: FieldTable<F>) -> FieldValues<F, Self> {
        FieldValues(object: self, keys: table.keys, slots: locate(table.keys))
    }
}
