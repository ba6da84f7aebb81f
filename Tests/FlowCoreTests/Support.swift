import Foundation
import FlowCore
import FlowJSON
import FlowWidgets

/// The package root, found from this file.
let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url
}()

func corpusFiles(_ folder: String, suffix: String = ".json") -> [URL] {
    let dir = packageRoot.appendingPathComponent("Corpus").appendingPathComponent(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
    return names.filter { $0.hasSuffix(suffix) && !$0.hasSuffix(".golden.json") }.sorted().map { dir.appendingPathComponent($0) }
}

func bytes(_ url: URL) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: url.path)!) }

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

let starterRegistry = FlowWidgets.registry

func decode(_ text: String, placeholders: Bool = false, bareRoot: Bool = false) throws -> DecodedPage {
    try PageDecoder(registry: starterRegistry, options: PageDecodingOptions(placeholders: placeholders, bareRoot: bareRoot)).decode(bytes(text))
}

func keys(_ diagnostics: [Diagnostic]) -> [String] { diagnostics.map(\.key.description) }

/// Widget ids in claiming order.
func ids(_ page: Page) -> [String] { page.allWidgets.map(\.id) }
