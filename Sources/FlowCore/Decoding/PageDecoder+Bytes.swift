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
    /// A collection with contiguous storage is copied once, straight into the document; any
    /// other is first gathered into an array.
    ///
    /// - Complexity: O(n) in the document's size.
    public func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(PageDecodingError) -> DecodedPage {
        try decode(scanning: { options throws(JSONSyntaxError) in try JSONDocument.scanning(bytes, options: options) })
    }
}

extension JSONDocument {
    /// The document of any collection of bytes, every entry point's one way in: a collection
    /// with contiguous storage (an array, a slice, `Data`, a buffer) is copied once, straight
    /// into the document; any other is first gathered into an array.
    static func scanning<Bytes: Collection<UInt8>>(_ bytes: Bytes, options: JSONScanOptions) throws(JSONSyntaxError) -> JSONDocument {
        let scanned = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONSyntaxError) in try JSONDocument(copying: UnsafeRawBufferPointer(buffer), options: options) }
        }
        if let scanned { return try scanned.get() }
        return try JSONDocument(bytes: Array(bytes), options: options)
    }
}
