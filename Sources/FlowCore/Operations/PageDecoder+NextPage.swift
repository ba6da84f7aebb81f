import FlowJSON

extension PageDecoder {
    /// Appends the next page of a paginated page, in place: the next page's sections join
    /// the end, its pagination replaces the page's, its nav, header and footer are ignored,
    /// and nothing already on the page changes.
    ///
    /// Newcomers are positioned where they would stand in the single concatenated document
    /// (the first appended section is `page.sections.K`, K the positions the page's sections
    /// took, dropped ones included) and claim their ids after the widgets already on the
    /// page. The result equals the decode of the concatenated document, with one deliberate
    /// exception: a newcomer asking for the id of a footer widget is renamed (`f#2`), where
    /// in a single document the footer, claiming last, would have been; ids already on
    /// screen never change. Diagnostics carry the next page's own paths
    /// (`page.sections.J…`), as a backend engineer reads that payload.
    ///
    /// A next page that fails as a whole throws and leaves `page` untouched. It may come in
    /// any collection of bytes (`[UInt8]`, `Data`, a slice, a buffer).
    ///
    /// - Complexity: O(size of the next page), whatever the size of `page`.
    public func append<Bytes: Collection<UInt8>>(nextPage bytes: Bytes, to page: inout Page) throws(PageDecodingError) -> [Diagnostic] {
        let document: JSONDocument
        do { document = try JSONDocument.scanning(bytes, options: options.limits) } catch {
            throw PageDecodingError(reason: .invalidJSON(error), message: "the next page is not valid JSON: \(error)", offset: error.offset)
        }
        let ctx = DecodeContext(registry: registry, options: options, document: document, root: DecodePath())
        let result = document.withView { view in
            Result { () throws(PageDecodingError) -> (sections: [Section], pagination: Pagination?) in
                return try TapeSource.lend(document: document, context: ctx) { source throws(PageDecodingError) in
                    let root = TapeReader(source: source, index: 0)
                    let object: TapeObject
                    do throws(PageSchema.Failure) { object = try PageSchema.pageObject(root, ctx: ctx) } catch {
                        throw Self.failure(error, view: view, bareRoot: options.bareRoot)
                    }
                    // The page's ledger moves into the decode (uniquely owned: claims stay in place).
                    swap(&ctx.identity.ledger, &page.identity)
                    defer { swap(&ctx.identity.ledger, &page.identity) }
                    return ctx.at(.key("page")) {
                        let f = object.fields(Page.fields)
                        let sections = f.present(.sections).map { v in
                            ctx.at(.key("sections")) { PageSchema.decodeSectionList(v, ctx: ctx, base: "page.sections", first: max(page.sections.count, ctx.identity.ledger.sectionPositions)) }
                        } ?? []
                        let pagination = f.present(.pagination).flatMap { v in ctx.at(.key("pagination")) { PageSchema.decodePagination(v, ctx: ctx) } }
                        return (sections, pagination)
                    }
                }
            }
        }
        let (sections, pagination) = try result.get()
        let first = page.sections.count
        page.sections.append(contentsOf: sections)
        page.pagination = pagination
        if page.identity.index != nil {
            for (j, s) in sections.enumerated() { page.identity.index!.add(s, at: first + j) }
        }
        return ctx.diagnostics
    }
}
