import FlowCore

/// The input format shared by the fuzz targets that need two documents (a page and a
/// mutation response; an old and a new page).
///
/// Byte 0 selects: bits 0-3 a page of the target's pages (``FuzzPages``, modulo their count), bit 4 the
/// placeholders option, bit 5 where the first document comes from. With bit 5 clear, the
/// first document is the selected fuzz page and the rest of the input is the second,
/// so the fuzzer spends its effort on the second against a rich, valid page. With bit 5
/// set, the rest holds both, split at its first NUL byte (which no JSON document can
/// contain), so the fuzzer shapes the page too.
struct FuzzPairInput {
    var first: [UInt8]
    var second: [UInt8]
    var options: PageDecodingOptions

    static let ownDocuments: UInt8 = 0x20
    static let placeholders: UInt8 = 0x10

    init?(_ input: [UInt8], pages: [FuzzPages.Page]) {
        guard let selector = input.first else { return nil }
        let rest = input.dropFirst()
        options = PageDecodingOptions(placeholders: selector & Self.placeholders != 0)
        if selector & Self.ownDocuments != 0 {
            guard let split = rest.firstIndex(of: 0) else { return nil }
            first = Array(rest[..<split])
            second = Array(rest[(split + 1)...])
        } else {
            guard !pages.isEmpty else { return nil }
            let page = pages[Int(selector & 0x0F) % pages.count]
            options.bareRoot = page.bareRoot
            first = Array(page.text.utf8)
            second = Array(rest)
        }
    }

    /// An input in this format: two documents of the caller's choosing.
    static func encode(_ first: [UInt8], _ second: [UInt8], selector: UInt8 = 0) -> [UInt8] {
        [selector | ownDocuments] + first + [0] + second
    }

    /// An input in this format: fuzz page `page`, then `second`.
    static func encode(page: Int, _ second: [UInt8], selector: UInt8 = 0) -> [UInt8] {
        [selector & ~ownDocuments | UInt8(page & 0x0F)] + second
    }
}
