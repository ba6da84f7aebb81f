import FlowCore
import FlowJSON
import Foundation

extension FuzzTarget {
    /// The mutation target: a page and an `api` response from fuzzer bytes (see
    /// ``FuzzPairInput``), through ``Oracles/mutation(page:response:options:)``.
    /// `pages` (``FuzzPages``): the pages an input may pair its response with.
    public static func mutation(pages: [FuzzPages.Page]) -> FuzzTarget {
        var target = FuzzTarget(
            name: "mutation",
            summary: "a page and a mutation response: identity after every mutation, transactions all or nothing",
            seedFolders: [],
            generatedSeeds: { MutationSeeds.all(pages: pages) },
            check: { input in
                guard let pair = FuzzPairInput(input, pages: pages) else { return [] }
                return Oracles.mutation(page: pair.first, response: pair.second, options: pair.options)
            })
        target.mutator = EnvelopeMutator(format: .pair, typeNames: Oracles.registry.typeNames, pages: pages.map { Array($0.text.utf8) })
        return target
    }
}

extension Oracles {
    /// The mutation oracle (the page contract, "Mutations"):
    /// - never a crash, on any page and any response;
    /// - after the response is applied, and after each of its mutations applied one at a
    ///   time, every id is present and unique and the page's id index agrees with the page
    ///   (``Page/identityViolations()``); the page keeps its id unless a mutation replaces
    ///   the page;
    /// - applying the mutations one response at a time gives the same page as applying the
    ///   response at once (each mutation sees only the page its predecessors left);
    /// - transactional mode: either the page is left exactly as it was, or it equals the
    ///   page the default mode gives, and it commits exactly when nothing failed;
    /// - the mutated page written out and decoded again writes out the same bytes.
    public static func mutation(page pageBytes: [UInt8], response responseBytes: [UInt8],
                                options: PageDecodingOptions = PageDecodingOptions(),
                                registry: WidgetRegistry = Oracles.registry) -> [String] {
        let decoder = PageDecoder(registry: registry, options: options)
        guard let original = try? decoder.decode(pageBytes).page,
              let response = try? decoder.decodeMutations(responseBytes) else { return [] }
        var failures: [String] = []

        var page = original
        let outcome = decoder.apply(response, to: &page)
        failures += identity(page) + page.identityViolations().map { "after the response: \($0)" }
        if !response.replacesPage && page.id != original.id {
            failures.append("the page id changed, though no mutation of \(response.kinds) replaces the page")
        }

        var transactional = original
        let transaction = decoder.apply(response, to: &transactional, transactional: true)
        if transaction.committed != (outcome.failed == 0 && response.isWellFormed) {
            failures.append("transactional mode committed = \(transaction.committed) with \(outcome.failed) failed mutation(s)")
        }
        if transaction.committed ? transactional != page : transactional != original {
            failures.append(transaction.committed
                ? "a committed transaction differs from applying the response"
                : "a rolled-back transaction changed the page")
        }

        failures += oneAtATime(original, responseBytes, decoder: decoder, expected: page)

        if !options.placeholders {
            let once = PageEncoder.encode(page, bareRoot: options.bareRoot)
            // Read back as `Data` (what a URL session hands over): that entry point too.
            if let again = try? decoder.decode(Data(once)).page {
                if PageEncoder.encode(again, bareRoot: options.bareRoot) != once {
                    failures.append("the mutated page written out and read back writes different bytes")
                }
            } else if options.limits == PageDecodingOptions().limits {
                failures.append("the mutated page written out does not decode")
            }
        }
        return failures
    }

    /// Applies each element of the response's `mutations` as a response of its own,
    /// checking identity after every step; the end result must be `expected`.
    static func oneAtATime(_ original: Page, _ responseBytes: [UInt8], decoder: PageDecoder, expected: Page) -> [String] {
        // The whole response decoded, so it scans; JSONValue refuses only strings holding a
        // lone surrogate, which the step responses could not spell anyway.
        guard let response = try? JSONValue(parsing: responseBytes),
              case .array(let mutations)? = response["mutations"] else { return [] }
        var failures: [String] = []
        var page = original
        for (i, mutation) in mutations.enumerated() {
            let step = JSONWriter.encode(.object(["mutations": .array([mutation])]))
            guard let single = try? decoder.decodeMutations(step) else {
                failures.append("mutation \(i) written as a response of its own does not read")
                continue
            }
            _ = decoder.apply(single, to: &page)
            failures += identity(page).map { "after mutation \(i): \($0)" }
            failures += page.identityViolations().map { "after mutation \(i): \($0)" }
        }
        if page != expected { failures.append("applying the mutations one at a time gives a different page") }
        return failures
    }
}

/// Seeds for the mutation target: every corpus mutation case (its own page and response),
/// and, for every page of `pages`, responses aimed at that page's real ids.
enum MutationSeeds {
    static func all(pages: [FuzzPages.Page]) -> [(name: String, bytes: [UInt8])] {
        var seeds: [(name: String, bytes: [UInt8])] = []
        let folder = FuzzTargets.defaultRepositoryRoot.appendingPathComponent("Corpus/mutations")
        // A missing folder leaves its seeds out; the page target, which reads the same folder,
        // fails on it (``FuzzTarget/seeds(repositoryRoot:)``).
        let files = (try? FuzzTarget.files(in: folder)) ?? []
        for page in files where page.name.hasSuffix(".page.json") {
            let name = String(page.name.dropLast(".page.json".count))
            guard let response = files.first(where: { $0.name == name + ".response.json" }) else { continue }
            seeds.append(("mutations_\(name)", FuzzPairInput.encode(page.bytes, response.bytes)))
            seeds.append(("mutations_\(name)_placeholders", FuzzPairInput.encode(page.bytes, response.bytes, selector: FuzzPairInput.placeholders)))
        }
        for (index, fuzzPage) in pages.enumerated() {
            var options = PageDecodingOptions()
            options.bareRoot = fuzzPage.bareRoot
            guard let page = try? PageDecoder(registry: Oracles.registry, options: options).decode(Array(fuzzPage.text.utf8)).page else { continue }
            for (name, response) in responses(aimedAt: page) {
                seeds.append(("page\(index)_\(name)", FuzzPairInput.encode(page: index, Array(response.utf8))))
            }
        }
        return seeds
    }

    /// One response per mutation kind, aimed at ids the page really has.
    static func responses(aimedAt page: Page) -> [(String, String)] {
        let ids = page.allWidgets.map(\.id)
        guard let first = ids.first, let last = ids.last else {
            return [("append", #"{"mutations": [{"kind": "append_sections", "sections": [{"widgets": [{"type": "separator"}]}]}]}"#)]
        }
        let middle = ids[ids.count / 2]
        return [
            ("remove", #"{"mutations": [{"kind": "remove_widget", "id": "\#(escaped(first))"}]}"#),
            ("replace", #"{"mutations": [{"kind": "replace_widget", "id": "\#(escaped(middle))", "widget": {"type": "title_block", "data": {"title": "New"}}}], "toast": {"message": "Done"}}"#),
            ("replace_taking_an_id", #"{"mutations": [{"kind": "replace_widget", "id": "\#(escaped(last))", "widget": {"type": "separator", "id": "\#(escaped(first))"}}]}"#),
            ("sections", #"{"mutations": [{"kind": "prepend_sections", "sections": [{"id": "p", "widgets": [{"type": "separator", "id": "\#(escaped(middle))"}, {"type": "hologram"}]}]}, {"kind": "append_sections", "sections": [{"widgets": [{"type": "separator"}]}]}]}"#),
            ("mixed", #"{"mutations": [{"kind": "remove_widget", "id": "\#(escaped(middle))"}, {"kind": "remove_widget", "id": "\#(escaped(middle))"}, {"kind": "explode"}, 7, {"kind": "replace_page", "page": {"sections": [{"widgets": [{"type": "separator", "id": "\#(escaped(last))"}]}]}}]}"#),
        ]
    }

    static func escaped(_ id: String) -> String {
        let encoded = JSONWriter.encode(.string(id))
        return String(decoding: encoded.dropFirst().dropLast(), as: UTF8.self)
    }
}
