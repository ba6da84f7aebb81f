import FlowCore
import Foundation

extension FuzzTarget {
    /// A fuzz target for a host's own widget types and pages: every check the `page` and
    /// `one-bad-widget` targets make, decoding through `registry`.
    ///
    /// Input: a first byte of 0xC0 or more splices into one of `pages` (the rest is a
    /// ``OneBadWidget/Input``: one widget or field of a valid page replaced, the rest of the
    /// page unchanged); a first byte of 0x80-0xBF selects decode options for the rest (as the
    /// `page` target); anything else, a captured page as it is, goes through the page oracle
    /// with default options. `registry` must hold `separator` (the one-bad-widget baseline's
    /// marker): register the starter types on it too.
    public static func host(name: String, registry: WidgetRegistry, pages: [OneBadWidget.BasePage]) -> FuzzTarget {
        FuzzTarget(
            name: name,
            summary: "a host's pages and widget types: the page oracle and one bad widget, through its registry",
            seedFolders: [],
            generatedSeeds: {
                var seeds: [(name: String, bytes: [UInt8])] = []
                for (i, page) in pages.enumerated() {
                    seeds.append(("host_p\(i)", page.bytes))
                    seeds.append(("host_p\(i)_placeholders", [0x80 | 0x01 | (page.bareRoot ? 0x02 : 0)] + page.bytes))
                }
                return seeds + OneBadWidget.seeds(pages: pages).map { ($0.name, [0xC0] + $0.bytes) }
            },
            check: { input in
                guard let first = input.first else { return Oracles.page(input, registry: registry) }
                if first >= 0xC0 { return Oracles.oneBadWidget(Array(input.dropFirst()), pages: pages, registry: registry) }
                if first >= 0x80 { return Oracles.page(Array(input.dropFirst()), options: Oracles.options(selector: first & 0x3F), registry: registry) }
                return Oracles.page(input, registry: registry)
            })
    }
}

extension OneBadWidget {
    /// The first sixteen `*.json` of `folder` (`*.golden.json` aside), sorted by name, ready
    /// for ``FuzzTarget/host(name:registry:pages:)``: a fuzz input names a page with four
    /// bits, by its index here, so a regression input keeps its meaning only while the
    /// folder's listing does. Pages over `maxBytes` are left out: every input decodes its
    /// page twice (spliced, and the baseline), so a 300 KB page fuzzes at a few inputs a
    /// second, and each of its thousands of slots would be a seed.
    public static func basePages(folder: String, bareRoot: Bool = false, maxBytes: Int = 64 * 1024) -> [BasePage] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        let sized = names.filter { name in
            guard name.hasSuffix(".json") && !name.hasSuffix(".golden.json") else { return false }
            let path = (folder as NSString).appendingPathComponent(name)
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
            return size <= maxBytes
        }
        return sized.prefix(16).compactMap { name in
            let path = (folder as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            return basePage(source: path, text: String(decoding: data, as: UTF8.self), bareRoot: bareRoot)
        }
    }
}
