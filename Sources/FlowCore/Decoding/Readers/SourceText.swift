#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlowJSON

/// A value's text in a scanned document: which document, where the text lies in it, and a
/// hash of it.
///
/// The document is named by its identity and not held: a decoder looks a value up by its
/// text up to three times per widget, and a counted reference would cost an atomic retain
/// and release each time. Whoever compares texts holds the document (``WidgetInterner``,
/// the decode context), checks that a text ``lies(in:)`` it before keeping or comparing it,
/// and hands its bytes to ``spellsTheSame(as:in:)``.
@usableFromInline package struct SourceText: Sendable {
    let document: ObjectIdentifier
    let range: Range<Int>
    let hash: UInt64

    /// Whether this is a text of `document`.
    @inline(__always)
    func lies(in document: JSONDocument) -> Bool { self.document == ObjectIdentifier(document) }

    /// Whether the two texts are the same bytes of `bytes`, the document both lie in.
    func spellsTheSame(as other: SourceText, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard hash == other.hash, range.count == other.range.count else { return false }
        // Both texts were checked to lie in the document `bytes` is; the bounds are checked
        // again so that a mistake there reads nothing outside it.
        precondition(document == other.document && range.upperBound <= bytes.count && other.range.upperBound <= bytes.count)
        return memcmp(bytes.baseAddress! + range.lowerBound, bytes.baseAddress! + other.range.lowerBound, range.count) == 0
    }
}
