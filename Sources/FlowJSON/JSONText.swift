/// A document's bytes, apart from its index: what a raw slice of the document (a widget's
/// `data`, an action) keeps alive once decoding is done and the index is gone.
///
/// Immutable, so shared freely between threads. The bytes are an array's buffer, shared
/// rather than copied (the text keeps the array in a constant, so the buffer can neither move
/// nor change while the text lives); or storage of its own, which it frees in `deinit` (a
/// file read straight into memory, or a copy of any other source).
public final class JSONText: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<UInt8>
    /// The length of the text in bytes.
    public let byteCount: Int
    /// The array whose buffer `storage` points into (nil: `storage` is this text's own).
    private let sharedArray: ContiguousArray<UInt8>?

    /// Takes `storage` over: the text frees it.
    init(owning storage: UnsafeMutableBufferPointer<UInt8>) {
        // Never nil: whoever allocates asks for at least one byte.
        self.storage = storage.baseAddress!
        self.byteCount = storage.count
        self.sharedArray = nil
    }

    /// The array's bytes in place. The pointer outlives the `withUnsafeBufferPointer` call,
    /// which is sound here and only here: a `ContiguousArray`'s elements live in its own heap
    /// buffer (never a temporary, as a bridged `Array`'s may be), and the text keeps the
    /// array in a constant it never mutates, so the buffer stays where it is, holding these
    /// bytes, until the text is gone, and with it everything that reads through the pointer.
    init(sharing array: ContiguousArray<UInt8>) {
        let buffer = array.withUnsafeBufferPointer { $0 }
        // An empty array may have no buffer; such a text is never read (the scan refuses it).
        self.storage = UnsafeMutablePointer(mutating: buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
        self.byteCount = buffer.count
        self.sharedArray = array
    }

    deinit {
        if sharedArray == nil { storage.deallocate() }
    }

    @usableFromInline
    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: byteCount) }

    /// Lends bytes `range` to `body`; they must not escape it.
    @inlinable
    public func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        precondition(range.lowerBound >= 0 && range.upperBound <= byteCount, "a range outside the text")
        return try withExtendedLifetime(self) { try body(UnsafeBufferPointer(rebasing: buffer[range])) }
    }
}
