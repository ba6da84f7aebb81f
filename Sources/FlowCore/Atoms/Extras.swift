/// The rarely-set fields of an atom, out of line.
///
/// Atoms nest (a tag holds a text, colors, an icon holding an action…), and inline they
/// made a product card over 600 bytes, copied at every step of decoding. Keeping the common
/// field inline and the rest behind one immutable box (nil when all are absent, which is
/// most of the time) keeps atoms at two or three words. The box is replaced, never mutated,
/// so value semantics hold and it is safely `Sendable`.
final class Extras<Fields: Hashable & Sendable>: Hashable, Sendable {
    let fields: Fields

    init(_ fields: Fields) { self.fields = fields }

    static func == (a: Extras, b: Extras) -> Bool { a === b || a.fields == b.fields }

    func hash(into hasher: inout Hasher) { hasher.combine(fields) }
}

protocol EmptyCheckable: Hashable, Sendable {
    init()
    /// Every field absent (cheaper than comparing with `init()`: atoms are made by the
    /// hundred thousand, almost all of them with nothing here).
    var isEmpty: Bool { get }
}

extension Optional {
    /// Reads a field of the box, or the field's absent value.
    @inline(__always)
    func field<F: EmptyCheckable, T>(_ path: KeyPath<F, T>) -> T where Wrapped == Extras<F> {
        self?.fields[keyPath: path] ?? F()[keyPath: path]
    }

    /// A box with one field changed; nil when every field is back to absent.
    mutating func set<F: EmptyCheckable, T>(_ path: WritableKeyPath<F, T>, _ value: T) where Wrapped == Extras<F> {
        var fields = self?.fields ?? F()
        fields[keyPath: path] = value
        self = fields.isEmpty ? nil : Extras(fields)
    }

    /// A box for `fields`, nil when they are all absent.
    @inline(__always)
    static func make<F: EmptyCheckable>(_ fields: F) -> Extras<F>? where Wrapped == Extras<F> {
        fields.isEmpty ? nil : Extras(fields)
    }
}
