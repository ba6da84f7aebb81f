/// One step of a dotted path: an object key or an array position.
@usableFromInline package enum PathComponent: Sendable, Hashable {
    case key(String)
    case index(Int)
}

/// A dotted path (`page.sections.0.widgets.2`), the one format ids and diagnostics share.
///
/// Built only when a diagnostic is recorded or a positional id is needed; while decoding,
/// the current path lives as a stack of components in the ``DecodeContext``.
package struct DecodePath: Sendable, Hashable, CustomStringConvertible {
    package var components: [PathComponent]

    @usableFromInline package init(_ components: [PathComponent] = []) { self.components = components }

    package static func root(_ key: String) -> DecodePath { DecodePath([.key(key)]) }

    package func appending(_ key: String) -> DecodePath { DecodePath(components + [.key(key)]) }

    package func appending(_ index: Int) -> DecodePath { DecodePath(components + [.index(index)]) }

    package var description: String { Self.render(components) }

    /// Written once into the string's own storage (``TextAssembly``): a diagnostic on every
    /// widget of a page (50,000 duplicate ids) renders 50,000 paths, and a path of 15 bytes
    /// or fewer (stored inline in the string) allocates nothing at all. Generic so that the
    /// decode context renders its stack where it lies, without copying it to an array.
    static func render<Components: Collection<PathComponent>>(_ components: Components) -> String {
        TextAssembly.string { text in
            for c in components {
                // Between written parts: an empty leading key takes no separator.
                if text.count > 0 { text.append(".") }
                switch c {
                case .key(let k): text.append(k)
                case .index(let i): text.append(i)
                }
            }
        }
    }
}
