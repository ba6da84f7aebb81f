/// One step of a dotted path: an object key or an array position.
public enum PathComponent: Sendable, Hashable {
    case key(String)
    case index(Int)
}

/// A dotted path (`page.sections.0.widgets.2`), the one format ids and diagnostics share.
///
/// Built only when a diagnostic is recorded or a positional id is needed; while decoding,
/// the current path lives as a stack of components in the ``DecodeContext``.
public struct DecodePath: Sendable, Hashable, CustomStringConvertible {
    public var components: [PathComponent]

    public init(_ components: [PathComponent] = []) { self.components = components }

    public static func root(_ key: String) -> DecodePath { DecodePath([.key(key)]) }

    public func appending(_ key: String) -> DecodePath { DecodePath(components + [.key(key)]) }

    public func appending(_ index: Int) -> DecodePath { DecodePath(components + [.index(index)]) }

    public var description: String { Self.render(components[...]) }

    /// Measured first, then written straight into the string's own storage: a diagnostic
    /// on every widget of a page (50,000 duplicate ids) renders 50,000 paths, growing a
    /// `String` piece by piece cost four times as much, and a path of 15 bytes or fewer
    /// (stored inline in the string) allocates nothing at all.
    static func render(_ components: ArraySlice<PathComponent>) -> String {
        var length = 0
        for c in components {
            if length > 0 { length += 1 }
            switch c {
            case .key(let k): length += k.utf8.count
            case .index(let i): length += decimalLength(i)
            }
        }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var n = 0
            for c in components {
                if n > 0 { buffer[n] = UInt8(ascii: "."); n += 1 }
                switch c {
                case .key(let k):
                    for byte in k.utf8 { buffer[n] = byte; n += 1 }
                case .index(let i):
                    n += decimalLength(i)
                    var v = i.magnitude, at = n
                    repeat {
                        at -= 1
                        buffer[at] = UInt8(ascii: "0") + UInt8(v % 10)
                        v /= 10
                    } while v > 0
                    if i < 0 { buffer[at - 1] = UInt8(ascii: "-") }
                }
            }
            return n
        }
    }

    private static func decimalLength(_ value: Int) -> Int {
        var digits = 1, v = value.magnitude
        while v >= 10 { v /= 10; digits += 1 }
        return value < 0 ? digits + 1 : digits
    }
}
