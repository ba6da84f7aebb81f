import FlowJSON

// Readers in place, for the keyed container's hot path: nil for anything the decoder's
// throwing readers would not return as is (another kind, a number out of range, an escaped
// string), which the container then hands to those readers for the error or the slow decode.
extension JSONTapeView {
    @inline(__always)
    func boolInPlace(_ i: Int) -> Bool? {
        switch kind(i) {
        case .true: true
        case .false: false
        default: nil
        }
    }

    @inline(__always)
    func stringInPlace(_ i: Int) -> String? {
        guard kind(i) == .string, !flag(i) else { return nil }
        return try? string(i)
    }

    @inline(__always)
    func numberInPlace(_ type: Double.Type, _ i: Int) -> Double? {
        kind(i) == .number ? JSONNumberParsing.double(rawBytes(i)) : nil
    }

    @inline(__always)
    func numberInPlace(_ type: Float.Type, _ i: Int) -> Float? {
        kind(i) == .number ? JSONNumberParsing.float(rawBytes(i)) : nil
    }

    @inline(__always)
    func integerInPlace<T: FixedWidthInteger>(_ type: T.Type, _ i: Int) -> T? {
        guard kind(i) == .number else { return nil }
        return JSONNumberParsing.integer(rawBytes(i), isIntegerLiteral: flag(i), as: T.self)
    }
}
