import Foundation
import Testing
import FlowCore
import FlowJSON
import FlowWidgets

/// SPEC §10: the fast path and the reference path (Foundation's JSONDecoder) give the same
/// page and the same diagnostics (kind, path, type) for every input.
@Suite struct ReferenceAgreementTests {
    static func agree(_ input: [UInt8], options: PageDecodingOptions = PageDecodingOptions(), _ name: String) {
        let fast = Result { try PageDecoder(registry: starterRegistry, options: options).decode(input) }
        let reference = Result { try ReferencePageDecoder(registry: starterRegistry, options: options).decode(input) }
        switch (fast, reference) {
        case (.success(let f), .success(let r)):
            #expect(keys(f.diagnostics) == keys(r.diagnostics), "\(name): diagnostics differ")
            #expect(f.page == r.page, "\(name): pages differ")
            #expect(ids(f.page) == ids(r.page), "\(name): ids differ")
        case (.failure, .failure):
            break
        case (.success, .failure(let error)):
            // The one documented refusal: numbers Foundation's Decimal cannot hold exactly.
            #expect(!ReferencePageDecoder.accepts(input), "\(name): reference failed: \(error)")
        case (.failure(let error), .success):
            Issue.record("\(name): the fast path failed and the reference did not: \(error)")
        }
    }

    @Test func corpusPagesAgree() {
        let files = corpusFiles("pages")
        #expect(files.count >= 12)
        for url in files {
            for placeholders in [false, true] {
                Self.agree(bytes(url), options: PageDecodingOptions(placeholders: placeholders, bareRoot: url.lastPathComponent == "bare_root.json"), url.lastPathComponent)
            }
        }
    }
}
