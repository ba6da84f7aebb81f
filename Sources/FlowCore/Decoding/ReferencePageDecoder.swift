#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FlowJSON

/// The reference path: the same page contract run by Foundation's `JSONDecoder`, the way
/// the original framework decodes. It exists to be compared against: the fast path must
/// give the identical page and diagnostics (tests, the `page` fuzz target), and its speed is
/// reported as a ratio to this one (`flow bench`). See <doc:PageContract#The-reference-path>.
///
/// Two refusals keep the comparison honest and the process alive:
/// - documents FlowJSON rejects are refused (Foundation's `JSONDecoder` is lenient where
///   RFC 8259 is not: trailing commas, and anything malformed in a value nobody reads);
/// - documents holding a number literal that Foundation's `Decimal` cannot hold exactly are
///   refused: opaque JSON would not round-trip through it, and on some such literals
///   `JSONDecoder` traps when asked for an integer.
public struct ReferencePageDecoder: Sendable {
    public var registry: WidgetRegistry
    public var options: PageDecodingOptions

    public init(registry: WidgetRegistry, options: PageDecodingOptions = PageDecodingOptions()) {
        self.registry = registry
        self.options = options
    }

    /// Whether the document is one this decoder takes (see the type's comment).
    public static func accepts(_ bytes: [UInt8]) -> Bool { Accepted(bytes) != nil }

    /// A document this decoder takes, scanned: what a caller that also reads the scan (the
    /// `page` fuzz oracle) hands to ``decode(_:)-(ReferencePageDecoder.Accepted)``, so that the document is
    /// scanned once for both.
    public struct Accepted: Sendable {
        public let bytes: [UInt8]
        /// FlowJSON's scan of `bytes`, valid and with every number exact in `Decimal`.
        public let document: JSONDocument

        /// Nil when the decoder refuses the document.
        public init?(_ bytes: [UInt8]) {
            guard let document = try? JSONDocument(bytes: bytes) else { return nil }
            let exact = document.withView { view in
                for i in 0..<view.count where view.kind(i) == .number {
                    if !JSONNumberParsing.isExactInFoundationDecimal(view.rawBytes(i)) { return false }
                }
                return true
            }
            guard exact else { return nil }
            self.bytes = bytes
            self.document = document
        }
    }

    /// Decodes a page from any collection of bytes (`Data`, a slice, a buffer), gathered into
    /// an array first: the reference path is for checking, not for speed.
    public func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(PageDecodingError) -> DecodedPage {
        try decode(Array(bytes))
    }

    public func decode(_ bytes: [UInt8]) throws(PageDecodingError) -> DecodedPage {
        guard let accepted = Accepted(bytes) else {
            throw PageDecodingError(reason: .reference("refused"), message: "the reference decoder does not take this document (invalid JSON, or a number Foundation's Decimal cannot hold)", offset: 0)
        }
        return try decode(accepted)
    }

    /// Decodes a document already found acceptable.
    public func decode(_ accepted: Accepted) throws(PageDecodingError) -> DecodedPage {
        let (bytes, scanned) = (accepted.bytes, accepted.document)
        let ctx = DecodeContext(registry: registry, options: options, document: nil, root: DecodePath())
        let decoder = JSONDecoder()
        // The scan is kept beside Foundation's decode for opaque values only (see
        // FoundationReader): every typed read still goes through JSONDecoder.
        decoder.userInfo[ReferenceDocument.contextKey] = ReferenceDocument.Box(ctx, scanned)
        let document: ReferenceDocument
        do {
            document = try decoder.decode(ReferenceDocument.self, from: Data(bytes))
        } catch {
            throw PageDecodingError(reason: .reference("\(error)"), message: "JSONDecoder failed: \(error)", offset: 0)
        }
        switch document.result {
        case .success(var page):
            page.identity = ctx.identity.ledger
            return DecodedPage(page: page, diagnostics: ctx.diagnostics)
        case .failure(let failure):
            throw scanned.withView { PageDecoder.failure(failure, view: $0, bareRoot: options.bareRoot) }
        }
    }
}

/// The document root as a `Decodable`: runs the page contract over Foundation's decoder.
private struct ReferenceDocument: Decodable {
    final class Box: @unchecked Sendable {
        let context: DecodeContext
        let document: JSONDocument
        init(_ context: DecodeContext, _ document: JSONDocument) {
            self.context = context
            self.document = document
        }
    }

    static let contextKey = CodingUserInfoKey(rawValue: "flow.decodeContext")!

    let result: Result<Page, PageSchema.Failure>

    init(from decoder: any Decoder) throws {
        let box = decoder.userInfo[Self.contextKey] as! Box
        let ctx = box.context
        let root = FoundationReader(decoder: decoder, context: ctx, place: DocumentPlace(document: box.document, index: 0))
        result = Result { () throws(PageSchema.Failure) in try PageSchema.decodeDocument(root, ctx: ctx) }
    }
}
