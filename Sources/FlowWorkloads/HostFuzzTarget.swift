import FlowCore
import Foundation

extension FuzzTarget {
    /// A fuzz target for a host's own widget types and pages: every check the `page` and
    /// `one-bad-widget` targets make, decoding through `registry` (the starter types need not
    /// be in it).
    ///
    /// Input: a first byte of 0xC0 or more splices into one of `pages` (the rest is a
    /// ``OneBadWidget/Input``: one widget or field of a valid page replaced, the rest of the
    /// page unchanged); a first byte of 0x80-0xBF selects decode options for the rest (as the
    /// `page` target); anything else, a captured page as it is, goes through the page oracle
    /// with default options. No pages is a ``setupError``: the one-bad-widget checks would
    /// never run.
    ///
    /// With `FLOW_FUZZ_CANARY=1` in the environment (`fuzz.sh --canary`), the target is its own
    /// positive control: the `canary` type (``Canary``) joins the registry and a page of it
    /// joins the pages (in place of the sixteenth, when there are sixteen), with its number out
    /// of range armed, so that a run proves within a minute that it reaches registered types.
    public static func host(name: String, registry: WidgetRegistry, pages: [OneBadWidget.BasePage]) -> FuzzTarget {
        let control = Canary.hostControl && !pages.isEmpty
        let (registry, pages) = control ? Canary.control(registry, pages) : (registry, pages)
        let marked = OneBadWidget.withMarker(registry)
        let baselines = pages.map { _ in OneBadWidget.BaselineCache() }
        var target = FuzzTarget(
            name: name,
            summary: "a host's pages and widget types: the page oracle and one bad widget, through its registry",
            seedFolders: [],
            generatedSeeds: {
                var seeds: [(name: String, bytes: [UInt8])] = []
                for (i, page) in pages.enumerated() {
                    seeds.append(("host_p\(i)", page.bytes))
                    seeds.append(("host_p\(i)_placeholders", [0x80 | 0x01 | (page.bareRoot ? 0x02 : 0)] + page.bytes))
                }
                seeds += OneBadWidget.seeds(pages: pages).map { ($0.name, [0xC0] + $0.bytes) }
                // The control starts from its own page's seeds alone, so that its run spends its
                // time on the canaries' data; the host's pages stay in the target (the spliced
                // inputs a mutation makes of it still name them).
                guard control else { return seeds }
                let k = pages.count - 1
                return seeds.filter { $0.name == "host_p\(k)" || $0.name == "host_p\(k)_placeholders" || $0.name.hasPrefix("obw_p\(k)_") }
            },
            check: { input in
                guard let first = input.first else { return Oracles.page(input, registry: registry) }
                if first >= 0xC0 {
                    guard let parsed = OneBadWidget.Input(Array(input.dropFirst()), pageCount: pages.count) else { return [] }
                    return OneBadWidget.check(parsed, pages: pages, registry: registry, marked: marked, baselines: baselines)
                }
                if first >= 0x80 { return Oracles.page(Array(input.dropFirst()), options: Oracles.options(selector: first & 0x3F), registry: registry) }
                return Oracles.page(input, registry: registry)
            })
        target.mutator = EnvelopeMutator(format: .host, typeNames: registry.typeNames, pages: pages.map(\.bytes))
        if pages.isEmpty {
            target.setupError = "no pages to fuzz (the list of pages is empty; host(name:registry:pagesFolder:) names the folder it reads)"
        }
        return target
    }

    /// ``host(name:registry:pages:)`` on the pages of a folder (``OneBadWidget/loadBasePages(folder:bareRoot:maxBytes:)``):
    /// the folder the environment variable `environmentVariable` names when it is set; else
    /// `<executable>.pages` beside the fuzz binary when there is one (what a ClusterFuzzLite or
    /// OSS-Fuzz build leaves in `$OUT`, where runners have no source tree); else `pagesFolder`.
    /// A folder that does not exist or holds no page is a ``setupError`` naming the folder and
    /// the variable.
    public static func host(name: String, registry: WidgetRegistry, pagesFolder: String,
                            environmentVariable: String? = nil, bareRoot: Bool = false) -> FuzzTarget {
        let fromEnvironment = environmentVariable.flatMap { ProcessInfo.processInfo.environment[$0] }
        let folder = fromEnvironment ?? Self.pagesBeside(executablePath) ?? pagesFolder
        do {
            return host(name: name, registry: registry, pages: try OneBadWidget.loadBasePages(folder: folder, bareRoot: bareRoot))
        } catch {
            var target = host(name: name, registry: registry, pages: [])
            target.setupError = switch (environmentVariable, fromEnvironment) {
            case (let variable?, _?): "\(error) (\(variable) names it): set \(variable) to the folder of your pages"
            case (let variable?, nil): "\(error) (the default: \(variable) is not set): set \(variable) to the folder of your pages"
            case (nil, _): "\(error); pass the folder of your pages to FuzzTarget.host(name:registry:pagesFolder:)"
            }
            return target
        }
    }
}

extension FuzzTarget {
    /// `<executable>.pages` when it is a folder: the pages a service build copied beside the
    /// binary (`Benchmarks/HostExample/.clusterfuzzlite/build.sh` and `Fuzz/oss-fuzz/build.sh` do).
    package static func pagesBeside(_ executable: String?) -> String? {
        guard let executable else { return nil }
        var isDirectory: ObjCBool = false
        let folder = executable + ".pages"
        return FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue ? folder : nil
    }

    /// This process's executable file.
    package static var executablePath: String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first
    }
}

extension OneBadWidget {
    /// Why ``OneBadWidget/loadBasePages(folder:bareRoot:maxBytes:)`` found no page.
    public struct PagesFolderError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The first sixteen `*.json` of `folder` (`*.golden.json` aside), sorted by name, ready
    /// for ``FuzzTarget/host(name:registry:pages:)``: a fuzz input names a page with four
    /// bits, by its index here, so a regression input keeps its meaning only while the
    /// folder's listing does. Pages over `maxBytes` are left out: every input decodes its
    /// page twice (spliced, and the baseline), so a 300 KB page fuzzes at a few inputs a
    /// second, and each of its thousands of slots would be a seed. Throws when the folder
    /// does not exist or none of its files is such a page.
    public static func loadBasePages(folder: String, bareRoot: Bool = false, maxBytes: Int = 64 * 1024) throws -> [BasePage] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw PagesFolderError(description: "no pages folder at \(folder)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let sized = names.filter { name in
            guard name.hasSuffix(".json") && !name.hasSuffix(".golden.json") else { return false }
            let path = (folder as NSString).appendingPathComponent(name)
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
            return size <= maxBytes
        }
        let pages = sized.prefix(16).compactMap { name -> BasePage? in
            let path = (folder as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            return basePage(source: path, text: String(decoding: data, as: UTF8.self), bareRoot: bareRoot)
        }
        guard !pages.isEmpty else {
            throw PagesFolderError(description: "no pages in \(folder): no *.json file of at most \(maxBytes) bytes, *.golden.json aside")
        }
        return pages
    }

    /// ``loadBasePages(folder:bareRoot:maxBytes:)``, with no pages when the folder is missing
    /// or empty (``FuzzTarget/host(name:registry:pages:)`` then reports it).
    public static func basePages(folder: String, bareRoot: Bool = false, maxBytes: Int = 64 * 1024) -> [BasePage] {
        (try? loadBasePages(folder: folder, bareRoot: bareRoot, maxBytes: maxBytes)) ?? []
    }
}
