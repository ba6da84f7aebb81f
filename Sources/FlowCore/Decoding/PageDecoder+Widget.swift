import FlowJSON

extension PageDecoder {
    /// Decodes one widget element (`{"type": …, "data": …}` with its optional envelope
    /// fields) as the page decoder decodes a widget at `path`: its content is what the
    /// registry's type decodes from its `data`, so the two agree; a bad field costs only
    /// itself, with a diagnostic. This is how code builds a widget with content, or new
    /// content for a widget (``Widget/replaceContent(with:)``).
    ///
    /// `path` is where the widget will stand (`page.sections.0.widgets.3`): diagnostics
    /// name it, and a widget without an `id` takes the positional id of that place (as do
    /// the widgets nested in its content). The widget claims no id on any page: a page
    /// built in code, and the operations that add widgets, keep ids unique.
    ///
    /// - Returns: the widget, or nil when it is dropped (not an object, no `type`, or
    ///   content that did not decode while placeholders are off), with the diagnostics
    ///   recorded (a dropped widget always has one saying why).
    /// - Throws: a ``PageDecodingError`` when `element` is not JSON at all.
    public func decodeWidget<Bytes: Collection<UInt8>>(_ element: Bytes, path: String = "widget") throws(PageDecodingError)
        -> (widget: Widget?, diagnostics: [Diagnostic]) {
        let document: JSONDocument
        do {
            document = try JSONDocument.scanning(element, options: options.limits)
        } catch {
            throw Self.invalidJSON(error)
        }
        let root = DecodePath(dotted: path)
        let ctx = DecodeContext(registry: registry, options: options, document: document, root: root)
        let widget = document.withView { _ in
            TapeSource.lend(document: document, context: ctx) { source in
                PageSchema.decodeWidget(TapeReader(source: source, index: 0), ctx: ctx,
                                        position: WidgetPosition(prefix: root.description, index: nil))
            }
        }
        return (widget, ctx.diagnostics)
    }

    /// Decodes one widget element held as opaque JSON (see the bytes overload); throws only
    /// when it is past the decoder's limits (a tree built in code may nest deeper).
    public func decodeWidget(_ element: RawJSON, path: String = "widget") throws(PageDecodingError)
        -> (widget: Widget?, diagnostics: [Diagnostic]) {
        try decodeWidget(element.jsonBytes, path: path)
    }
}

extension DecodePath {
    /// The path a dotted string names: each part of digits an array position, any other
    /// part a key (an empty string is the root).
    init(dotted: String) {
        self.init(dotted.isEmpty ? [] : dotted.split(separator: ".", omittingEmptySubsequences: false).map { part in
            if let i = Int(part), i >= 0, part.allSatisfy(\.isASCII) { .index(i) } else { .key(String(part)) }
        })
    }
}
