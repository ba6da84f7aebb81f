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

    static func render(_ components: ArraySlice<PathComponent>) -> String {
        var result = ""
        for c in components {
            if !result.isEmpty { result.append(".") }
            switch c {
            case .key(let k): result.append(k)
            case .index(let i): result.append(String(i))
            }
        }
        return result
    }
}
