#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FlowJSON

extension PageDecoder {
    /// Decodes a page document held in `data` (what a URL session hands over).
    ///
    /// The document keeps a copy of its bytes of its own, made once straight from `data`'s
    /// storage, as for an array.
    ///
    /// - Complexity: O(n) in the document's size.
    public func decode(_ data: Data) throws(PageDecodingError) -> DecodedPage {
        try decode(scanning: { options throws(JSONSyntaxError) in try JSONDocument(data: data, options: options) })
    }

    /// Decodes a page document from any collection of bytes: an `ArraySlice`, a
    /// `ContiguousArray`, a buffer pointer, a `Data` slice.
    ///
    /// An array's buffer is shared, not copied (as for `decode(_: [UInt8])`); a
    /// collection with other contiguous storage is copied once, straight into the document;
    /// any other is first gathered into an array.
    ///
    /// - Complexity: O(n) in the document's size.
    public func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(PageDecodingError) -> DecodedPage {
        try decode(scanning: { options throws(JSONSyntaxError) in try JSONDocument.scanning(bytes, options: options) })
    }
}

extension JSONDocument {
    /// The document of any collection of bytes, every entry point's one way in: an array's
    /// buffer is shared; a collection with other contiguous storage (a slice, `Data`, a
    /// buffer) is copied once, straight into the document; any other is first gathered into
    /// an array.
    static func scanning<Bytes: Collection<UInt8>>(_ bytes: Bytes, options: JSONScanOptions) throws(JSONSyntaxError) -> JSONDocument {
        // Resolved when the function is specialized for the collection's type.
        if let array = bytes as? [UInt8] { return try JSONDocument(bytes: array, options: options) }
        if let array = bytes as? ContiguousArray<UInt8> { return try JSONDocument(bytes: array, options: options) }
        let scanned = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONSyntaxError) in try JSONDocument(copying: UnsafeRawBufferPointer(buffer), options: options) }
        }
        if let scanned { return try scanned.get() }
        return try JSONDocument(bytes: Array(bytes), options: options)
    }
}
