#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import FlowCore

/// A subcommand: its interface and what it does. `run` returns the exit status.
struct Subcommand: Sendable {
    var spec: CommandSpec
    var run: @Sendable (ParsedArguments, ToolContext) throws -> Int32
}

/// The subcommands, in the order `flow --help` lists them.
let commands: [Subcommand] = [
    Subcommand(spec: ValidateCommand.spec, run: ValidateCommand.run),
    Subcommand(spec: InspectCommand.spec, run: InspectCommand.run),
    Subcommand(spec: NormalizeCommand.spec, run: NormalizeCommand.run),
    Subcommand(spec: MergeCommand.spec, run: MergeCommand.run),
    Subcommand(spec: MutateCommand.spec, run: MutateCommand.run),
    Subcommand(spec: DiffCommand.spec, run: DiffCommand.run),
    Subcommand(spec: GenerateCommand.spec, run: GenerateCommand.run),
    Subcommand(spec: BenchCommand.spec, run: BenchCommand.run),
    Subcommand(spec: ProfileCommand.spec, run: ProfileCommand.run),
]

/// Commands under another (`flow bench trend`), named by both words.
let nestedCommands: [Subcommand] = [
    Subcommand(spec: TrendCommand.spec, run: TrendCommand.run),
    Subcommand(spec: BisectCommand.spec, run: BisectCommand.run),
]

func generalHelp(tool: String) -> String {
    var lines = [
        "\(tool): the flow-core tool for server-driven-UI pages.",
        "",
        "Usage: \(tool) COMMAND [ARGUMENTS] [OPTIONS]",
        "",
        "Commands:",
    ]
    for c in commands { lines.append("  " + c.spec.name.padding(to: 12) + c.spec.summary) }
    lines.append("")
    lines.append("Run '\(tool) COMMAND --help' for a command's arguments and options.")
    return lines.joined(separator: "\n")
}

func runCommandLine(_ arguments: [String], _ tool: ToolContext) -> Int32 {
    var arguments = arguments
    guard var name = arguments.first else {
        Terminal.err(generalHelp(tool: tool.name))
        return ExitCode.usage
    }
    arguments.removeFirst()
    if name == "--help" || name == "-h" || name == "help" {
        let topic = arguments.prefix(2).joined(separator: " ")
        if let c = nestedCommands.first(where: { $0.spec.name == topic }) ?? commands.first(where: { $0.spec.name == arguments.first }) {
            Terminal.out(c.spec.help(tool: tool.name))
        } else {
            Terminal.out(generalHelp(tool: tool.name))
        }
        return ExitCode.success
    }
    guard var command = commands.first(where: { $0.spec.name == name }) else {
        Terminal.err("\(tool.name): unknown command '\(name)'. Commands: \(commands.map(\.spec.name).joined(separator: ", ")).")
        return ExitCode.usage
    }
    if let word = arguments.first, let nested = nestedCommands.first(where: { $0.spec.name == "\(name) \(word)" }) {
        command = nested
        name = nested.spec.name
        arguments.removeFirst()
    }
    do {
        let parsed = try command.spec.parse(arguments)
        if parsed.wantsHelp {
            Terminal.out(command.spec.help(tool: tool.name))
            return ExitCode.success
        }
        if let handedOver = try MeasuringHandOver.run(command: name, arguments: arguments, tool) { return handedOver }
        return try command.run(parsed, tool)
    } catch let error as UsageError {
        Terminal.err("\(tool.name) \(name): \(error.message)")
        Terminal.err("Usage: \(command.spec.usageLine(tool: tool.name))   (see '\(tool.name) \(name) --help')")
        return ExitCode.usage
    } catch let error as InputError {
        Terminal.err("\(tool.name) \(name): \(error)")
        return ExitCode.noInput
    } catch {
        Terminal.err("\(tool.name) \(name): \(error)")
        return ExitCode.failure
    }
}

/// The `flow` tool as a library: every command, decoding through the registry it is given.
///
/// A host's own tool is a few lines:
///
///     import FlowTool
///
///     @main enum HostFlow {
///         static func main() {
///             var registry = FlowWidgets.registry
///             registry.register(PriceTag.self, as: "price_tag")
///             FlowTool.main(registry: registry)
///         }
///     }
///
/// `bench` and `profile` count allocations, which needs the allocation counter linked into
/// the executable (the `FlowAllocationCounter` product). A tool without it hands those two
/// commands over to a sibling executable named `<tool>-measure` (as `flow` does to
/// `flow-measure`), so its other commands run on the plain allocator.
public enum FlowTool {
    /// Runs the command line of this process and exits with its status.
    /// The tool calls itself by its executable's name in help and messages.
    public static func main(registry: WidgetRegistry) -> Never {
        exit(run(arguments: Array(CommandLine.arguments.dropFirst()), registry: registry, name: executableName))
    }

    /// Runs one command line (without the executable's name) and returns its exit status;
    /// `name` is what help and messages call the tool.
    public static func run(arguments: [String], registry: WidgetRegistry, name: String = "flow") -> Int32 {
        runCommandLine(arguments, ToolContext(registry: registry, name: name))
    }

    /// This executable's file name, without the `-measure` of a measuring sibling (which runs
    /// on behalf of the tool that handed over to it).
    static var executableName: String { toolName(executable: CommandLine.arguments.first ?? "") }

    static func toolName(executable path: String) -> String {
        let base = String(path.split(separator: "/").last ?? "")
        let name = base.hasSuffix("-measure") ? String(base.dropLast("-measure".count)) : base
        return name.isEmpty ? "flow" : name
    }
}
