/// Claiming a widget's or a section's id: the one place the claiming
/// rule ("Identity and renaming" in the page contract) meets a model.
///
/// Every path that brings an id onto a page goes through here: the serial decode, the
/// parallel decode's merge, an accordion's own list, a mutation's newcomer, a next page's
/// widgets and a page built in code. A taken id is renamed, the model takes the granted
/// name, and the `duplicate_id` that says so goes to `record` (a page built in code has
/// nowhere to record it). Its path is built only for a rename. Inlined with its closures,
/// so the common case (a free id) costs what the bare claim costs.
extension NameClaims {
    /// Claims `widget`'s id; on a rename, records the `duplicate_id` at `path`.
    @inline(__always)
    mutating func claimID(of widget: inout Widget, at path: @autoclosure () -> String, record: (Diagnostic) -> Void) {
        let (granted, renamed) = claim(widget.id, idHash: widget.idHash)
        guard renamed else { return }
        record(Self.duplicateWidget(widget, granted: granted, at: path()))
        widget.id = granted
    }

    /// Claims `section`'s id; on a rename, records the `duplicate_id` at `path`.
    @inline(__always)
    mutating func claimID(of section: inout Section, at path: @autoclosure () -> String, record: (Diagnostic) -> Void) {
        let requested = section.id
        let (granted, renamed) = claim(requested)
        guard renamed else { return }
        section.id = granted
        record(Diagnostic(kind: .duplicateID, path: path(), message: "section id \"\(requested)\" is already taken; renamed \"\(granted)\""))
    }

    /// The `duplicate_id` of a widget that asked for `widget.id` and got `granted`.
    private static func duplicateWidget(_ widget: Widget, granted: String, at path: String) -> Diagnostic {
        // Assembled in one write: a page whose widgets all send one id records this for
        // every widget but the first.
        let message = TextAssembly.string { text in
            text.append("id \"")
            text.append(widget.id)
            text.append("\" is already taken; renamed \"")
            text.append(granted)
            text.append("\"")
        }
        return Diagnostic(kind: .duplicateID, path: path, type: widget.type, message: message)
    }
}
