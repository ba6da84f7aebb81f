import FlowJSON

/// A lossy list of nested widgets with its own id namespace: an accordion's `items`.
///
/// Elements decode by the page's rules (drops, unknown types, malformed payloads, invalid
/// fields, all with diagnostics at `…data.items.N`), and ids are unique within the list by
/// the same renaming rule, positional ids continuing the owning widget's path. The owner
/// reads it inside `reader.context.at(.key("items")) { … }` so that paths name the key.
public struct WidgetList: FlowDecodable, Equatable, JSONWritable {
    public var widgets: [Widget]

    public init(_ widgets: [Widget] = []) { self.widgets = widgets }

    // Both paths have their own entry point, so the list decodes with the schema's reader
    // (which models never see); the generic one serves no other reader.
    @usableFromInline package init(tape reader: TapeReader) throws { try self.init(document: reader) }

    @usableFromInline package init(foundation reader: FoundationReader) throws { try self.init(document: reader) }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        if let tape = reader as? TapeReader { try self.init(document: tape) }
        else if let foundation = reader as? FoundationReader { try self.init(document: foundation) }
        else { throw ContentError("a widget list decodes only from a page's own readers") }
    }

    private init<R: DocumentReader>(document reader: R) throws {
        let ctx = reader.context
        guard reader.array() != nil else { throw ContentError.mismatch(expected: "an array of widgets", found: reader) }
        // The caller pushes the list's key on the context path (diagnostics land at
        // `…data.items.N`); positional ids continue the owning widget's position.
        widgets = PageSchema.decodeWidgetList(reader, ctx: ctx, prefix: ctx.nestedListPrefix, namespace: .local(ClaimsBox()))
    }

    package func write(to writer: inout JSONWriter) {
        writer.writeByte(UInt8(ascii: "["))
        for (i, w) in widgets.enumerated() {
            if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
            PageEncoder.write(w, to: &writer)
        }
        writer.writeByte(UInt8(ascii: "]"))
    }
}
