extension JSONTapeView {
    /// Decodes the string at entry `i`.
    ///
    /// Strings without escapes are copied straight out of the (already validated) bytes.
    /// A `\u` escape naming a lone surrogate throws ``JSONSyntaxError/Reason/loneSurrogate``:
    /// the scan lets it through so that it costs only whoever reads this string.
    @inlinable
    public func string(_ i: Int) throws(JSONSyntaxError) -> String {
        let raw = rawBytes(i)
        if !flag(i) {
            return String(unsafeUninitializedCapacity: raw.count) { out in
                _ = out.initialize(fromContentsOf: raw)
                return raw.count
            }
        }
        return try unescape(raw, at: offset(i))
    }

    /// Decodes the string at entry `i`, a lone surrogate escape shown as U+FFFD (the
    /// replacement character), as a JavaScript `TextDecoder` shows one: what an opaque
    /// value's tree view holds, since opaque JSON must never fail for its text.
    public func stringReplacingLoneSurrogates(_ i: Int) -> String {
        let raw = rawBytes(i)
        guard flag(i) else { return (try? string(i)) ?? "" }
        // Replacing never throws.
        return (try? unescape(raw, at: offset(i), replacingLoneSurrogates: true)) ?? ""
    }

    @usableFromInline
    func unescape(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int, replacingLoneSurrogates: Bool = false) throws(JSONSyntaxError) -> String {
        // Every escape is at least as long as what it stands for, so the input length bounds
        // the output.
        var failure: Int?
        let result = String(unsafeUninitializedCapacity: raw.count) { out in
            var r = 0
            var w = 0
            while r < raw.count {
                let c = raw[r]
                guard c == UInt8(ascii: "\\") else {
                    out[w] = c
                    w += 1
                    r += 1
                    continue
                }
                let e = raw[r + 1]
                r += 2
                switch e {
                case UInt8(ascii: "b"): out[w] = 0x08
                case UInt8(ascii: "f"): out[w] = 0x0C
                case UInt8(ascii: "n"): out[w] = 0x0A
                case UInt8(ascii: "r"): out[w] = 0x0D
                case UInt8(ascii: "t"): out[w] = 0x09
                case UInt8(ascii: "u"):
                    var scalar = UInt32(Self.hexValue(raw, r))
                    r += 4
                    if scalar & 0xF800 == 0xD800 {
                        // A high surrogate must be followed by an escaped low one.
                        let paired = scalar < 0xDC00 && r + 6 <= raw.count
                            && raw[r] == UInt8(ascii: "\\") && raw[r + 1] == UInt8(ascii: "u")
                            && Self.hexValue(raw, r + 2) & 0xFC00 == 0xDC00
                        if paired {
                            let low = UInt32(Self.hexValue(raw, r + 2))
                            r += 6
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else if replacingLoneSurrogates {
                            // Three bytes out for the six of the escape: the bound holds.
                            scalar = 0xFFFD
                        } else {
                            failure = r - 6
                            return 0
                        }
                    }
                    w += Self.encodeUTF8(scalar, into: out, at: w)
                    continue
                default: out[w] = e  // '"', '\\', '/'
                }
                w += 1
            }
            return w
        }
        if let failure { throw JSONSyntaxError(.loneSurrogate, offset: offset + failure, in: bytes) }
        return result
    }

    @inline(__always) @usableFromInline
    static func hexValue(_ raw: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt16 {
        var v: UInt16 = 0
        for k in 0..<4 {
            let c = raw[at + k]
            let digit = c <= UInt8(ascii: "9") ? c &- UInt8(ascii: "0") : (c | 0x20) &- UInt8(ascii: "a") &+ 10
            v = v << 4 | UInt16(digit)
        }
        return v
    }

    @inline(__always) @usableFromInline
    static func encodeUTF8(_ s: UInt32, into out: UnsafeMutableBufferPointer<UInt8>, at w: Int) -> Int {
        switch s {
        case 0..<0x80:
            out[w] = UInt8(s)
            return 1
        case 0x80..<0x800:
            out[w] = UInt8(0xC0 | s >> 6)
            out[w + 1] = UInt8(0x80 | s & 0x3F)
            return 2
        case 0x800..<0x10000:
            out[w] = UInt8(0xE0 | s >> 12)
            out[w + 1] = UInt8(0x80 | (s >> 6) & 0x3F)
            out[w + 2] = UInt8(0x80 | s & 0x3F)
            return 3
        default:
            out[w] = UInt8(0xF0 | s >> 18)
            out[w + 1] = UInt8(0x80 | (s >> 12) & 0x3F)
            out[w + 2] = UInt8(0x80 | (s >> 6) & 0x3F)
            out[w + 3] = UInt8(0x80 | s & 0x3F)
            return 4
        }
    }
}
