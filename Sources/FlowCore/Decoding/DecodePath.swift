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

    /// Written as bytes and made a string once: a diagnostic on every widget of a page
    /// (50,000 duplicate ids) renders 50,000 paths, and growing a `String` piece by piece
    /// cost four times as much.
    static func render(_ components: ArraySlice<PathComponent>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(components.count * 8)
        for c in components {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: ".")) }
            switch c {
            case .key(let k): bytes.append(contentsOf: k.utf8)
            case .index(let i): appendDecimal(i, to: &bytes)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var v = value.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(v % 10))
            v /= 10
        } while v > 0
        bytes[start...].reverse()
    }
}
