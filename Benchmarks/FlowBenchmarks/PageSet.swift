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
            if check {
                do {
                    _ = try PageDecoder(registry: registry, options: options).decode([UInt8](data))
                } catch {
                    skipped.append(Skipped(path: file, reason: "not a page document (\(error))"))
                    continue
                }
            }
            let base = String((file as NSString).lastPathComponent.dropLast(".json".count))
            let stem = base.isEmpty ? "page" : base
            stems[stem, default: 0] += 1
            let n = stems[stem]!
            kept.append(Page(stem: n == 1 ? stem : "\(stem)-\(n)", path: file, bytes: data.count))
        }
        guard !kept.isEmpty else {
            let why = skipped.isEmpty ? "" : ": " + skipped.map(\.description).joined(separator: "; ")
            throw BenchError("no readable page document among \(paths.joined(separator: " "))\(why)")
        }
        return PageSet(pages: kept, skipped: skipped, options: options)
    }

    /// The command-line words that name this set again, for the worker processes (which
    /// rebuild the same benchmarks from them).
    public var workerArguments: [String] {
        var words = ["--pages"]
        if options.bareRoot { words.append("--bare-root") }
        if options.placeholders { words.append("--placeholders") }
        return words + ["--"] + pages.map(\.path)
    }
}
