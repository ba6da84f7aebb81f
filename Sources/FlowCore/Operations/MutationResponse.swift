import FlowJSON

/// An `api` response (<doc:PageContract#Mutations>): mutations to apply in order, and an optional toast.
///
/// Reading it checks each mutation's shape (lossy: a mutation that is not an object, has
/// an unknown `kind`, or lacks what its kind needs is an `unknown_mutation` at
/// `mutations.I`, and the rest still apply); the widgets, sections and pages it brings are
/// decoded when applied, because their ids are claimed against the page as it then stands.
public struct MutationResponse: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case replaceWidget = "replace_widget"
        case removeWidget = "remove_widget"
        case appendSections = "append_sections"
        case prependSections = "prepend_sections"
        case replacePage = "replace_page"
    }

    /// One well-formed mutation: its position in the list, its kind, its target id (for
    /// widget mutations) and the tape index of what it brings.
    struct Entry: Sendable {
        let position: Int
        let kind: Kind
        let id: String?
        let payload: Int?
    }

    let document: JSONDocument
    let entries: [Entry]
    /// The response's `toast` object, as received (nil when absent or not an object).
    public let toast: RawJSON?
    /// What reading the response recorded (`unknown_mutation`, `invalid_field`).
    public let diagnostics: [Diagnostic]

    /// Mutations that will be tried, in order.
    public var kinds: [Kind] { entries.map(\.kind) }

    /// Whether every mutation of the response is well-formed (transactional mode needs it).
    /// A bad toast is not a mutation that would not apply, so it does not count.
    public var isWellFormed: Bool {
        !diagnostics.contains { $0.kind == .unknownMutation || ($0.kind == .invalidField && $0.path == "mutations") }
    }

    /// Whether any mutation replaces the whole page (a store resets per-page state then).
    public var replacesPage: Bool { entries.contains { $0.kind == .replacePage } }
}

extension PageDecoder {
    /// Reads an `api` response from any collection of bytes (`[UInt8]`, `Data`, a slice, a
    /// buffer). Fails as a whole only when it is not JSON or its root is not an object.
    public func decodeMutations<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(PageDecodingError) -> MutationResponse {
        let document: JSONDocument
        do { document = try JSONDocument.scanning(bytes, options: options.limits) } catch {
            throw PageDecodingError(reason: .invalidJSON(error), message: "the response is not valid JSON: \(error)", offset: error.offset)
        }
        let result = document.withView { view in Result { () throws(PageDecodingError) -> MutationResponse in
            guard view.kind(0) == .object else {
                throw PageDecodingError(reason: .rootNotObject, message: "expected the response root to be an object, found \(view.kind(0))", offset: view.offset(0))
            }
            var diagnostics: [Diagnostic] = []
            var entries: [MutationResponse.Entry] = []
            func unknown(_ i: Int, _ message: String) {
                diagnostics.append(Diagnostic(kind: .unknownMutation, path: "mutations.\(i)", message: message))
            }
            if let list = view.member(0, "mutations"), view.kind(list) != .null {
                if view.kind(list) != .array {
                    diagnostics.append(Diagnostic(kind: .invalidField, path: "mutations", message: "expected mutations to be an array, found \(view.kind(list))"))
                } else {
                    var i = 0
                    view.forEachElement(list) { e in
                        defer { i += 1 }
                        guard view.kind(e) == .object else {
                            unknown(i, "expected a mutation object, found \(view.kind(e))")
                            return true
                        }
                        func member(_ key: String) -> Int? { view.member(e, key).flatMap { view.kind($0) == .null ? nil : $0 } }
                        guard let k = member("kind"), view.kind(k) == .string, let kindName = try? view.string(k) else {
                            unknown(i, "the mutation has no string \"kind\"")
                            return true
                        }
                        guard let kind = MutationResponse.Kind(rawValue: kindName) else {
                            unknown(i, "unknown mutation kind \"\(kindName)\" (known: \(MutationResponse.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
                            return true
                        }
                        switch kind {
                        case .replaceWidget, .removeWidget:
                            guard let idIndex = member("id"), view.kind(idIndex) == .string, let id = try? view.string(idIndex), !id.isEmpty else {
                                unknown(i, "\(kindName) needs a non-empty string \"id\"")
                                return true
                            }
                            if kind == .replaceWidget {
                                guard let widget = member("widget") else {
                                    unknown(i, "replace_widget needs a \"widget\"")
                                    return true
                                }
                                entries.append(MutationResponse.Entry(position: i, kind: kind, id: id, payload: widget))
                            } else {
                                entries.append(MutationResponse.Entry(position: i, kind: kind, id: id, payload: nil))
                            }
                        case .appendSections, .prependSections:
                            guard let sections = member("sections"), view.kind(sections) == .array else {
                                unknown(i, "\(kindName) needs a \"sections\" array")
                                return true
                            }
                            entries.append(MutationResponse.Entry(position: i, kind: kind, id: nil, payload: sections))
                        case .replacePage:
                            guard let page = member("page"), view.kind(page) == .object else {
                                unknown(i, "replace_page needs a \"page\" object")
                                return true
                            }
                            entries.append(MutationResponse.Entry(position: i, kind: kind, id: nil, payload: page))
                        }
                        return true
                    }
                }
            }
            var toast: RawJSON?
            if let t = view.member(0, "toast"), view.kind(t) != .null {
                if view.kind(t) != .object {
                    diagnostics.append(Diagnostic(kind: .invalidField, path: "toast", message: "expected the toast to be an object, found \(view.kind(t))"))
                } else if let m = view.member(t, "message"), view.kind(m) == .string, (try? view.string(m)) == nil {
                    // The message is the one typed field of a toast; the rest is opaque.
                    diagnostics.append(Diagnostic(kind: .invalidField, path: "toast", message: "the toast's message is a string that does not decode (a lone surrogate escape)"))
                } else {
                    toast = RawJSON(document: document, index: t)
                }
            }
            return MutationResponse(document: document, entries: entries, toast: toast, diagnostics: diagnostics)
        } }
        return try result.get()
    }
}
