// The README (and the getting-started article) show code that cannot drift: each Swift block
// marked `<!-- snippet: NAME -->` equals the region NAME of ReadmeSnippets.swift (compiled and run by this target), and each
// block marked `<!-- file: PATH -->` equals that file of the repository byte for byte
// (Benchmarks/HostExample's Package.swift and sources, which .ci/run builds).
import Foundation
import Testing

/// The repository's root, found from this file's path (Tests/FlowDocsTests/…).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

func read(_ relativePath: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent(relativePath), encoding: .utf8)
}

/// A fenced block of the README and the marker comment right above its fence.
struct MarkedBlock {
    enum Marker: Hashable { case snippet(String), file(String) }
    var marker: Marker
    var text: String
    var line: Int
}

/// Every fenced block whose opening fence follows a `<!-- snippet: … -->` or `<!-- file: … -->`
/// line directly. A marker not followed by a fence is an error: it would check nothing.
func markedBlocks(in markdown: String) throws -> [MarkedBlock] {
    let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var blocks: [MarkedBlock] = []
    var i = 0
    while i < lines.count {
        let line = lines[i].trimmingCharacters(in: .whitespaces)
        guard line.hasPrefix("<!-- "), line.hasSuffix(" -->") else { i += 1; continue }
        let body = line.dropFirst(5).dropLast(4)
        let marker: MarkedBlock.Marker
        if body.hasPrefix("snippet: ") {
            marker = .snippet(String(body.dropFirst("snippet: ".count)))
        } else if body.hasPrefix("file: ") {
            marker = .file(String(body.dropFirst("file: ".count)))
        } else {
            i += 1; continue
        }
        guard i + 1 < lines.count, lines[i + 1].hasPrefix("```") else {
            throw MarkerError(message: "line \(i + 1): marker \(line) is not followed by a fenced block")
        }
        var end = i + 2
        while end < lines.count, lines[end] != "```" { end += 1 }
        guard end < lines.count else { throw MarkerError(message: "line \(i + 2): fence never closed") }
        let text = lines[(i + 2)..<end].joined(separator: "\n") + "\n"
        blocks.append(MarkedBlock(marker: marker, text: text, line: i + 1))
        i = end + 1
    }
    return blocks
}

struct MarkerError: Error, CustomStringConvertible { var message: String; var description: String { message } }

/// The regions `// snippet: NAME` … `// end` of a Swift source, each dedented by its least
/// indented non-blank line.
func snippetRegions(in source: String) -> [String: String] {
    var regions: [String: String] = [:]
    var current: (name: String, lines: [String])?
    for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if let open = current {
            if trimmed == "// end" {
                regions[open.name] = dedent(open.lines)
                current = nil
            } else {
                current?.lines.append(line)
            }
        } else if trimmed.hasPrefix("// snippet: ") {
            current = (String(trimmed.dropFirst("// snippet: ".count)), [])
        }
    }
    return regions
}

func dedent(_ lines: [String]) -> String {
    let indent = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        .map { $0.prefix { $0 == " " }.count }.min() ?? 0
    return lines.map { $0.count >= indent ? String($0.dropFirst(indent)) : "" }.joined(separator: "\n") + "\n"
}

@Suite struct ReadmeSnippetTests {
    /// What the README must show; a README that lost a marker fails here.
    static let expectedSnippets: Set<String> = ["content-type", "decode", "lookup", "mutations", "next-page",
                                                "refresh-diff", "build-widget", "encode", "runtime", "oracles"]
    static let expectedFiles: Set<String> = [
        "Benchmarks/HostExample/Package.swift",
        "Benchmarks/HostExample/Sources/HostWidgets/PriceTag.swift",
        "Benchmarks/HostExample/Sources/HostWidgets/HostWidgets.swift",
        "Benchmarks/HostExample/Sources/host-flow/main.swift",
        "Benchmarks/HostExample/Sources/fuzz-price-tag/FuzzPriceTag.swift",
    ]

    /// Checks every snippet block of `document` against its region, and returns the names shown.
    func snippetsShown(in document: String) throws -> Set<String> {
        let blocks = try markedBlocks(in: read(document))
        let regions = snippetRegions(in: try read("Tests/FlowDocsTests/ReadmeSnippets.swift"))
        var shown: Set<String> = []
        for block in blocks {
            guard case .snippet(let name) = block.marker else { continue }
            shown.insert(name)
            let region = try #require(regions[name], "\(document) line \(block.line): no region \"\(name)\" in ReadmeSnippets.swift")
            #expect(block.text == region, "\(document) line \(block.line): snippet \"\(name)\" differs from ReadmeSnippets.swift")
        }
        return shown
    }

    @Test func everySnippetOfTheReadmeIsCompiledCode() throws {
        let shown = try snippetsShown(in: "README.md")
        #expect(shown == Self.expectedSnippets, "README snippets shown: \(shown.sorted())")
    }

    @Test func theGettingStartedArticleShowsTheSameCompiledCode() throws {
        let shown = try snippetsShown(in: "Sources/FlowCore/FlowCore.docc/GettingStarted.md")
        #expect(shown == Self.expectedSnippets.subtracting(["oracles"]), "article snippets shown: \(shown.sorted())")
    }

    @Test func everyHostFileTheReadmeShowsIsTheFileItself() throws {
        let blocks = try markedBlocks(in: read("README.md"))
        var shown: Set<String> = []
        for block in blocks {
            guard case .file(let path) = block.marker else { continue }
            shown.insert(path)
            #expect(block.text == (try read(path)), "README line \(block.line): the block differs from \(path)")
        }
        #expect(shown == Self.expectedFiles, "README files shown: \(shown.sorted())")
    }

    @Test func markersWithoutAFenceAreRejected() {
        #expect(throws: MarkerError.self) { try markedBlocks(in: "<!-- snippet: x -->\ntext\n") }
        let blocks = try? markedBlocks(in: "<!-- snippet: x -->\n```swift\nlet a = 1\n```\n")
        #expect(blocks?.map(\.text) == ["let a = 1\n"])
        #expect(snippetRegions(in: "    // snippet: y\n        a\n      b\n    // end\n") == ["y": "  a\nb\n"])
    }
}

@Suite struct ReadmeFiguresTests {
    /// The README quotes a few ratios from Benchmarks/RESULTS.md; regenerating the results
    /// must not leave it quoting figures the file no longer holds.
    @Test func theRatiosTheReadmeQuotesAreInResults() throws {
        let readme = try read("README.md")
        let results = try read("Benchmarks/RESULTS.md")
        let paragraph = try #require(readme.components(separatedBy: "\n\n").first { $0.hasPrefix("A few ratios from that run") },
                                     "README: the paragraph quoting RESULTS.md is missing")
        let ratios = paragraph.split(whereSeparator: { $0 == " " || $0 == "\n" })
            .filter { $0.hasSuffix("x") && $0.dropLast().allSatisfy { $0.isNumber || $0 == "." || $0 == "," } && $0.count > 1 }
        #expect(ratios.count >= 3)
        for ratio in ratios {
            #expect(results.contains("| \(ratio) |"), "README quotes \(ratio), which Benchmarks/RESULTS.md does not hold")
        }
    }
}
