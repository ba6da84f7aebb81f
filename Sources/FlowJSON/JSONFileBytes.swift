#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's bytes read straight into storage a ``JSONDocument`` adopts: the document then
/// owns the only copy, where reading into an array first and scanning that would hold the
/// file twice until the array went away (a 40 MB page, 80 MB).
///
///     let bytes = try JSONFileBytes(contentsOfFile: path)
///     let document = try JSONDocument(adopting: bytes)   // no copy
///
/// Noncopyable, so the storage has exactly one owner: these bytes until a document adopts
/// them, then the document (which frees them in its `deinit`).
public struct JSONFileBytes: ~Copyable {
    fileprivate let storage: UnsafeMutableBufferPointer<UInt8>

    /// Reads the whole file at `path`; `-` reads standard input to its end.
    public init(contentsOfFile path: String) throws(JSONFileError) {
        if path == "-" {
            storage = try Self.readAll(STDIN_FILENO, sizeHint: 0, path: path)
            return
        }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw JSONFileError(path: path, errno: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw JSONFileError(path: path, errno: errno) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw JSONFileError(path: path, errno: EISDIR) }
        storage = try Self.readAll(fd, sizeHint: Int(status.st_size), path: path)
    }

    /// The number of bytes read.
    public var count: Int { storage.count }

    /// Lends the bytes to `body`; they must not escape it.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R { try body(UnsafeBufferPointer(storage)) }

    deinit { storage.baseAddress?.deallocate() }

    /// Hands the storage to its new owner (the document), which must free it.
    fileprivate consuming func take() -> UnsafeMutableBufferPointer<UInt8> {
        let storage = self.storage
        discard self
        return storage
    }

    /// Reads `fd` to its end: into one buffer of the file's size when the size is known (a
    /// regular file), growing by doubling otherwise (a pipe) or if the file grew meanwhile.
    private static func readAll(_ fd: Int32, sizeHint: Int, path: String) throws(JSONFileError) -> UnsafeMutableBufferPointer<UInt8> {
        // One spare byte, so that reaching the end of a file of the expected size is seen
        // without a reallocation.
        var capacity = max(sizeHint + 1, 64 * 1024)
        var buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        var count = 0
        while true {
            if count == capacity {
                capacity *= 2
                let bigger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
                bigger.baseAddress!.initialize(from: buffer.baseAddress!, count: count)
                buffer.deallocate()
                buffer = bigger
            }
            let n = read(fd, buffer.baseAddress! + count, capacity - count)
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                buffer.deallocate()
                throw JSONFileError(path: path, errno: code)
            }
            count += n
        }
        return UnsafeMutableBufferPointer(rebasing: buffer[..<count])
    }
}

/// A file that could not be read: which, and why (the system's words).
public struct JSONFileError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    init(path: String, errno code: Int32) {
        self.init(path: path, reason: code == ENOENT ? "no such file" : code == EISDIR ? "it is a directory" : String(cString: strerror(code)))
    }

    public var description: String { "\(path): \(reason)" }
}

extension JSONDocument {
    /// Scans `bytes` in place: the document takes their storage over, no copy.
    public convenience init(adopting bytes: consuming JSONFileBytes, options: JSONScanOptions = JSONScanOptions()) throws(JSONSyntaxError) {
        try self.init(adopting: bytes.take(), options: options)
    }
}
