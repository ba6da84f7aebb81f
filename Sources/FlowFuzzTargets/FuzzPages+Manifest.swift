import Foundation
import FlowWorkloads

// flow-core's own fuzz pages, read when the process starts: `Fuzz/pages.manifest` names them,
// in the order fuzz inputs index them, and the files are read from the first place that has
// the manifest (see `FuzzPages.locate`). A binary that cannot read one of them does not fuzz:
// `FuzzTargets.all` carries the reason as each target's `setupError`, which
// `FuzzHarness.initialize` reports before exiting 1.

extension FuzzPages {
    /// The manifest's path inside a checkout, and inside a pages folder (laid out the same way).
    public static let manifestPath = "Fuzz/pages.manifest"

    /// The environment variable naming a pages folder, looked at first.
    public static let environmentVariable = "FLOW_FUZZ_PAGES"

    /// The pages of flow-core's own fuzz targets, in manifest order, each its file byte for
    /// byte; empty when they could not be read (``loaded`` says why).
    public static var all: [Page] { (try? loaded.get()) ?? [] }

    /// The pages, or why they could not be read: from the folder `FLOW_FUZZ_PAGES` names, else
    /// `<executable>.pages/` beside this process's binary, else the checkout.
    public static let loaded: Result<[Page], LoadError> = Result {
        try load(locate(environment: ProcessInfo.processInfo.environment, executable: FuzzTarget.executablePath))
    }.mapError { $0 as? LoadError ?? LoadError(description: "\($0)") }

    /// Why the pages could not be read: names the page (or the manifest) and where it looked.
    public struct LoadError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// One line of the manifest.
    package struct Entry: Sendable, Equatable {
        package let path: String
        package let bareRoot: Bool

        package init(path: String, bareRoot: Bool) {
            self.path = path
            self.bareRoot = bareRoot
        }
    }

    /// Where the pages are read from, and how that place was chosen (for messages).
    package struct Location: Sendable, Equatable {
        package let folder: URL
        package let how: String
    }

    /// The manifest's lines: `PATH` or `PATH bare-root`; blank lines and `#` comments aside.
    package static func parseManifest(_ text: String) throws(LoadError) -> [Entry] {
        var entries: [Entry] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard let path = fields.first, !path.hasPrefix("#") else { continue }
            switch fields.dropFirst().map(String.init) {
            case []: entries.append(Entry(path: String(path), bareRoot: false))
            case ["bare-root"]: entries.append(Entry(path: String(path), bareRoot: true))
            case let extra:
                throw LoadError(description: "\(manifestPath) line \(number + 1): expected PATH [bare-root], found \(extra.joined(separator: " ")) after \(path)")
            }
        }
        return entries
    }

    /// The place to read: `FLOW_FUZZ_PAGES` when set (even when it holds no manifest: the
    /// error then names it); else `<executable>.pages` when it is a folder; else the first of
    /// the checkout found from this module's source path and the working directory (or a
    /// folder above it) that holds the manifest.
    package static func locate(environment: [String: String], executable: String?,
                               checkouts: [URL] = defaultCheckouts()) throws(LoadError) -> Location {
        if let folder = environment[environmentVariable] {
            return Location(folder: URL(fileURLWithPath: folder), how: "\(environmentVariable) names it")
        }
        if let beside = FuzzTarget.pagesBeside(executable) {
            return Location(folder: URL(fileURLWithPath: beside), how: "beside the binary; \(environmentVariable) is not set")
        }
        let manager = FileManager.default
        if let checkout = checkouts.first(where: { manager.fileExists(atPath: $0.appendingPathComponent(manifestPath).path) }) {
            return Location(folder: checkout, how: "the checkout; \(environmentVariable) is not set and no \(executable.map { "\($0).pages" } ?? "<binary>.pages") is beside the binary")
        }
        throw LoadError(description: "no \(manifestPath) found: \(environmentVariable) is not set, no \(executable.map { "\($0).pages" } ?? "<binary>.pages") folder is beside the binary, and no checkout holds it (looked in \(checkouts.map(\.path).joined(separator: ", "))); set \(environmentVariable) to a folder holding \(manifestPath) and the pages it names")
    }

    /// The checkout from this module's source file, then the working directory and each folder above it.
    package static func defaultCheckouts() -> [URL] {
        var folders = [FuzzTargets.defaultRepositoryRoot]
        var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
        while true {
            folders.append(folder)
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        return folders
    }

    /// The manifest at `location` and every page it names, in its order, as their bytes are.
    package static func load(_ location: Location) throws(LoadError) -> [Page] {
        let folder = location.folder
        let place = "\(folder.path) (\(location.how))"
        guard let manifest = FileManager.default.contents(atPath: folder.appendingPathComponent(manifestPath).path) else {
            throw LoadError(description: "no \(manifestPath) in \(place)")
        }
        let entries = try parseManifest(String(decoding: manifest, as: UTF8.self))
        guard !entries.isEmpty else { throw LoadError(description: "\(manifestPath) in \(place) names no page") }
        return try entries.enumerated().map { (index, entry) throws(LoadError) -> Page in
            let path = folder.appendingPathComponent(entry.path).path
            guard let data = FileManager.default.contents(atPath: path) else {
                throw LoadError(description: "fuzz page \(index) of \(manifestPath), \(entry.path), is missing: no file at \(path); looked in \(place)")
            }
            // Byte for byte: a page that is not UTF-8 would be changed by decoding it as text.
            guard let text = String(data: data, encoding: .utf8) else {
                throw LoadError(description: "fuzz page \(index) of \(manifestPath), \(entry.path), is not UTF-8 text: \(path)")
            }
            return Page(source: entry.path, bareRoot: entry.bareRoot, text: text)
        }
    }
}
