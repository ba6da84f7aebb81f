import Foundation
import Testing
import FlowCore
import FlowJSON
import FlowWidgets
import FlowWorkloads

/// the page contract, "The reference path": the fast path and the reference path (Foundation's JSONDecoder) give the same
/// page and the same diagnostics (kind, path, type) for every input.
@Suite struct ReferenceAgreementTests {
    static func agree(_ input: [UInt8], options: PageDecodingOptions = PageDecodingOptions(), _ name: String) {
        let fast = Result { try PageDecoder(registry: starterRegistry, options: options).decode(input) }
        // Zero spelled as Foundation refuses it is the one known divergence (Oracles).
        let reference = Result { try ReferencePageDecoder(registry: starterRegistry, options: options).decode(Oracles.zerosRespelledForFoundation(input) ?? input) }
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

extension ReferenceAgreementTests {
    @Test func generatedPagesWithProblemsAgree() {
        for seed in 1...12 {
            var options = PageGenerator.Options(widgets: 150, seed: UInt64(seed), badRate: 0.15, duplicateRate: 0.1, nesting: 2)
            options.sections = seed % 3 + 1
            let input = PageGenerator(options).generate()
            for placeholders in [false, true] {
                let failures = Oracles.page(input, options: PageDecodingOptions(placeholders: placeholders))
                #expect(failures.isEmpty, "seed \(seed): \(failures)")
            }
        }
    }

    /// A deterministic stand-in for the fuzzer: corpus pages with bytes flipped, spliced,
    /// truncated, duplicated. Whatever FlowJSON accepts must decode identically on both
    /// paths, and nothing may crash.
    /// Found by the `page` fuzzer: a repeated key whose later value is a lone surrogate.
    /// Typed reads and JSON equality see only a key's first member (as `JSONDecoder`), so
    /// the hidden one costs nothing on either path; writing back keeps it as received.
    @Test func aRepeatedKeyHidesAStringThatDoesNotDecode() throws {
        let text = #"{"page":{"sections":[{"widgets":[{"type":"title_block","id":"a","data":{"title":"ok","title":"x \uDC00 y"},"#
            + #""tracking":{"k":1,"k":"\uDC00"},"actions":{"tap":{"type":"dismiss","type":"\uDC00"}}}]}]}}"#
        Self.agree(bytes(text), "hidden twin")
        let decoded = try decode(text)
        #expect(decoded.diagnostics.isEmpty)
        let widget = try #require(decoded.page.sections.first?.widgets.first)
        #expect(widget.id == "a")
        #expect(widget.data.value == ["title": "ok"])
        #expect(widget.tracking?.value == ["k": 1])
        #expect(widget.actions["tap"]?.type == "dismiss")
        let written = String(decoding: PageEncoder.encode(decoded.page), as: UTF8.self)
        #expect(written.contains(#"{"title":"ok","title":"x \uDC00 y"}"#))

        // Where the first member is the one that does not decode, it costs the widget only
        // when its model reads that key.
        let unread = #"{"page":{"sections":[{"widgets":[{"type":"title_block","id":"a","data":{"title":"ok","x":"\uDC00","x":1}}]}]}}"#
        Self.agree(bytes(unread), "unread first twin")
        #expect(try decode(unread).diagnostics.isEmpty)
        let read = #"{"page":{"sections":[{"widgets":[{"type":"title_block","id":"a","data":{"title":"\uDC00","title":"ok"}}]}]}}"#
        Self.agree(bytes(read), "read first twin")
        #expect(keys(try decode(read).diagnostics) == ["malformed_payload page.sections.0.widgets.0 (title_block)"])
    }

    @Test func mutatedCorpusPagesAgree() {
        var rng = SeededRandom(seed: 42)
        let seeds = corpusFiles("pages").map(bytes)
        var compared = 0
        for _ in 0..<1500 {
            var input = seeds[rng.below(seeds.count)]
            for _ in 0..<(1 + rng.below(4)) {
                guard !input.isEmpty else { break }
                let at = rng.below(input.count)
                switch rng.below(5) {
                case 0: input[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1: input[at] = rng.pick(Array("{}[],:\"0123456789-eE.tfn \\u".utf8))
                case 2: input.remove(at: at)
                case 3:
                    let length = min(1 + rng.below(40), input.count - at)
                    input.insert(contentsOf: input[at..<(at + length)], at: rng.below(input.count))
                default:
                    let other = seeds[rng.below(seeds.count)]
                    let from = rng.below(other.count)
                    let length = min(1 + rng.below(60), other.count - from)
                    input.replaceSubrange(at..<min(at + length, input.count), with: other[from..<(from + length)])
                }
            }
            let selector = UInt8(truncatingIfNeeded: rng.next()) & 3
            let failures = Oracles.page(input, options: Oracles.options(selector: selector))
            if (try? JSONDocument(bytes: input)) != nil { compared += 1 }
            #expect(failures.isEmpty, "\(failures)\n\(String(decoding: input, as: UTF8.self))")
        }
        #expect(compared > 100, "mutations should often stay valid JSON")
    }
}
