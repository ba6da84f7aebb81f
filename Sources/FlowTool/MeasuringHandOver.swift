#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CBenchSupport
import Foundation

/// `bench` and `profile` in a tool that does not link the allocation counter: they run in
/// the sibling executable that does (`flow` → `flow-measure`, `mytool` → `mytool-measure`),
/// so that only the processes that measure pay for the counting malloc.
enum MeasuringHandOver {
    static let commands: Set<String> = ["bench", "profile"]

    /// Seconds a sibling may be older than this executable before it counts as left over
    /// from an earlier build (one `swift build` links both a few seconds apart).
    static let staleness: TimeInterval = 120

    /// Replaces this process with the measuring sibling when `command` measures and the
    /// counter is not linked here; returns nil when the command should run in this process.
    static func run(command: String, arguments: [String], _ tool: ToolContext) throws -> Int32? {
        #if DEBUG
        // bench and profile refuse debug builds themselves, with the reason.
        return nil
        #else
        guard commands.contains(command), flow_allocation_counter_is_active() == 0 else { return nil }
        // Listing benchmarks measures nothing.
        if command == "bench" && arguments.contains("--list") { return nil }
        let me = selfPath
        let sibling = me + "-measure"
        let files = FileManager.default
        guard files.isExecutableFile(atPath: sibling) else {
            throw HandOverError(description: """
                \(command) counts allocations, and this executable does not link the allocation counter; \
                expected the measuring build beside it at \(sibling), found none. Build it \
                (swift build -c release --product \((sibling as NSString).lastPathComponent)), or link the \
                FlowAllocationCounter product into this tool.
                """)
        }
        if let mine = modified(me), let theirs = modified(sibling), mine.timeIntervalSince(theirs) > staleness {
            throw HandOverError(description: """
                \(sibling) is older than \(me) (built \(Int(mine.timeIntervalSince(theirs))) s before it), so it \
                would measure an earlier build; rebuild both: swift build -c release
                """)
        }
        let argv = [sibling, command] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        execv(sibling, &cArguments)
        throw HandOverError(description: "cannot run \(sibling): \(String(cString: strerror(errno)))")
        #endif
    }

    private static func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    static let selfPath: String = {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }()
}

struct HandOverError: Error, CustomStringConvertible {
    var description: String
}
