import Foundation
import FlowCore
import FlowJSON
import FlowWidgets
import FlowWorkloads

/// A named input, built or read in the worker process.
public enum Workload: Hashable, Sendable, CustomStringConvertible {
    /// A page from the deterministic generator.
    case page(widgets: Int, ids: IDs = .realistic)
    /// A file from `../shared/jsonexamples` (twitter, citm_catalog, canada).
    case jsonExample(String)
    /// Every page document in `Corpus/pages`.
    case corpusPages
    /// A hostile shape (``HostileShape``) at a size; its benchmark builds the input.
    case hostile(String, size: Int)
    /// A page document of the caller's (`flow bench --pages`).
    case pageFile(String)
    /// A generated page of a host's own `Decodable` widget type (``RatingStars``).
    case hostTypePage(widgets: Int)

    public enum IDs: String, Hashable, Sendable {
        /// Mostly explicit, distinct ids, some positional.
        case realistic
        /// Every widget sends the same id (the renaming worst case).
        case allSame
        /// Every widget sends its own id.
        case allDistinct
    }

    public var description: String {
        switch self {
        case .page(let widgets, let ids): "generated page, \(widgets) widgets" + (ids == .realistic ? "" : ", \(ids.rawValue) ids")
        case .jsonExample(let name): "jsonexamples/\(name).json"
        case .corpusPages: "Corpus/pages"
        case .hostile(let shape, let n): "hostile shape \(shape), n = \(n)"
        case .pageFile(let path): path
        case .hostTypePage(let widgets): "generated page, \(widgets) widgets of a host's Decodable type"
        }
    }

    /// Whether the input exists on this machine (the shared examples may be absent).
    public var isAvailable: Bool {
        switch self {
        case .jsonExample(let name): FileManager.default.fileExists(atPath: Locations.jsonExample(name).path)
        case .corpusPages: !Locations.corpusPages().isEmpty
        case .page, .hostile, .hostTypePage: true
        case .pageFile(let path): FileManager.default.fileExists(atPath: path)
        }
    }
}

/// A workload in memory, with the decoded forms benchmarks commonly need built on demand.
public final class LoadedWorkload {
    public let workload: Workload
    /// The documents (one, except for the corpus).
    public let documents: [[UInt8]]

    init(_ workload: Workload) throws {
        self.workload = workload
        switch workload {
        case .page(let widgets, let ids):
            var options = PageGenerator.Options(widgets: widgets, seed: 7)
            switch ids {
            case .realistic: options.duplicateRate = 0.01
            case .allSame: options.idMode = .allSame
            case .allDistinct: options.idMode = .allDistinct
            }
            documents = [PageGenerator(options).generate()]
        case .jsonExample(let name):
            documents = [try Locations.read(Locations.jsonExample(name))]
        case .corpusPages:
            documents = try Locations.corpusPages().map(Locations.read)
        case .hostile:
            documents = []
        case .pageFile(let path):
            documents = [try Locations.read(URL(fileURLWithPath: path))]
        case .hostTypePage(let widgets):
            documents = [Suites.hostTypePage(widgets: widgets)]
        }
    }

    public var bytes: [UInt8] { documents[0] }

    public var totalBytes: Int { documents.reduce(0) { $0 + $1.count } }

    public static let registry = FlowWidgets.registry
    /// Benchmarks decode on one thread, so that instruction and allocation counts (which
    /// the allocation counter keeps per thread) are deterministic; the `page.decode.parallel`
    /// benchmarks measure the decode on several.
    public static let decoding = PageDecodingOptions(threads: 1)
    public static let decoder = PageDecoder(registry: registry, options: decoding)

    /// The first document decoded on the fast path.
    public lazy var decoded: DecodedPage = try! Self.decoder.decode(bytes)

    /// A page of its own, for operations that change it in place: one that shares storage
    /// with ``decoded`` would make the first change to each section pay for copying it
    /// (copy-on-write), a cost of the benchmark, not of the operation.
    public func ownPage() -> Page { try! Self.decoder.decode(bytes).page }
}

/// Where the inputs live: the package root (found from this source file, or the working
/// directory when run from a clone) and `../shared` beside it.
enum Locations {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    static func jsonExample(_ name: String) -> URL {
        packageRoot.deletingLastPathComponent().appendingPathComponent("shared/jsonexamples/\(name).json")
    }

    static func corpusPages() -> [URL] {
        let dir = packageRoot.appendingPathComponent("Corpus/pages")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.contains(".golden.") }.sorted().map { dir.appendingPathComponent($0) }
    }

    static func read(_ url: URL) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw BenchError("cannot read \(url.path)")
        }
        return [UInt8](data)
    }
}

public struct BenchError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
