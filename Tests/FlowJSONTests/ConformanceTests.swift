import Foundation
import Testing
@testable import FlowJSON

/// JSONTestSuite (github.com/nst/JSONTestSuite), read from ../shared when it is beside the
/// clone. `y_` must be accepted, `n_` rejected, `i_` answered without a crash; our answers
/// for the `i_` files are pinned below so a change of behaviour is a visible decision.
@Suite struct ConformanceTests {
    static let folder: URL? = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let candidate = url.deletingLastPathComponent().appendingPathComponent("shared/jsontestsuite/test_parsing")
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }()

    static func files(_ prefix: String) -> [URL] {
        guard let folder else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }

    static func validates(_ url: URL) -> Bool {
        let bytes = [UInt8](FileManager.default.contents(atPath: url.path)!)
        return bytes.withUnsafeBytes { buffer in
            (Result { () throws(JSONSyntaxError) in try JSONDocument.validate(buffer) }).isSuccess
        }
    }

    @Test(.enabled(if: folder != nil, "../shared/jsontestsuite is not beside this clone: conformance files skipped"))
    func acceptsEveryY() {
        let files = Self.files("y_")
        #expect(files.count >= 90)
        for url in files {
            #expect(Self.validates(url), "rejected \(url.lastPathComponent)")
        }
    }

    @Test(.enabled(if: folder != nil, "../shared/jsontestsuite is not beside this clone: conformance files skipped"))
    func rejectsEveryN() {
        let files = Self.files("n_")
        #expect(files.count >= 180)
        for url in files {
            #expect(!Self.validates(url), "accepted \(url.lastPathComponent)")
        }
    }

    /// Our documented answers: numbers of any magnitude are valid JSON (the grammar allows
    /// them; range is a question for the field that reads them); lone surrogate escapes, bad
    /// UTF-8 and UTF-16 input are invalid; a UTF-8 BOM is skipped; 500 levels fit the default
    /// depth of 512.
    @Test(.enabled(if: folder != nil, "../shared/jsontestsuite is not beside this clone: conformance files skipped"))
    func answersEveryIAsDocumented() {
        let files = Self.files("i_")
        #expect(files.count >= 30)
        for url in files {
            let name = url.lastPathComponent
            let accepted = name.hasPrefix("i_number_") || name == "i_structure_500_nested_arrays.json"
                || name == "i_structure_UTF-8_BOM_empty_object.json"
            #expect(Self.validates(url) == accepted, "\(name): expected \(accepted ? "valid" : "invalid")")
        }
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}
