@testable import FlowCore
import Testing

/// The short-bytes comparison agrees with a byte-by-byte one for every length and every
/// position of a difference (its loads overlap, so each length takes a different route).
@Suite struct ShortBytesTests {
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        // One spare byte each, so that even an empty array has an address.
        let x = a + [0], y = b + [0]
        return x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in ShortBytes.equal(x.baseAddress!, y.baseAddress!, a.count) } }
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
}
