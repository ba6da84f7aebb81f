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

    /// Every byte of every length counts: one byte of 0x80 or above, wherever it sits, makes
    /// the bytes not ASCII (the words for short lengths overlap and skip nothing). The bytes
    /// around the range are high, so a load past either end would be seen.
    @Test func asciiCheckSeesEveryByte() {
        for count in 0...40 {
            let ascii = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) & 0x7F }
            func isASCII(_ bytes: [UInt8]) -> Bool {
                let padded = [UInt8](repeating: 0xFF, count: 8) + bytes + [UInt8](repeating: 0xFF, count: 8)
                return padded.withUnsafeBufferPointer { ShortBytes.isASCII($0.baseAddress! + 8, bytes.count) }
            }
            #expect(isASCII(ascii), "length \(count)")
            for position in 0..<count {
                var b = ascii
                b[position] |= 0x80
                #expect(!isASCII(b), "length \(count), high byte at \(position)")
            }
        }
    }
}
