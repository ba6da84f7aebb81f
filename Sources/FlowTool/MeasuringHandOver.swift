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
///
/// Two checks keep the sibling honest, both about what it was built from rather than when:
/// its link inputs (the object files SwiftPM lists for it) must all be older than it, so it
/// does not measure code that has changed since it was linked; and it must register the same
/// widget types as this tool, so it measures the pages this tool decodes.
enum MeasuringHandOver {
    static let commands: Set<String> = ["bench", "profile"]

    /// The environment variable carrying this tool's widget types to its sibling.
    static let typesVariable = "FLOW_HANDOVER_WIDGET_TYPES"

    /// Replaces this process with the measuring sibling when `command` measures and the
    /// counter is not linked here; returns nil when the command should run in this process
    /// (after checking, in the sibling, that it decodes the types its caller does).
    static func run(command: String, arguments: [String], _ tool: ToolContext) throws -> Int32? {
        #if DEBUG
        // bench and profile refuse debug builds themselves, with the reason.
        return nil
        #else
        guard commands.contains(command) else { return nil }
        guard flow_allocation_counter_is_active() == 0 else {
            try checkTypes(tool)
            return nil
        }
        // Listing benchmarks measures nothing.
        if command == "bench" && arguments.contains("--list") { return nil }
        let me = selfPath
        let sibling = me + "-measure"
        let product = (sibling as NSString).lastPathComponent
        guard FileManager.default.isExecutableFile(atPath: sibling) else {
            throw ToolError(description: """
                \(command) counts allocations, and this executable does not link the allocation counter; \
                expected the measuring build beside it at \(sibling), found none. Build it \
                (swift build -c release --product \(product)), or link the \
                FlowAllocationCounter product into this tool.
                """)
        }
        if let newer = newerLinkInput(of: sibling) {
            throw ToolError(description: """
                \(sibling) was linked before \(newer) was rebuilt, so it would measure code that has \
                changed since; relink it: swift build -c release --product \(product)
                """)
        }
        setenv(typesVariable, tool.registry.typeNames.joined(separator: ","), 1)
        let argv = [sibling, command] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        execv(sibling, &cArguments)
        throw ToolError(description: "cannot run \(sibling): \(String(cString: strerror(errno)))")
        #endif
    }

    /// In the sibling: the caller's widget types (from the environment) must be this tool's.
    static func checkTypes(_ tool: ToolContext) throws {
        guard let theirs = ProcessInfo.processInfo.environment[typesVariable] else { return }
        unsetenv(typesVariable)
        let caller = Set(theirs.split(separator: ",").map(String.init)), mine = Set(tool.registry.typeNames)
        guard caller != mine else { return }
        let missing = caller.subtracting(mine).sorted(), extra = mine.subtracting(caller).sorted()
        var differences: [String] = []
        if !missing.isEmpty { differences.append("it lacks \(missing.joined(separator: ", "))") }
        if !extra.isEmpty { differences.append("it adds \(extra.joined(separator: ", "))") }
        throw ToolError(description: """
            \(selfPath) registers other widget types than the tool that handed over to it \
            (\(differences.joined(separator: "; "))), so it would measure other pages than that tool decodes; \
            give both executables the same registry
            """)
    }

    /// The first of `executable`'s link inputs modified after it, when SwiftPM's list of them
    /// (`<name>.product/Objects.LinkFileList` beside it) is there; nil when none is newer or
    /// the list is not there (an executable copied out of its build folder).
    static func newerLinkInput(of executable: String) -> String? {
        let list = executable + ".product/Objects.LinkFileList"
        guard let built = modified(executable), let text = try? String(contentsOfFile: list, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            // Paths with spaces are quoted in the list.
            let path = line.trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
            if let input = modified(path), input > built { return path }
        }
        return nil
    }

    private static func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    static let selfPath: String = {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }()
}
