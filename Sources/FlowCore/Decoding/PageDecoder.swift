import FlowJSON

/// A decoded page and everything the decode survived.
public struct DecodedPage: Sendable {
    public var page: Page
    /// In document order; see ``Diagnostic``.
    public var diagnostics: [Diagnostic]

    public init(page: Page, diagnostics: [Diagnostic]) {
        self.page = page
        self.diagnostics = diagnostics
    }
}

/// Why a document failed as a whole: the only failures a page decode has (see
/// <doc:PageContract#The-document>).
public struct PageDecodingError: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable {
        /// Not JSON, or a resource limit crossed.
        case invalidJSON(JSONSyntaxError)
        case rootNotObject
        case missingPage
        case pageNotObject
        /// The reference path's own refusal (see ``ReferencePageDecoder``).
        case reference(String)
    }

    public var reason: Reason
    public var message: String
    /// Byte offset of the offending value.
    public var offset: Int

    /// One line: the message, after the offset unless the message already places it (a
    /// syntax error names its offset, line and column itself).
    public var description: String {
        if case .invalidJSON = reason { return message }
        return "offset \(offset): \(message)"
    }
}

/// Turns page documents into ``Page`` values, keeping what can be kept and reporting the
/// rest as ``Diagnostic`` values; also reads next pages and `api` responses against a page.
///
/// This is the fast path: bytes to a page through the FlowJSON index, no `Codable`
/// machinery on the envelope. ``ReferencePageDecoder`` is the path it is checked against.
/// What a document may hold and what each problem costs is <doc:PageContract>; a walk
/// through registering, decoding, looking up, mutating and diffing is <doc:GettingStarted>.
///
///     var registry = WidgetRegistry()
///     FlowWidgets.register(on: &registry)
///     let decoded = try PageDecoder(registry: registry).decode(bytes)
public struct PageDecoder: Sendable {
    public var registry: WidgetRegistry
    public var options: PageDecodingOptions

    public init(registry: WidgetRegistry, options: PageDecodingOptions = PageDecodingOptions()) {
        self.registry = registry
        self.options = options
    }

    /// Decodes a page document.
    ///
    /// The page's source shares the array's buffer rather than copying it, so the bytes are
    /// held once (arrays copy on write: the caller's later changes do not reach the page).
    ///
    /// - Complexity: O(n) in the document's size, whatever its ids (a page whose widgets
    ///   all send the same id included).
    public func decode(_ bytes: [UInt8]) throws(PageDecodingError) -> DecodedPage {
        try decode(scanning: { options throws(JSONSyntaxError) in try JSONDocument(bytes: bytes, options: options) })
    }

    /// Decodes a page document read from a file: the document adopts the bytes (see
    /// `JSONFileBytes`), so the page's source is held once.
    public func decode(_ file: consuming JSONFileBytes) throws(PageDecodingError) -> DecodedPage {
        let document: JSONDocument
        do { document = try JSONDocument(adopting: file, options: scanOptions) } catch { throw Self.invalidJSON(error) }
        return try decode(document, releasingIndex: true)
    }

    /// Scans the document `scan` builds with the decoder's limits and threads, then decodes it.
    func decode(scanning scan: (JSONScanOptions) throws(JSONSyntaxError) -> JSONDocument) throws(PageDecodingError) -> DecodedPage {
        let document: JSONDocument
        do { document = try scan(scanOptions) } catch { throw Self.invalidJSON(error) }
        return try decode(document, releasingIndex: true)
    }

    /// The decoder's limits and threads, as the scan takes them.
    var scanOptions: JSONScanOptions {
        var scanOptions = options.limits
        scanOptions.threads = options.threads
        return scanOptions
    }

    static func invalidJSON(_ error: JSONSyntaxError) -> PageDecodingError {
        PageDecodingError(reason: .invalidJSON(error), message: "the document is not valid JSON: \(error)", offset: error.offset)
    }

    /// Decodes an already scanned document (which stays as it is: the caller may read it
    /// again).
    public func decode(_ document: JSONDocument) throws(PageDecodingError) -> DecodedPage {
        try decode(document, releasingIndex: false)
    }

    /// `releasingIndex`: the decoder made `document` and nobody else reads it, so the index
    /// of each finished section is given back as the decode goes, when the index is large
    /// (see `IndexRelease` and `PageDecodingOptions.indexReleaseMinimumBytes`):
    /// the index and the model are then never whole in memory together.
    func decode(_ document: JSONDocument, releasingIndex: Bool) throws(PageDecodingError) -> DecodedPage {
        let ctx = DecodeContext(registry: registry, options: options, document: document, root: DecodePath(),
                                releasesIndex: releasingIndex && document.indexByteCount >= options.indexReleaseMinimumBytes)
        ctx.timeline = PipelineTimeline.active
        let pageStart = ctx.timeline?.now() ?? 0
        // Widgets run to thirty-odd index entries each; a generous guess saves rehashing.
        ctx.identity.ledger.widgets.reserveCapacity(document.entryCount / 24)
        let result = document.withView { view in
            Result { () throws(PageDecodingError) in
                return try TapeSource.lend(document: document, context: ctx) { source throws(PageDecodingError) in
                    do throws(PageSchema.Failure) {
                        return try PageSchema.decodeDocument(TapeReader(source: source, index: 0), ctx: ctx)
                    } catch {
                        throw Self.failure(error, view: view, bareRoot: options.bareRoot)
                    }
                }
            }
        }
        var page = try result.get()
        page.identity = ctx.identity.ledger
        ctx.timeline?.recordPage(page, since: pageStart, ctx: ctx)
        return DecodedPage(page: page, diagnostics: ctx.diagnostics)
    }

    /// Decodes a bottom sheet (the `sheet` of an `open_bottom_sheet` action) as a document of
    /// its own: paths start at `sheet`. Nil when it is not an object.
    public func decodeSheet(_ raw: RawJSON) -> (sheet: Sheet, diagnostics: [Diagnostic])? {
        let bytes = raw.jsonBytes
        guard let document = try? JSONDocument(bytes: bytes, options: options.limits) else { return nil }
        let ctx = DecodeContext(registry: registry, options: options, document: document, root: DecodePath())
        return document.withView { view in
            return TapeSource.lend(document: document, context: ctx) { source in
                guard let o = TapeReader(source: source, index: 0).object() else { return nil }
                let sheet = ctx.at(.key("sheet")) { PageSchema.decodeSheet(o, ctx: ctx) }
                return (sheet, ctx.diagnostics)
            }
        }
    }

    static func failure(_ failure: PageSchema.Failure, view: JSONTapeView, bareRoot: Bool) -> PageDecodingError {
        switch failure {
        case .rootNotObject(let found):
            return PageDecodingError(reason: .rootNotObject, message: "expected the root to be an object, found \(found)", offset: view.offset(0))
        case .missingPage:
            return PageDecodingError(reason: .missingPage, message: "the root object has no \"page\" object (use the bare-root option for a page at the root)", offset: view.offset(0))
        case .pageNotObject(let found):
            let offset = view.member(0, "page").map { view.kind($0) == .string ? view.offset($0) - 1 : view.offset($0) } ?? 0
            return PageDecodingError(reason: .pageNotObject, message: "expected \"page\" to be an object, found \(found)", offset: offset)
        }
    }
}
