import Foundation
import Testing
import FlowTool
import FlowWidgets

/// The `bench --pages` command line: usage errors (64) and page errors (1) come before
/// anything is measured, so they hold in the debug build the tests run.
@Suite struct BenchPagesCommandTests {
    static func run(_ arguments: [String]) -> Int32 {
        FlowTool.run(arguments: arguments, registry: FlowWidgets.registry)
    }

    @Test func pagesWithoutAPathIsAUsageError() {
        #expect(Self.run(["bench", "--pages"]) == 64)
    }

    @Test func pathsWithoutPagesIsAUsageError() {
        #expect(Self.run(["bench", "some.json"]) == 64)
        #expect(Self.run(["bench", "--bare-root"]) == 64)
    }

    @Test func anEmptyFolderOrNoReadablePageExitsOne() throws {
        let dir = try PageSetTests.folder(["notes.txt": "x"])
        #expect(Self.run(["bench", "--pages", dir]) == 1)
        #expect(Self.run(["bench", "--pages", "/no/such/page.json"]) == 1)
    }

    @Test func listingNamesThePagesBenchmarks() throws {
        let dir = try PageSetTests.folder(["home.json": PageSetTests.page])
        #expect(Self.run(["bench", "--pages", dir, "--list"]) == 0)
    }
}
