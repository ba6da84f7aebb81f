import Foundation
import Testing
import FlowCore
import FlowJSON
import FlowWidgets
import FlowWorkloads

/// A section list decoded on several threads gives exactly the page, ids, diagnostics
/// (messages and order included) and id ledger that one thread gives.
@Suite struct ParallelDecodeTests {
    static let serial = PageDecodingOptions(threads: 1)
    /// Parallel on any list of two sections or more, however small.
    static func parallel(threads: Int = 4, placeholders: Bool = false, bareRoot: Bool = false) -> PageDecodingOptions {
        PageDecodingOptions(placeholders: placeholders, bareRoot: bareRoot, threads: threads, parallelMinimumEntries: 0)
    }

    static func decodeBoth(_ input: [UInt8], placeholders: Bool = false, bareRoot: Bool = false, threads: Int = 4)
        -> (one: Result<DecodedPage, any Error>, many: Result<DecodedPage, any Error>) {
        var one = serial
        one.placeholders = placeholders
        one.bareRoot = bareRoot
        return (Result { try PageDecoder(registry: starterRegistry, options: one).decode(input) },
                Result { try PageDecoder(registry: starterRegistry, options: parallel(threads: threads, placeholders: placeholders, bareRoot: bareRoot)).decode(input) })
    }

    static func expectSame(_ input: [UInt8], placeholders: Bool = false, bareRoot: Bool = false, threads: Int = 4, _ name: String) {
        switch decodeBoth(input, placeholders: placeholders, bareRoot: bareRoot, threads: threads) {
        case (.success(let one), .success(let many)):
            #expect(one.diagnostics == many.diagnostics, "\(name): diagnostics differ")
            #expect(one.page == many.page, "\(name): pages differ")
            #expect(ids(one.page) == ids(many.page), "\(name): ids differ")
            #expect(one.page.sections.map(\.id) == many.page.sections.map(\.id), "\(name): section ids differ")
        case (.failure(let a), .failure(let b)):
            #expect("\(a)" == "\(b)", "\(name): failures differ")
        default:
            Issue.record("\(name): one decode failed and the other did not")
        }
    }

    @Test func corpusPagesDecodeTheSameOnSeveralThreads() {
        let files = corpusFiles("pages")
        #expect(files.count >= 12)
        for url in files {
            for placeholders in [false, true] {
                Self.expectSame(bytes(url), placeholders: placeholders, bareRoot: url.lastPathComponent == "bare_root.json", url.lastPathComponent)
            }
        }
    }

    @Test(arguments: [2, 3, 8])
    func generatedPagesWithProblemsDecodeTheSame(threads: Int) {
        for seed in 1...10 {
            var options = PageGenerator.Options(widgets: 400, seed: UInt64(seed), badRate: 0.2, duplicateRate: 0.15, nesting: 2)
            options.sections = [2, 3, 7, 40, 400][seed % 5]
            let input = PageGenerator(options).generate()
            let page = try! PageDecoder(registry: starterRegistry, options: Self.serial).decode(input)
            // The check means something: these pages rename ids and record problems.
            #expect(page.diagnostics.contains { $0.kind == .duplicateID })
            #expect(page.diagnostics.count > 10)
            for placeholders in [false, true] {
                Self.expectSame(input, placeholders: placeholders, threads: threads, "seed \(seed)")
            }
        }
    }

    /// Every widget sends the same id and every section the same section id: every claim
    /// but the first renames, so every stretch's claims depend on all earlier stretches.
    @Test func everyIDTheSameRenamesInDocumentOrder() throws {
        var options = PageGenerator.Options(widgets: 600, seed: 5, sections: 30)
        options.idMode = .allSame
        let input = PageGenerator(options).generate()
        Self.expectSame(input, "all same")

        let text = #"{"page":{"sections":["# + (0..<12).map { s in
            #"{"id":"s","header":{"type":"title_block","id":"w","data":{"title":"h"}},"widgets":["#
                + (0..<3).map { _ in #"{"type":"title_block","id":"w","data":{"title":"t"}}"# }.joined(separator: ",") + "]}"
        }.joined(separator: ",") + "]}}"
        let many = try PageDecoder(registry: starterRegistry, options: Self.parallel()).decode(bytes(text))
        #expect(many.page.sections.map(\.id) == ["s"] + (2...12).map { "s#\($0)" })
        #expect(ids(many.page) == ["w"] + (2...48).map { "w#\($0)" })
        #expect(many.diagnostics.count == 11 + 47)
        // The duplicate of section 1 comes before its header's, in document order.
        #expect(many.diagnostics[0].path == "page.sections.0.widgets.0")
        #expect(many.diagnostics.first { $0.path.hasPrefix("page.sections.1") }?.path == "page.sections.1")
        #expect(many.diagnostics.filter { $0.path == "page.sections.1" || $0.path.hasPrefix("page.sections.1.") }.map(\.path)
            == ["page.sections.1", "page.sections.1.header", "page.sections.1.widgets.0", "page.sections.1.widgets.1", "page.sections.1.widgets.2"])
        Self.expectSame(bytes(text), "hand-written")
    }

    /// Dropped sections and widgets keep their positions: ids and paths count them.
    @Test func droppedElementsKeepTheirPositions() {
        let text = #"{"page":{"header":{"widgets":[{"type":"title_block","id":"x","data":{"title":"a"}}]},"sections":[7,"#
            + #"{"widgets":[{"type":"nope"},{"type":"title_block","data":{"title":"a"}},{"type":"title_block","id":"x","data":{}}]},"#
            + #"null,{"id":"s","widgets":[{"type":"title_block","id":"x","data":{"title":"b"}}]},{"id":"s"}],"#
            + #""footer":{"widgets":[{"type":"title_block","id":"x","data":{"title":"c"}}]}}}"#
        for placeholders in [false, true] {
            Self.expectSame(bytes(text), placeholders: placeholders, threads: 2, "dropped (placeholders \(placeholders))")
        }
    }

    /// The ledger a parallel decode leaves claims what a serial one does: a next page
    /// appended to either gets the same ids.
    @Test func aNextPageAppendsTheSameAfterAParallelDecode() throws {
        let first = PageGenerator(PageGenerator.Options(widgets: 300, seed: 9, duplicateRate: 0.3, sections: 10))
        var nextOptions = first.options
        nextOptions.seed = 10
        nextOptions.firstSection = 10
        let next = PageGenerator(nextOptions).generateNextPage()
        var one = try PageDecoder(registry: starterRegistry, options: Self.serial).decode(first.generate()).page
        var many = try PageDecoder(registry: starterRegistry, options: Self.parallel()).decode(first.generate()).page
        let appendedOne = try PageDecoder(registry: starterRegistry, options: Self.serial).append(nextPage: next, to: &one)
        let appendedMany = try PageDecoder(registry: starterRegistry, options: Self.parallel()).append(nextPage: next, to: &many)
        #expect(appendedOne == appendedMany)
        #expect(one == many)
        #expect(ids(one) == ids(many))
        #expect(one.widgetCount > 300)
    }
}

/// The parallel decode runs: every test above would pass if a large list quietly decoded on
/// one thread, so these watch the decode itself (``ParallelSectionsRun``).
@Suite struct ParallelDecodeRunsTests {
    /// The runs reported while `body` decodes.
    static func runs(_ body: () throws -> Void) rethrows -> [ParallelSectionsRun] {
        let log = RunLog()
        try ParallelSectionsRun.$observer.withValue({ log.append($0) }, operation: body)
        return log.runs
    }

    final class RunLog: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [ParallelSectionsRun] = []
        func append(_ run: ParallelSectionsRun) { lock.lock(); list.append(run); lock.unlock() }
        var runs: [ParallelSectionsRun] { lock.lock(); defer { lock.unlock() }; return list }
    }

    /// 3,000 widgets in 60 sections: past the default threshold (~450 widgets), so with the
    /// default options but four threads the list is cut into 16 stretches (four a thread),
    /// every one decodes, and more than one thread takes part when the machine has more
    /// than one processor. The first stretch to start waits until a stretch has started on
    /// another thread: while other tests keep every worker busy, the caller's thread would
    /// otherwise take every stretch itself, and the test would say more about the machine
    /// than about the decode.
    @Test func aLargeSectionListIsCutAndDecodedOnSeveralThreads() throws {
        let input = PageGenerator(PageGenerator.Options(widgets: 3000, seed: 3, sections: 60)).generate()
        let decoder = PageDecoder(registry: starterRegistry, options: PageDecodingOptions(threads: 4))
        let serial = try PageDecoder(registry: starterRegistry, options: PageDecodingOptions(threads: 1)).decode(input)
        let severalProcessors = ProcessInfo.processInfo.activeProcessorCount >= 2
        let gate = SecondThreadGate()
        var decoded: DecodedPage?
        var hold: (@Sendable (UInt) -> Void)?
        if severalProcessors { hold = { @Sendable thread in gate.started(on: thread) } }
        let runs = try ParallelSectionsRun.$stretchStarting.withValue(hold) {
            try Self.runs { decoded = try decoder.decode(input) }
        }
        try #require(runs.count == 1, "one section list, decoded in parallel once: \(runs)")
        #expect(runs[0].sections == 60)
        #expect(runs[0].stretches == 16)
        #expect(runs[0].decoded == 16, "every stretch decodes")
        #expect((1...16).contains(runs[0].threads))
        #expect(decoded?.page == serial.page)
        if severalProcessors {
            #expect(gate.firstWaitEnded, "no second thread started a stretch within \(SecondThreadGate.patience) s")
            #expect(runs[0].threads > 1, "the stretches ran on one thread")
        }
    }

    /// Holds the first thread to start a stretch until a stretch starts on another thread
    /// (at most ``patience`` seconds, so a machine that never runs a second one fails the
    /// test rather than hangs it).
    final class SecondThreadGate: @unchecked Sendable {
        static let patience = 60.0
        private let condition = NSCondition()
        private var first: UInt?
        private var second = false
        private(set) var firstWaitEnded = false

        func started(on thread: UInt) {
            condition.lock()
            defer { condition.unlock() }
            guard let first else {
                first = thread
                let deadline = Date(timeIntervalSinceNow: Self.patience)
                while !second, condition.wait(until: deadline) {}
                firstWaitEnded = second
                return
            }
            if thread != first, !second {
                second = true
                condition.broadcast()
            }
        }
    }

    /// The hook sees the decodes that stay on the caller's thread as no run at all: one
    /// thread, or a list under the threshold.
    @Test func aSerialDecodeReportsNoRun() throws {
        let large = PageGenerator(PageGenerator.Options(widgets: 3000, seed: 3, sections: 60)).generate()
        let small = PageGenerator(PageGenerator.Options(widgets: 40, seed: 3, sections: 6)).generate()
        #expect(try Self.runs { _ = try PageDecoder(registry: starterRegistry, options: PageDecodingOptions(threads: 1)).decode(large) }.isEmpty)
        #expect(try Self.runs { _ = try PageDecoder(registry: starterRegistry, options: PageDecodingOptions(threads: 4)).decode(small) }.isEmpty)
    }
}
