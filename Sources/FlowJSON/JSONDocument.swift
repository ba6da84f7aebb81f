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
public final class JSONDocument: @unchecked Sendable {
    /// The document as received.
    public let bytes: [UInt8]
    private let entries: UnsafeMutablePointer<UInt64>
    /// Number of tape entries (values, keys included).
    public let entryCount: Int
    /// Whether some string holds a `\u` escape: only then can a string fail to decode (a
    /// lone surrogate), so readers skip that check for documents without one.
    public let mayHoldLoneSurrogates: Bool

    /// Scans `bytes` (strict RFC 8259; see ``JSONScanOptions`` for the limits).
    ///
    /// - Complexity: O(n) time; the index takes 8 bytes per value (keys included).
    public init(bytes: [UInt8], options: JSONScanOptions = JSONScanOptions()) throws(JSONSyntaxError) {
        self.bytes = bytes
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) in try JSONScanner.scan(buffer, options: options) }
        }
        let scanned = try result.get()
        self.entries = scanned.entries
        self.entryCount = scanned.count
        self.mayHoldLoneSurrogates = scanned.sawUnicodeEscape
    }

    /// Scans a copy of `data`.
    public convenience init(data: Data, options: JSONScanOptions = JSONScanOptions()) throws(JSONSyntaxError) {
        try self.init(bytes: [UInt8](data), options: options)
    }

    /// Scans a copy of the bytes `buffer` points to; the buffer is read once and not kept.
    public convenience init(copying buffer: UnsafeRawBufferPointer, options: JSONScanOptions = JSONScanOptions()) throws(JSONSyntaxError) {
        try self.init(bytes: [UInt8](buffer), options: options)
    }

    /// Scans a string's UTF-8.
    public convenience init(_ text: String, options: JSONScanOptions = JSONScanOptions()) throws(JSONSyntaxError) {
        try self.init(bytes: Array(text.utf8), options: options)
    }

    deinit { free(entries) }

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
        try withExtendedLifetime(self) {
            try bytes.withUnsafeBufferPointer { b in
                try body(JSONTapeView(bytes: b, tape: tapeBuffer))
            }
        }
    }

    @usableFromInline
    var tapeBuffer: UnsafeBufferPointer<UInt64> { UnsafeBufferPointer(start: entries, count: entryCount) }

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
