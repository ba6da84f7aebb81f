import FlowCore
import FlowJSON

extension FuzzTarget {
    /// The merge-diff target: two pages from fuzzer bytes (see ``FuzzPairInput``), through
    /// ``Oracles/mergeDiff(_:_:options:)``.
    /// `pages` (``FuzzPages``): the pages an input may take as its first.
    public static func mergeDiff(pages: [FuzzPages.Page]) -> FuzzTarget {
        var target = FuzzTarget(
            name: "merge-diff",
            summary: "two pages: the diff rebuilds the new id lists; merge equals decoding the concatenation",
            seedFolders: [],
            generatedSeeds: { MergeDiffSeeds.all(pages: pages) },
            check: { input in
                guard let pair = FuzzPairInput(input, pages: pages) else { return [] }
                return Oracles.mergeDiff(pair.first, pair.second, options: pair.options)
            })
        target.mutator = EnvelopeMutator(format: .pair, typeNames: Oracles.registry.typeNames, pages: pages.map { Array($0.text.utf8) })
        return target
    }
}

extension Oracles {
    /// The merge-diff oracle (the page contract, "Identity and renaming" and "Pagination and refresh"), on pages A and B:
    /// - never a crash;
    /// - diff: the changeset from A to B, performed on A's id lists the way a collection
    ///   view performs batch updates, gives B's lists, and the other way round; a page
    ///   against itself is an empty changeset;
    /// - merge: appending B to A as its next page keeps every id present and unique and
    ///   the id index sound, and gives the page that decoding the single document (A with
    ///   B's sections appended and B's pagination) gives. A next page that fails as a whole
    ///   leaves A exactly as it was.
    public static func mergeDiff(_ first: [UInt8], _ second: [UInt8],
                                 options: PageDecodingOptions = PageDecodingOptions(),
                                 registry: WidgetRegistry = Oracles.registry) -> [String] {
        let decoder = PageDecoder(registry: registry, options: options)
        guard let a = try? decoder.decode(first).page else { return [] }
        var failures: [String] = []

        if let b = try? decoder.decode(second).page {
            let forward = PageDiff(old: a, new: b), backward = PageDiff(old: b, new: a)
            if forward.applied(to: .init(a)) != .init(b) { failures.append("the diff from A to B does not rebuild B's id lists") }
            if backward.applied(to: .init(b)) != .init(a) { failures.append("the diff from B to A does not rebuild A's id lists") }
            if !PageDiff(old: a, new: a).isEmpty { failures.append("a page diffed against itself is not empty") }
        }

        var merged = a
        // A page a host has looked an id up on holds its id index: the merge must keep it in
        // step (``Page/identityViolations()`` below compares it with the page).
        _ = merged.location(of: a.allWidgets.first?.id ?? "")
        do {
            _ = try decoder.append(nextPage: second, to: &merged)
        } catch {
            if merged != a { failures.append("a next page that failed as a whole changed the page") }
            return failures
        }
        failures += identity(merged) + merged.identityViolations().map { "after the merge: \($0)" }
        if merged.nav != a.nav || merged.header != a.header || merged.footer != a.footer
            || merged.id != a.id || Array(merged.sections.prefix(a.sections.count)) != a.sections {
            failures.append("the merge changed what was already on the page")
        }

        // The concatenated document exists only for a page under a `page` key, and only when
        // both documents hold no string JSONValue refuses (a lone surrogate).
        guard !options.bareRoot, let concatenated = try? RefreshGenerator.concatenated(first, second) else { return failures }
        let whole: Page
        // Decoded from a slice: the entry point for any collection of bytes.
        do { whole = try decoder.decode(concatenated[...]).page } catch {
            failures.append("the concatenated document fails as a whole (\(error)) but the merge succeeded")
            return failures
        }
        // The one deliberate difference: in a single document the footer claims its ids
        // last, so a newcomer asking for a footer widget's id would take it and the footer
        // widget be renamed; a merge never renames what is already on screen.
        if whole.footer == a.footer, whole != merged {
            failures.append("the merged page differs from decoding the concatenated document")
        }
        return failures
    }
}

/// Seeds for the merge-diff target: the corpus diff pairs and the feed and its next page as
/// documents of their own, and every page of `pages` against a next page and itself.
enum MergeDiffSeeds {
    static func all(pages fuzzPages: [FuzzPages.Page]) -> [(name: String, bytes: [UInt8])] {
        var seeds: [(name: String, bytes: [UInt8])] = []
        let root = FuzzTargets.defaultRepositoryRoot.appendingPathComponent("Corpus")
        // A missing folder leaves its seeds out; the page target, which reads the same
        // folders, fails on it (``FuzzTarget/seeds(repositoryRoot:)``).
        let diffs = (try? FuzzTarget.files(in: root.appendingPathComponent("diff"))) ?? []
        for old in diffs where old.name.hasSuffix(".old.json") {
            let name = String(old.name.dropLast(".old.json".count))
            guard let new = diffs.first(where: { $0.name == name + ".new.json" }) else { continue }
            seeds.append(("diff_\(name)", FuzzPairInput.encode(old.bytes, new.bytes)))
        }
        let pages = (try? FuzzTarget.files(in: root.appendingPathComponent("pages"))) ?? []
        if let one = pages.first(where: { $0.name == "feed_page1.json" }), let two = pages.first(where: { $0.name == "feed_page2.json" }) {
            seeds.append(("merge_feed", FuzzPairInput.encode(one.bytes, two.bytes)))
            seeds.append(("merge_feed_placeholders", FuzzPairInput.encode(one.bytes, two.bytes, selector: FuzzPairInput.placeholders)))
        }
        let next = #"{"page": {"sections": [{"id": "more", "widgets": [{"type": "separator"}, {"type": "title_block", "data": {"title": "More"}}, {"type": "hologram"}]}], "pagination": {"has_more": false}}}"#
        for (index, page) in fuzzPages.enumerated() {
            seeds.append(("page\(index)_next", FuzzPairInput.encode(page: index, Array(next.utf8))))
            seeds.append(("page\(index)_itself", FuzzPairInput.encode(page: index, Array(page.text.utf8))))
        }
        return seeds
    }
}
