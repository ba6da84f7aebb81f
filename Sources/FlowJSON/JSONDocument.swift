#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A validated JSON document: its bytes and the tape that indexes them.
///
/// Immutable once built, so it is shared freely between threads and between the values that
/// keep raw slices of it (a widget's `data`, a postback). Readers borrow it through
/// ``withView(_:)``.
///
/// The document owns its tape and holds its bytes (``text``), so a view of them is valid
/// for exactly as long as the document is alive, and whatever holds a view beyond a
/// `withView` call (the decoder's readers, inside this package) holds the document too. The
/// bytes are an array's buffer, shared rather than copied; or read straight from a file
/// (``JSONFileBytes``, which it adopts); or, from any other source, copied in once.
public final class JSONDocument: @unchecked Sendable {
    /// The bytes, which outlive the document when a raw slice of it keeps them: a decoded
    /// page holds its text, not its index.
    public let text: JSONText
    /// The length of the document in bytes.
    public var byteCount: Int { text.byteCount }
    private let entries: UnsafeMutablePointer<UInt64>
    /// Number of tape entries (values, keys included).
    public let entryCount: Int
    /// Whether some string holds a `\u` escape: only then can a string fail to decode (a
    /// lone surrogate), so readers skip that check for documents without one.
    public let mayHoldLoneSurrogates: Bool

    /// Scans `bytes` (strict RFC 8259; see ``JSONScanOptions`` for the limits).
    ///
    /// The document shares the array's buffer instead of copying it, so the bytes are held
    /// once. Sharing is safe because arrays copy on write: should the caller change its array
    /// later, the change is made in a copy of the caller's, and the document's bytes stay.
    ///
    /// - Complexity: O(n) time; the index takes 8 bytes per value (keys included).
    public convenience init(bytes: [UInt8], options: JSONScanOptions = JSONScanOptions()) throws(JSONSyntaxError) {
        try self.init(sharing: ContiguousArray(bytes), options: options)
    }

    /// Scans `bytes`, sharing the array's buffer as ``init(bytes:options:)`` does.
    public convenience init(bytes: ContiguousArray<UInt8>, options: JSONScanOptions = JSONScanOptions()) throws(JSONSyntaxError) {
        try self.init(sharing: bytes, options: options)
    }

    /// Scans a copy of `data`.
    public convenience init(data: Data, options: JSONScanOptions = JSONScanOptions()) throws(JSONSyntaxError) {
        try self.init(adopting: data.withUnsafeBytes(Self.copy), options: options)
    }

    /// Scans a copy of the bytes `buffer` points to; the buffer is read once and not kept.
    public convenience init(copying buffer: UnsafeRawBufferPointer, options: JSONScanOptions = JSONScanOptions()) throws(JSONSyntaxError) {
        try self.init(adopting: Self.copy(buffer), options: options)
    }

    /// The bytes in storage of the document's own.
    private static func copy(_ buffer: UnsafeRawBufferPointer) -> UnsafeMutableBufferPointer<UInt8> {
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(buffer.count, 1))
        _ = storage.initialize(from: buffer)
        return UnsafeMutableBufferPointer(rebasing: storage[..<buffer.count])
    }

    /// Scans `storage`, which the document's text owns from here on (and frees, also when
    /// the scan fails).
    ///
    /// - Complexity: O(n) time; the document holds n bytes and 8 per value (keys included).
    convenience init(adopting storage: UnsafeMutableBufferPointer<UInt8>, options: JSONScanOptions) throws(JSONSyntaxError) {
        try self.init(text: JSONText(owning: storage), options: options)
    }

    /// Scans the array's bytes in place (see ``JSONText``).
    private convenience init(sharing array: ContiguousArray<UInt8>, options: JSONScanOptions) throws(JSONSyntaxError) {
        try self.init(text: JSONText(sharing: array), options: options)
    }

    /// Scans `text`: a failed scan leaves nothing behind (the text goes with it).
    private init(text: JSONText, options: JSONScanOptions) throws(JSONSyntaxError) {
        let scanned = try JSONScanner.scan(text.buffer, options: options)
        self.text = text
        self.entries = scanned.entries
        self.entryCount = scanned.count
        self.mayHoldLoneSurrogates = scanned.sawUnicodeEscape
    }

    /// Scans a string's UTF-8.
    public convenience init(_ text: String, options: JSONScanOptions = JSONScanOptions()) throws(JSONSyntaxError) {
        try self.init(bytes: Array(text.utf8), options: options)
    }

    deinit {
        free(entries)
    }

    /// The document as received (a copy).
    public var bytes: [UInt8] { Array(byteBuffer) }

    /// Scans `bytes` in parts cut at `cuts` (any byte offsets; see JSONScanner+Parts.swift),
    /// for oracles that check the joined index against one thread's: the tape entries, and
    /// how many parts were joined rather than rescanned.
    @_spi(Testing)
    public static func scanInParts(_ bytes: [UInt8], cuts: [Int], options: JSONScanOptions = JSONScanOptions()) throws(JSONSyntaxError) -> (tape: [UInt64], sawUnicodeEscape: Bool, joinedParts: Int) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) in try JSONScanner.scan(buffer, options: options, splits: cuts.sorted()) }
        }
        let scanned = try result.get()
        defer { free(scanned.entries) }
        return (Array(UnsafeBufferPointer(start: scanned.entries, count: scanned.count)), scanned.sawUnicodeEscape, scanned.joinedParts)
    }

    /// The raw tape entries, for the same oracles.
    @_spi(Testing)
    public var tapeEntries: [UInt64] { Array(tapeBuffer) }

    /// Lends the bytes and tape to `body`; the view must not escape it.
    @inlinable
    public func withView<R>(_ body: (JSONTapeView) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(retainedView) }
    }

    /// A view valid for as long as this document is alive: for readers inside this package
    /// that keep the document beside it (a strong reference), so the view cannot outlive the
    /// storage it points into.
    @inlinable
    package var retainedView: JSONTapeView { JSONTapeView(bytes: byteBuffer, tape: tapeBuffer) }

    @usableFromInline
    var byteBuffer: UnsafeBufferPointer<UInt8> { text.buffer }

    @usableFromInline
    var tapeBuffer: UnsafeBufferPointer<UInt64> { UnsafeBufferPointer(start: entries, count: entryCount) }

    /// Gives the memory under tape entries `entries` back to the system: for a decoder that
    /// made this document itself, has read those entries for the last time, and lets no one
    /// else read them (a decoded page keeps the bytes, not the index). Only whole aligned
    /// stretches of `granule` bytes (a power of two, at least a page) inside the range, so
    /// the entries around it stay as they are; the ones inside read as zeros afterwards,
    /// which is why nobody may read them again. The memory stays this document's (it is
    /// freed with it): a stray read is wrong, never unsafe. Returns the first entry past
    /// what was given back (`entries.lowerBound` when nothing was), so that a caller going
    /// through the index in order can carry the rest into its next call.
    ///
    /// Lets a page decode hold the index only for what it has not decoded yet, so that the
    /// index and the finished model are not in memory together.
    @discardableResult
    package func releaseIndexMemory(_ entries: Range<Int>, granule: Int) -> Int {
        precondition(entries.lowerBound >= 0 && entries.upperBound <= entryCount, "entries outside the index")
        let page = UInt(max(granule, Self.pageSize))
        precondition(page & (page - 1) == 0, "a granule is a power of two")
        let start = (UInt(bitPattern: self.entries + entries.lowerBound) + page - 1) & ~(page - 1)
        let end = UInt(bitPattern: self.entries + entries.upperBound) & ~(page - 1)
        guard end > start, let address = UnsafeMutableRawPointer(bitPattern: start) else { return entries.lowerBound }
        _ = madvise(address, Int(end - start), MADV_DONTNEED)
        return (Int(end - UInt(bitPattern: self.entries)) + MemoryLayout<UInt64>.stride - 1) / MemoryLayout<UInt64>.stride
    }

    private static let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))

    /// Bytes the index occupies (8 per entry).
    public var indexByteCount: Int { entryCount * MemoryLayout<UInt64>.stride }

    /// Checks that `buffer` is valid JSON without keeping anything: the strict scan, plus the
    /// decode of every string, so a lone surrogate escape (which the scan lets through, see
    /// ``JSONSyntaxError/Reason/loneSurrogate``) makes the document invalid.
    public static func validate(_ buffer: UnsafeRawBufferPointer, options: JSONScanOptions = JSONScanOptions()) throws(JSONSyntaxError) {
        let bytes = buffer.bindMemory(to: UInt8.self)
        let (entries, count, _) = try JSONScanner.scan(bytes, options: options)
        defer { free(entries) }
        let view = JSONTapeView(bytes: bytes, tape: UnsafeBufferPointer(start: entries, count: count))
        for i in 0..<count where view.kind(i) == .string && view.flag(i) {
            _ = try view.string(i)
        }
    }
}
