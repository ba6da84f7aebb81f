#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension JSONTapeView {
    /// The bytes of the value at entry `i` from its first byte (a string's opening quote
    /// included) to the end of its last token: the value's text but for the closing brackets
    /// after its last token, which those bytes imply. Found in O(1), so a raw slice can keep
    /// this range instead of the index (see ``JSONWriter/write(valueSpan:)``).
    @inlinable
    public func valueSpan(_ i: Int) -> Range<Int> {
        let start = kind(i) == .string ? offset(i) - 1 : offset(i)
        return start..<tokenEnd(next(i) - 1)
    }
}

extension JSONWriter {
    /// Writes the value whose bytes are `span`, as ``JSONTapeView/valueSpan(_:)`` gives them
    /// (taken from a scanned document: they are not checked again), compact: whitespace
    /// outside strings dropped and the closing brackets the span leaves out written, strings
    /// and numbers as received. The output is what ``write(_:at:)`` writes for the same
    /// value, with no index needed.
    ///
    /// - Complexity: O(span.count); allocates only for containers nested deeper than 64.
    public mutating func write(valueSpan span: UnsafeBufferPointer<UInt8>) {
        guard let base = span.baseAddress else { return }
        let n = span.count
        // The containers still open: bit k says whether level k is an object, for the first
        // 64 levels; deeper ones in `deeper`.
        var depth = 0
        var objectBits: UInt64 = 0
        var deeper: [Bool] = []
        var runStart = 0
        var i = 0
        while i < n {
            switch base[i] {
            case UInt8(ascii: "\""):
                i = stringEnd(base, from: i, count: n)
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                let isObject = base[i] == UInt8(ascii: "{")
                if depth < 64 {
                    objectBits = isObject ? objectBits | 1 << depth : objectBits & ~(1 << depth)
                } else {
                    deeper.append(isObject)
                }
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth >= 64 { deeper.removeLast() }
            case 0x20, 0x09, 0x0A, 0x0D:
                if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart)) }
                runStart = i + 1
            default:
                break
            }
            i += 1
        }
        if runStart < n { bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: n - runStart)) }
        while depth > 0 {
            depth -= 1
            let isObject = depth < 64 ? objectBits >> depth & 1 == 1 : deeper.removeLast()
            bytes.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    /// The offset just past the string whose opening quote is at `open`: the first quote
    /// after it that an even number of backslashes precedes. `memchr` finds the quotes, as
    /// string contents are most of a payload's bytes; each backslash is counted once, since
    /// counting stops at the quote before it.
    private func stringEnd(_ base: UnsafePointer<UInt8>, from open: Int, count n: Int) -> Int {
        var from = open + 1
        while from < n, let found = memchr(base + from, Int32(UInt8(ascii: "\"")), n - from) {
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            var before = quote - 1
            while before > open && base[before] == UInt8(ascii: "\\") { before -= 1 }
            if (quote - 1 - before) % 2 == 0 { return quote + 1 }
            from = quote + 1
        }
        return n
    }
}
