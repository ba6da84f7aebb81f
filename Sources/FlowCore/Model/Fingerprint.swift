import FlowJSON

/// A 64-bit fingerprint of JSON content, for the cheap "did this widget change" test a
/// refresh diff makes on every widget.
///
/// Equal JSON content gives equal fingerprints whichever way it is stored (tape slice or
/// tree): strings hash their decoded UTF-8, numbers their literal, objects combine their
/// members without regard to order. Not a cryptographic hash: two different widgets collide
/// with probability about 2^-64, and a collision would only hide an update.
enum Fingerprint {
    static let seed: UInt64 = 0x243F_6A88_85A3_08D3

    @inline(__always)
    static func mix(_ h: UInt64, _ v: UInt64) -> UInt64 {
        var x = (h ^ v) &* 0x9E37_79B9_7F4A_7C15
        x ^= x >> 29
        x = x &* 0xBF58_476D_1CE4_E5B9
        return x ^ (x >> 32)
    }

    /// Hashes bytes eight at a time.
    static func bytes(_ p: UnsafeBufferPointer<UInt8>, _ tag: UInt64) -> UInt64 {
        var h = mix(seed, tag &+ UInt64(p.count))
        guard let base = p.baseAddress else { return h }
        var i = 0
        let n = p.count
        while i + 8 <= n {
            h = mix(h, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                tail |= UInt64(base[i]) << shift
                shift += 8
                i += 1
            }
            h = mix(h, tail)
        }
        return h
    }

    static func string(_ s: String) -> UInt64 {
        var s = s
        return s.withUTF8 { bytes($0, 4) }
    }

    /// The subtree at entry `i` (depth bounded by the scan's limit).
    static func tape(_ view: JSONTapeView, _ i: Int) -> UInt64 {
        switch view.kind(i) {
        case .null: return mix(seed, 1)
        case .false: return mix(seed, 2)
        case .true: return mix(seed, 3)
        case .number: return bytes(view.rawBytes(i), 5)
        case .string:
            if view.flag(i), let s = try? view.string(i) { return string(s) }
            return bytes(view.rawBytes(i), 4)
        case .array:
            var h = mix(seed, 6)
            view.forEachElement(i) { e in
                h = mix(h, tape(view, e))
                return true
            }
            return h
        case .object:
            var sum: UInt64 = 0
            var count: UInt64 = 0
            view.forEachMember(i) { k, v in
                sum &+= mix(tape(view, k), tape(view, v))
                count += 1
                return true
            }
            return mix(mix(seed, 7 &+ count), sum)
        }
    }

    static func value(_ v: JSONValue) -> UInt64 {
        switch v {
        case .null: return mix(seed, 1)
        case .bool(let b): return mix(seed, b ? 3 : 2)
        case .number(let n):
            var text = n.text
            return text.withUTF8 { bytes($0, 5) }
        case .string(let s): return string(s)
        case .array(let elements):
            var h = mix(seed, 6)
            for e in elements { h = mix(h, value(e)) }
            return h
        case .object(let object):
            var sum: UInt64 = 0
            for m in object.members { sum &+= mix(string(m.key), value(m.value)) }
            return mix(mix(seed, 7 &+ UInt64(object.count)), sum)
        }
    }
}

extension RawJSON {
    /// See ``Fingerprint``.
    var fingerprint: UInt64 {
        switch storage {
        case .value(let v): return Fingerprint.value(v)
        case .slice(let document, let index): return document.withView { Fingerprint.tape($0, index) }
        }
    }
}
