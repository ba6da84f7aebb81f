import Foundation
import FlowCore

/// A team's own page documents for `flow bench --pages`: the files named, and every `*.json`
/// of the folders named (golden files, `*.golden.json`, are expected outputs, not pages).
///
/// Each page is named by its file's stem (`home.json` is `home`); a stem met again gets
/// `-2`, `-3`… in the order the files were named, so the names are stable between runs of
/// the same command line (baselines compare by name).
public struct PageSet: Sendable {
    public struct Page: Sendable, Equatable {
        /// The name in benchmark names: `pages.decode/<stem>`.
        public let stem: String
        public let path: String
        public let bytes: Int
        /// Widgets of this page the registry has no type for (`unknown_type`), by type: they
        /// decode to nothing (or a placeholder), so the figures leave their cost out. Empty
        /// when the page was not checked.
        public var unknownTypes: [UnknownType] = []

        public init(stem: String, path: String, bytes: Int, unknownTypes: [UnknownType] = []) {
            self.stem = stem
            self.path = path
            self.bytes = bytes
            self.unknownTypes = unknownTypes
        }

        /// How many widgets of the page are of a type the registry lacks.
        public var unknownWidgets: Int { unknownTypes.reduce(0) { $0 + $1.widgets } }
    }

    /// A widget type a page uses and the registry lacks, with how many widgets use it.
    public struct UnknownType: Sendable, Equatable {
        public let type: String
        public let widgets: Int
    }

    /// One line per page that loses widgets as unknown types: how many, which types, and
    /// what to run instead. Empty when every widget's type is registered.
    public var unknownTypeWarnings: [String] {
        pages.filter { !$0.unknownTypes.isEmpty }.map { page in
            let types = page.unknownTypes.prefix(8).map { "\($0.type) ×\($0.widgets)" }.joined(separator: ", ")
            let more = page.unknownTypes.count > 8 ? " and \(page.unknownTypes.count - 8) more types" : ""
            return """
                \(page.path): \(page.unknownWidgets) widget\(page.unknownWidgets == 1 ? "" : "s") of types this tool does not \
                register (\(types)\(more)) decode to nothing, so the figures leave their cost out; run the benchmark \
                with the host's own tool, built with FlowTool.main(registry:) and those types
                """
        }
    }

    /// A file named or found that is not benchmarked, and why.
    public struct Skipped: Sendable, Equatable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public let pages: [Page]
    public let skipped: [Skipped]
    /// How every page decodes (`--bare-root`, `--placeholders`); always on one thread for the
    /// gated figures, whatever is set here.
    public let options: PageDecodingOptions

    /// The files `paths` name, each checked to be a page document the registry decodes.
    ///
    /// - Throws: ``BenchError`` when a folder holds no `*.json` page, or when no page is left
    ///   to run (each one skipped said why in ``skipped``, and the error repeats it).
    public static func resolve(_ paths: [String], registry: WidgetRegistry, options: PageDecodingOptions,
                               check: Bool = true) throws -> PageSet {
        guard !paths.isEmpty else { throw BenchError("--pages expects one or more page files or folders, got none") }
        var files: [String] = []
        var skipped: [Skipped] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                skipped.append(Skipped(path: path, reason: "no such file or folder"))
                continue
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
            let pages = names.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".golden.json") }
            guard !pages.isEmpty else {
                throw BenchError("\(path): the folder holds no page document (expected *.json files other than *.golden.json, found \(names.isEmpty ? "nothing" : "\(names.count) other files"))")
            }
            files += pages.map { (path as NSString).appendingPathComponent($0) }
        }

        var kept: [Page] = []
        var stems: [String: Int] = [:]
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                skipped.append(Skipped(path: file, reason: "cannot be read"))
                continue
            }
            var unknownTypes: [UnknownType] = []
            if check {
                do {
                    let decoded = try PageDecoder(registry: registry, options: options).decode([UInt8](data))
                    unknownTypes = Self.unknownTypes(decoded.diagnostics)
                } catch {
                    skipped.append(Skipped(path: file, reason: "not a page document (\(error))"))
                    continue
                }
            }
            let base = String((file as NSString).lastPathComponent.dropLast(".json".count))
            let stem = base.isEmpty ? "page" : base
            stems[stem, default: 0] += 1
            let n = stems[stem]!
            kept.append(Page(stem: n == 1 ? stem : "\(stem)-\(n)", path: file, bytes: data.count, unknownTypes: unknownTypes))
        }
        guard !kept.isEmpty else {
            let why = skipped.isEmpty ? "" : ": " + skipped.map(\.description).joined(separator: "; ")
            throw BenchError("no readable page document among \(paths.joined(separator: " "))\(why)")
        }
        return PageSet(pages: kept, skipped: skipped, options: options)
    }

    /// The `unknown_type` diagnostics of a decode, counted by type: most widgets first, then
    /// by name.
    static func unknownTypes(_ diagnostics: [Diagnostic]) -> [UnknownType] {
        var counts: [String: Int] = [:]
        for d in diagnostics where d.kind == .unknownType { counts[d.type ?? "", default: 0] += 1 }
        return counts.map { UnknownType(type: $0.key, widgets: $0.value) }
            .sorted { ($0.widgets, $1.type) > ($1.widgets, $0.type) }
    }

    /// The command-line words that name this set again, for the worker processes (which
    /// rebuild the same benchmarks from them).
    public var workerArguments: [String] {
        var words = ["--pages"]
        if options.bareRoot { words.append("--bare-root") }
        if options.placeholders { words.append("--placeholders") }
        // Absolute: a worker may start in another working directory (--repeat-counts).
        return words + ["--"] + pages.map { URL(fileURLWithPath: $0.path).standardizedFileURL.path }
    }
}
