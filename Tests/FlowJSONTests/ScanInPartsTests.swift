import Foundation
import Testing
@testable import FlowJSON

/// A document scanned in parts gives exactly the tape, or the error, of a scan on one
/// thread, wherever the cuts fall: a cut inside a string, inside a key, after a colon, in
/// whitespace, or past the end of the root must all end in the one-thread answer.
@Suite struct ScanInPartsTests {
    enum Outcome: Equatable {
        case tape([UInt64], sawUnicodeEscape: Bool)
        case error(JSONSyntaxError)
    }

    static func scan(_ bytes: [UInt8], splits: [Int]?, options: JSONScanOptions = JSONScanOptions()) -> (outcome: Outcome, joined: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONSyntaxError) {
                let r = try JSONScanner.scan(buffer, options: options, splits: splits)
                defer { free(r.entries) }
                return (.tape(Array(UnsafeBufferPointer(start: r.entries, count: r.count)), sawUnicodeEscape: r.sawUnicodeEscape), r.joinedParts)
            } catch {
                return (.error(error), 0)
            }
        }
    }

    /// Every single cut of `bytes`, and every pair of cuts when it is short.
    static func expectEveryCutAgrees(_ bytes: [UInt8], name: String, options: JSONScanOptions = JSONScanOptions()) -> Int {
        let serial = scan(bytes, splits: [], options: options).outcome
        var joined = 0
        for a in 1..<max(1, bytes.count) {
            let r = scan(bytes, splits: [a], options: options)
            #expect(r.outcome == serial, "\(name): cut at \(a)")
            joined += r.joined
            if bytes.count <= 48 {
                for b in (a + 1)..<max(a + 1, bytes.count) {
                    #expect(scan(bytes, splits: [a, b], options: options).outcome == serial, "\(name): cuts at \(a), \(b)")
                }
            }
        }
        return joined
    }

    @Test func everyCutOfCraftedDocumentsAgrees() {
        let documents = [
            #"[{"a":1},{"b":[2,3]},{"c":{"d":"},{"}}]"#,
            #"{"page":{"sections":[{"id":"s","widgets":[{"t":"x"},{"t":"y"}]},{"id":"u"}],"f":[]}}"#,
            #"[[[{"k":[{},{}]}],{"m":"\u00e9\"\\"}],{"n":null},{"o":true},{"p":-1.5e3}]"#,
            #"{"a":[{"x":1} , {"y":2}]  ,  "b" : {"c":[{"z":3},{"w":4}]}}   "#,
            #"[{"a":1},{"b":2}] ,3"#,          // content after the root
            #"[{"a":1},{"b":2}]]"#,            // one close too many
            #"[{"a":1},{"b":2}"#,              // unterminated
            #"{"a":[{"b":1},{"c":2}}"#,        // wrong closer
            #"[{"a":1},{"b":2,}]"#,            // trailing comma
            #"[{"a":"x},{\"y"},{"b":"\ud800"}]"#,
            "[{\"a\":1},\n  {\"b\":[\n    {\"c\":2},\n    {\"d\":3}\n  ]}\n]\n",
            #"[[{"a":1}],"x":{"b":2}]"#,      // a member in an array, seen only by a part
            #"{"a":[{"b":1}],[{"c":2}]}"#,    // an element in an object
            #"{"a":{"b":1},{"c":2}}"#,         // a cut where a member's value begins
            #"[[{"a":1},{"b":2}]}"#,           // the root closed with the wrong bracket
        ]
        for (k, text) in documents.enumerated() {
            let joined = Self.expectEveryCutAgrees(Array(text.utf8), name: "document \(k)")
            // A cut at an element of an array in a valid document is joined, not rescanned.
            if [0, 1, 2, 3, 10].contains(k) { #expect(joined > 0, "document \(k)") }
        }
    }

    @Test func depthLimitHoldsAcrossCuts() {
        let text = #"[{"a":[[[1]]]},{"b":[[[[2]]]]},{"c":3}]"#
        for depth in 3...7 {
            _ = Self.expectEveryCutAgrees(Array(text.utf8), name: "depth \(depth)", options: JSONScanOptions(maximumDepth: depth))
        }
    }

    @Test(.enabled(if: ConformanceTests.folder != nil, "../shared/jsontestsuite is not beside this clone: conformance files skipped"))
    func everyCutOfTheConformanceFilesAgrees() {
        var files = 0
        for prefix in ["y_", "n_", "i_"] {
            for url in ConformanceTests.files(prefix) {
                let bytes = [UInt8](FileManager.default.contents(atPath: url.path)!)
                guard bytes.count <= 4096 else { continue }
                _ = Self.expectEveryCutAgrees(bytes, name: url.lastPathComponent)
                files += 1
            }
        }
        #expect(files >= 300)
    }

    /// A page-shaped document of about 1 MB: the cuts the scanner chooses for several
    /// threads are joined, and the tape is the one-thread tape.
    static let largePage: [UInt8] = {
        var text = #"{"page":{"id":"home","sections":["#
        for s in 0..<400 {
            if s > 0 { text += "," }
            text += #"{"id":"sec_\#(s)","widgets":["#
            for w in 0..<12 {
                if w > 0 { text += "," }
                text += #"{"type":"card","id":"w_\#(s)_\#(w)","data":{"title":"Item \#(w) \u00e9","tags":[{"text":"new"},{"text":"sale"}],"price":\#(w).5}}"#
            }
            text += "]}"
        }
        text += #"],"footer":{"widgets":[]}}}"#
        return Array(text.utf8)
    }()

    @Test func chosenCutsAreJoined() {
        let serial = Self.scan(Self.largePage, splits: []).outcome
        for threads in [2, 3, 8] {
            let r = Self.scan(Self.largePage, splits: nil, options: JSONScanOptions(threads: threads))
            #expect(r.outcome == serial, "\(threads) threads")
            #expect(r.joined == min(threads, Self.largePage.count / JSONScanner.minimumPartSize) - 1, "\(threads) threads")
        }
        // Through the public door too.
        let document = try? JSONDocument(bytes: Self.largePage, options: JSONScanOptions(threads: 4))
        #expect(document?.entryCount == { if case .tape(let t, _) = serial { t.count } else { -1 } }())
    }

    /// The join moves a container's end only when the part closed it: every kind, with the
    /// flag and offset bits set or not, and payloads 0, 1 and the largest.
    @Test func theJoinMovesTheEndsOfClosedContainersOnly() {
        for kind in [JSONKind.null, .false, .true, .number, .string, .array, .object] {
            for flag in [false, true] {
                for offset in [0, 1, Int(TapeEntry.fieldMask)] {
                    for payload in [0, 1, Int(TapeEntry.fieldMask)] {
                        let entry = TapeEntry.make(kind, flag: flag, offset: offset, payload: payload)
                        let moves = (kind == .array || kind == .object) && payload != 0
                        #expect(JSONScanner.closedContainerMask(entry) == (moves ? ~0 : 0),
                                "\(kind) flag \(flag) offset \(offset) payload \(payload)")
                    }
                }
            }
        }
    }

    /// Where the parts stay in their stretches (a sparse document: one entry per 20 bytes),
    /// the join moves their entries down and hands the pages they leave behind back to the
    /// system; the entries below must be untouched by that.
    @Test func pagesLeftBehindByTheJoinAreReleasedWithoutTouchingTheIndex() {
        let element = #"{"title":"a title that is long enough to keep the index sparse","n":1}"#
        let bytes = Array(("[" + Array(repeating: element, count: 12_000).joined(separator: ",") + "]").utf8)
        let serial = Self.scan(bytes, splits: []).outcome
        for threads in [2, 3, 4] {
            let r = Self.scan(bytes, splits: nil, options: JSONScanOptions(threads: threads))
            #expect(r.outcome == serial, "\(threads) threads")
            #expect(r.joined == threads - 1, "\(threads) threads")
        }
    }

    /// Parts write to stretches of one shared tape sized at one entry per 8 bytes; a part
    /// denser than that (here 2 bytes per entry) leaves its stretch for a tape of its own,
    /// and is still joined.
    @Test func denseStretchesMoveOutAndAreStillJoined() {
        let ones = String(repeating: "1,", count: 40_000) + "1"
        let text = #"[{"a":[\#(ones)]},{"b":[\#(ones)]},{"c":[\#(ones)]},{"d":2}]"#
        let bytes = Array(text.utf8)
        let cuts = bytes.indices.filter { i in i > 2 && bytes[i] == UInt8(ascii: "{") && bytes[i - 1] == UInt8(ascii: ",") }
        #expect(cuts.count == 3)
        let serial = Self.scan(bytes, splits: []).outcome
        for splits in [cuts, [cuts[0]], [cuts[1]], [cuts[0], cuts[2]]] {
            let r = Self.scan(bytes, splits: splits)
            #expect(r.outcome == serial, "cuts \(splits)")
            #expect(r.joined == splits.count, "cuts \(splits)")
        }
    }

    @Test func cutsAreLookedForAfterAnElement() {
        let page = Self.largePage
        let splits = page.withUnsafeBufferPointer { JSONScanner.splitPoints(in: $0, parts: 4) }
        #expect(splits.count == 3)
        #expect(splits == splits.sorted())
        for split in splits {
            #expect(page[split] == UInt8(ascii: "{"))
            #expect(page[split - 1] == UInt8(ascii: ","))
            #expect(page[split - 2] == UInt8(ascii: "}"))
        }
        // A document without an array of objects has nowhere to be cut.
        let flat = Array(("[" + String(repeating: "1,", count: 100_000) + "1]").utf8)
        #expect(flat.withUnsafeBufferPointer { JSONScanner.splitPoints(in: $0, parts: 4) }.isEmpty)
    }

    /// Cuts that fall inside strings which look like element boundaries are rescanned, and
    /// an error past a cut is the one-thread error.
    @Test func misleadingCutsAndLateErrorsGiveTheOneThreadAnswer() {
        let decoy = #"{"a":"},{"}"#
        var text = "[" + Array(repeating: decoy, count: 30_000).joined(separator: ",") + "]"
        var bytes = Array(text.utf8)
        let cuts = bytes.indices.filter { i in i > 2 && bytes[i] == UInt8(ascii: "{") && bytes[i - 1] == UInt8(ascii: ",") }
        let inside = cuts.filter { bytes[$0 - 2] == UInt8(ascii: "}") && bytes[$0 + 1] == UInt8(ascii: "\"") && bytes[$0 - 3] == UInt8(ascii: "\"") }
        let serial = Self.scan(bytes, splits: []).outcome
        #expect(Self.scan(bytes, splits: Array(inside.prefix(3))).outcome == serial)
        #expect(Self.scan(bytes, splits: nil, options: JSONScanOptions(threads: 4)).outcome == serial)
        text.removeLast()
        bytes = Array(text.utf8)
        let truncated = Self.scan(bytes, splits: []).outcome
        guard case .error = truncated else { Issue.record("expected an error"); return }
        #expect(Self.scan(bytes, splits: nil, options: JSONScanOptions(threads: 4)).outcome == truncated)
        #expect(Self.scan(bytes, splits: [cuts[cuts.count / 3], cuts[2 * cuts.count / 3]]).outcome == truncated)
    }
}
