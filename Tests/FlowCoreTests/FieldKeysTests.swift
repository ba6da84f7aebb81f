import Testing
@testable import FlowCore

/// Field tables find the keys they declare, and only those.
@Suite struct FieldKeysTests {
    @Test func tablesFindTheirKeysAndOnlyThem() {
        enum F: Int, CaseIterable { case a, type, id, layout, isMarkdown, aVeryLongKeyNameIndeed }
        let table = FieldTable<F>(["a", "type", "id", "layout", "is_markdown", "a_very_long_key_name_indeed"])
        func index(_ s: String) -> Int? {
            var s = s
            return s.withUTF8 { table.keys.index(of: $0.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: $0.count) }
        }
        #expect(["a", "type", "id", "layout", "is_markdown", "a_very_long_key_name_indeed"].map(index) == [0, 1, 2, 3, 4, 5])
        #expect(["b", "typo", "ie", "layouT", "is_markdowm", "a_very_long_key_name_indeeD", "", "types"].map(index) == [nil, nil, nil, nil, nil, nil, nil, nil])
    }

    /// Keys that share length, first and last byte land in one slot and are told apart by
    /// their probes alone; each length takes its own route (three bytes, two 4-byte or two
    /// 8-byte words, `memcmp` past 16), so every length up to 24 is tried, with keys that
    /// differ in one interior byte, and every one-byte change of a key.
    @Test func keysSharingASlotAreToldApartAtEveryLength() {
        func index(_ keys: FieldKeys, _ bytes: [UInt8]) -> Int? {
            bytes.withUnsafeBufferPointer { keys.index(of: $0.baseAddress!, count: $0.count) }
        }
        for count in 1...24 {
            let base = [UInt8(ascii: "k")] + Array(repeating: UInt8(ascii: "a"), count: max(count - 2, 0)) + (count > 1 ? [UInt8(ascii: "z")] : [])
            var spellings = [base]
            for position in 1..<max(count - 1, 1) where spellings.count < FieldKeys.capacity {
                var key = base
                key[position] = UInt8(ascii: "b")
                spellings.append(key)
            }
            let names: [StaticString] = spellings.map { Self.interned($0) }
            let keys = FieldKeys(names)
            for (j, key) in spellings.enumerated() {
                #expect(index(keys, key) == j, "length \(count), key \(j)")
                for position in key.indices {
                    var changed = key
                    changed[position] ^= 0x03  // "a" <-> "b": some changes spell another key
                    #expect(index(keys, changed) == spellings.firstIndex(of: changed), "length \(count), key \(j), byte \(position)")
                }
            }
        }
    }

    /// A `StaticString` over bytes that live for the process, as a table's keys do.
    static func interned(_ bytes: [UInt8]) -> StaticString {
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count + 1)
        storage.initialize(from: bytes + [0], count: bytes.count + 1)
        return StaticString(_builtinStringLiteral: storage._rawValue, utf8CodeUnitCount: bytes.count._builtinWordValue, isASCII: true._value)
    }
}
