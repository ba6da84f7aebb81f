/// Strings assembled from a few pieces — paths, generated ids, diagnostic messages — measured
/// first and then written once into the new string's own storage.
///
/// A page whose widgets all send one id builds a renamed id, a path and a message for every
/// widget; interpolation and `+` grow a string piece by piece (each piece an append, some a
/// reallocation), which cost several times as much as writing the bytes once. The pieces
/// are written by a closure that runs twice: once to measure, once to write.
///
///     let name = TextAssembly.string { $0.append(base); $0.append("#"); $0.append(k) }
enum TextAssembly {
    @inline(__always)
    static func string(_ write: (inout Writer) -> Void) -> String {
        var measure = Writer(into: nil)
        write(&measure)
        return String(unsafeUninitializedCapacity: measure.count) { buffer in
            var writer = Writer(into: buffer)
            write(&writer)
            return writer.count
        }
    }

    /// Counts the bytes of its pieces, and writes them when it has somewhere to.
    struct Writer {
        private let buffer: UnsafeMutableBufferPointer<UInt8>?
        private(set) var count = 0

        fileprivate init(into buffer: UnsafeMutableBufferPointer<UInt8>?) { self.buffer = buffer }

        @inline(__always)
        mutating func append(_ text: String) {
            guard let buffer else { count += text.utf8.count; return }
            let written = text.utf8.withContiguousStorageIfAvailable { bytes in
                buffer[count...].initialize(fromContentsOf: bytes) - count
            }
            if let written {
                count += written
            } else {
                for byte in text.utf8 { buffer[count] = byte; count += 1 }
            }
        }

        /// `value` in decimal.
        @inline(__always)
        mutating func append(_ value: Int) {
            let digits = Self.decimalLength(value)
            defer { count += digits }
            guard let buffer else { return }
            var v = value.magnitude, at = count + digits
            repeat {
                at -= 1
                buffer[at] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
            } while v > 0
            if value < 0 { buffer[at - 1] = UInt8(ascii: "-") }
        }

        private static func decimalLength(_ value: Int) -> Int {
            var digits = 1, v = value.magnitude
            while v >= 10 { v /= 10; digits += 1 }
            return value < 0 ? digits + 1 : digits
        }
    }
}
