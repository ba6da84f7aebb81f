import Testing
@testable import FlowCore

/// The short-key comparison agrees with a byte-by-byte one for every length and every
/// position of a difference (its loads overlap, so each length takes a different route).
@Suite struct FieldKeysTests {
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        // One spare byte each, so that even an empty array has an address.
        let x = a + [0], y = b + [0]
        return x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in FieldKeys.equal(x.baseAddress!, y.baseAddress!, a.count) } }
    }

    @Test func shortComparisonAgreesWithBytes() {
        for count in 0...40 {
            let a = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Self.equal(a, Array(a)))
            for position in 0..<count {
                var b = a
                b[position] ^= 0x20
                #expect(!Self.equal(a, b), "length \(count), difference at \(position)")
            }
        }
    }

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
}
