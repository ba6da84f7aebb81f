#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FlowJSON

/// The object a ``TapeKeyedContainer`` reads, and what opening it learned about its keys.
///
/// A class, and the container's only stored property, so that a decoder can hand the same
/// container out again for the next object: ``TapeDecoder/container(keyedBy:)`` then
/// points this at the new object. The standard library boxes every keyed container in an
/// allocation, and looks up two generic types at run time to make the box; for a small
/// struct that costs more than reading its fields.
final class TapeKeyedObject {
    // Unchecked exclusivity: one decode on one thread uses a container, and the dynamic
    // checks would cost more than the reads they guard.
    /// The decoder the container belongs to, not counted: the decoder keeps its idle
    /// containers (a counted reference back would make a cycle), and counting it on every
    /// reuse costs two atomic operations. It is alive whenever the container can be read:
    /// - a container the decoder keeps for reuse is read only between
    ///   ``TapeDecoder/container(keyedBy:)`` handing it out and ``TapeDecoder/settle()``,
    ///   while the decode that holds the decoder runs;
    /// - one the value kept past that (``keep()``) and one made for a single use count the
    ///   decoder in ``keeper``;
    /// - and a decoder cannot end while one of its containers is out uncounted: its
    ///   `deinit` checks that with a `precondition`.
    @exclusivity(unchecked) private(set) unowned(unsafe) var owner: TapeDecoder
    /// The counted reference to ``owner``, for a container that may be read after the decode.
    @exclusivity(unchecked) private var keeper: TapeDecoder?
    /// The owner's view. The owner holds the document this points into.
    @exclusivity(unchecked) private(set) var view: JSONTapeView
    @exclusivity(unchecked) private(set) var object: Int
    /// Whether every key of the object is written without escapes and in ASCII: then an
    /// ASCII key is found by comparing bytes (equal bytes are equal strings, and no other
    /// spelling can be canonically equivalent to it).
    @exclusivity(unchecked) private(set) var plainKeys: Bool
    /// With ``plainKeys``, the ``keyBit(_:_:)`` of every key, or-ed: a name whose bit is not
    /// set is absent without a scan. A struct's optional fields are often left out of the
    /// document, and each would otherwise cost a comparison with every member.
    @exclusivity(unchecked) private(set) var keyBits: UInt64
    /// With ``plainKeys``: no two keys share their bit, so no key is written twice. Then the
    /// member after the one found last is tried first (``hint``): a synthesized
    /// `init(from:)` asks for its keys in declaration order, which is usually the document's,
    /// and with no duplicate the first match is the only one.
    @exclusivity(unchecked) private var distinctKeys: Bool
    /// The key entry of the member after the one found last.
    @exclusivity(unchecked) private var hint: Int
    /// More than ``tableThreshold`` members: keys are looked up in a table the decoder
    /// keeps for this object (``TapeDecoder/memberTable(_:)``), not by a scan.
    @exclusivity(unchecked) private(set) var large: Bool
    @exclusivity(unchecked) private(set) var codingPath: [any CodingKey]
    /// The names of the container's keys asked so far, by the key's one byte (see
    /// ``TapeKeyedContainer/entry(_:)``): kept with the container, which a decoder hands
    /// out again for every value of its key type, so a key's name is read and summed once.
    @exclusivity(unchecked) private var names: [KeyName] = []

    static var tableThreshold: Int { 16 }

    /// The object at the decoder's cursor (which must be an object). `counted`: the
    /// decoder will not keep the container for reuse, so the container counts it.
    init(decoder: TapeDecoder, counted: Bool) throws {
        owner = decoder
        keeper = counted ? decoder : nil
        view = decoder.view
        object = decoder.index
        plainKeys = false
        keyBits = 0
        distinctKeys = false
        hint = 0
        large = false
        codingPath = []
        try open(decoder)
    }

    /// Points this at the object at `decoder`'s cursor (its owner), as
    /// ``init(decoder:counted:)`` does; nothing changes when its keys do not decode.
    func open(_ decoder: TapeDecoder) throws {
        let object = decoder.index
        let summary = try Self.summary(decoder, object)
        owner = decoder
        view = decoder.view
        self.object = object
        plainKeys = summary.plainKeys
        keyBits = summary.keyBits
        distinctKeys = summary.distinctKeys
        hint = object + 1
        large = summary.large
        // Not the decoder's own empty path: that keeps its capacity, and sharing it would
        // make the decoder's next push copy it.
        codingPath = decoder.path.isEmpty ? [] : decoder.path
    }

    /// Counts the owner from now on: the value kept the container, which the owner no
    /// longer keeps for reuse.
    func keep() { keeper = owner }

    /// Whether the owner is counted.
    var isKept: Bool { keeper != nil }

    /// The value entry of the first member whose key is `wanted` (UTF-8), found by comparing
    /// bytes; for objects whose keys are all plain (``plainKeys``). Nil when the name is not
    /// ASCII, which the container then compares as a string: a non-ASCII name can be
    /// canonically equivalent to an ASCII key (the Kelvin sign is "K").
    func plainEntry(_ wanted: UnsafeBufferPointer<UInt8>) -> Int?? {
        let n = wanted.count
        guard let w = wanted.baseAddress, n > KeyName.longest else {
            // Short (most names): compared as their words, as a learned name is.
            guard let name = KeyName(wanted) else { return .none }
            return .some(plainEntry(name))
        }
        let end = view.next(object)
        let base = view.bytes.baseAddress!
        // Equal bytes to a plain key: the name is that key, whether or not it was checked
        // for ASCII first.
        if distinctKeys && hint < end {
            let r = view.byteRange(hint)
            if r.count == n && ShortBytes.equal(base + r.lowerBound, w, n) { return .some(found(hint)) }
        }
        guard let bit = Self.keyBit(w, n) else { return .none }
        if keyBits & bit == 0 { return .some(nil) }
        guard let k = firstMember(end, { r in r.count == n && ShortBytes.equal(base + r.lowerBound, w, n) }) else { return .some(nil) }
        return .some(found(k))
    }

    /// ``plainEntry(_:)-(UnsafeBufferPointer<UInt8>)`` for a short ASCII name, summed.
    func plainEntry(_ name: KeyName) -> Int? {
        let end = view.next(object)
        let base = view.bytes.baseAddress!
        let n = name.count
        @inline(__always) func matches(_ r: Range<Int>) -> Bool {
            r.count == n && (n == 0 || ShortBytes.words(base + r.lowerBound, n) == name.words)
        }
        if distinctKeys && hint < end && matches(view.byteRange(hint)) { return found(hint) }
        if keyBits & name.bit == 0 { return nil }
        return firstMember(end, matches).map(found)
    }

    /// The name learned for the key whose byte is `tag`, if one was.
    @inline(__always)
    func name(_ tag: Int) -> KeyName? {
        tag < names.count && names[tag].isKnown ? names[tag] : nil
    }

    /// Learns the name of the key whose byte is `tag`.
    func learn(_ tag: Int, _ name: String) -> KeyName {
        var text = name
        let learned = text.withUTF8 { KeyName($0) } ?? .notShort
        if names.count <= tag { names.append(contentsOf: repeatElement(.unknown, count: tag + 1 - names.count)) }
        names[tag] = learned
        return learned
    }

    /// The value entry of the member whose key entry is `key`; the next lookup tries the
    /// member after it first.
    @inline(__always)
    private func found(_ key: Int) -> Int {
        hint = view.next(key + 1)
        return key + 1
    }

    /// The key entry of the first member whose key's byte range satisfies `matches`.
    @inline(__always)
    private func firstMember(_ end: Int, _ matches: (Range<Int>) -> Bool) -> Int? {
        let view = self.view
        var k = object + 1
        while k < end {
            if matches(view.byteRange(k)) { return k }
            k = view.next(k + 1)
        }
        return nil
    }

    /// What the container needs to know of `object`'s keys. Foundation decodes every key
    /// when it opens an object, so a key that does not decode throws here.
    private static func summary(_ decoder: TapeDecoder, _ object: Int) throws -> (plainKeys: Bool, keyBits: UInt64, distinctKeys: Bool, large: Bool) {
        let view = decoder.view
        let base = view.bytes.baseAddress!
        let end = view.next(object)
        var members = 0
        var plain = true
        var bits: UInt64 = 0
        var distinct = true
        var k = object + 1
        while k < end {
            members += 1
            if view.flag(k) {
                plain = false
                if (try? view.string(k)) == nil {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "An object key is not a valid string."))
                }
            } else if plain {
                let r = view.byteRange(k)
                if let bit = keyBit(base + r.lowerBound, r.count) {
                    if bits & bit != 0 { distinct = false }
                    bits |= bit
                } else {
                    plain = false
                }
            }
            k = view.next(k + 1)
        }
        let large = members > tableThreshold
        if large { decoder.buildMemberTable(object, members: members) }
        return (plain, bits, plain && distinct, large)
    }

    /// One of 64 bits chosen by a key's bytes (equal keys, equal bits), or nil when the key
    /// is not ASCII.
    @inline(__always)
    static func keyBit(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> UInt64? {
        guard count > 0 else { return 1 }
        let (a, b) = ShortBytes.words(bytes, count)
        if count <= 16 {
            // The words cover every byte of a short key.
            guard (a | b) & 0x8080_8080_8080_8080 == 0 else { return nil }
        } else if !ShortBytes.isASCII(bytes, count) {
            return nil
        }
        let mixed = (a &+ b &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: count)) &* 0xBF58_476D_1CE4_E5B9
        return 1 &<< (mixed &>> 58)
    }
}

/// A key's name, as the plain-key lookup compares it: up to ``longest`` ASCII bytes, held as
/// their ``ShortBytes/words(_:_:)`` with its ``TapeKeyedObject/keyBit(_:_:)``, so a lookup
/// neither asks the key for its name nor reads it.
struct KeyName {
    /// The byte count; `-1` for a name that is longer or not ASCII (looked up as a string),
    /// `-2` for one not learned yet.
    let count: Int
    let words: (UInt64, UInt64)
    let bit: UInt64

    static var longest: Int { 16 }
    static let unknown = KeyName(count: -2)
    static let notShort = KeyName(count: -1)

    private init(count: Int) {
        self.count = count
        words = (0, 0)
        bit = 0
    }

    /// The name of these UTF-8 bytes, or nil when they are longer than ``longest`` or not
    /// ASCII.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= Self.longest else { return nil }
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            count = 0
            words = (0, 0)
            bit = 1
            return
        }
        guard let bit = TapeKeyedObject.keyBit(base, bytes.count) else { return nil }
        count = bytes.count
        words = ShortBytes.words(base, bytes.count)
        self.bit = bit
    }

    var isKnown: Bool { count != -2 }
    var isShort: Bool { count >= 0 }
}
