#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A subcommand: its interface and what it does. `run` returns the exit status.
struct Subcommand: Sendable {
    var spec: CommandSpec
    var run: @Sendable (ParsedArguments) throws -> Int32
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
]

func generalHelp() -> String {
    var lines = [
        "flow: the flow-core tool for server-driven-UI pages.",
        "",
        "Usage: flow COMMAND [ARGUMENTS] [OPTIONS]",
        "",
        "Commands:",
    ]
    for c in commands { lines.append("  " + c.spec.name.padding(to: 12) + c.spec.summary) }
    lines.append("")
    lines.append("Run 'flow COMMAND --help' for a command's arguments and options.")
    return lines.joined(separator: "\n")
}

func run() -> Int32 {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let name = arguments.first else {
        Terminal.err(generalHelp())
        return ExitCode.usage
    }
    arguments.removeFirst()
    if name == "--help" || name == "-h" || name == "help" {
        if let topic = arguments.first, let c = commands.first(where: { $0.spec.name == topic }) {
            Terminal.out(c.spec.help)
        } else {
            Terminal.out(generalHelp())
        }
        return ExitCode.success
    }
    guard let command = commands.first(where: { $0.spec.name == name }) else {
        Terminal.err("flow: unknown command '\(name)'. Commands: \(commands.map(\.spec.name).joined(separator: ", ")).")
        return ExitCode.usage
    }
    do {
        let parsed = try command.spec.parse(arguments)
        if parsed.wantsHelp {
            Terminal.out(command.spec.help)
            return ExitCode.success
        }
        return try command.run(parsed)
    } catch let error as UsageError {
        Terminal.err("flow \(name): \(error.message)")
        Terminal.err("Usage: \(command.spec.usageLine)   (see 'flow \(name) --help')")
        return ExitCode.usage
    } catch let error as InputError {
        Terminal.err("flow \(name): \(error)")
        return ExitCode.noInput
    } catch {
        Terminal.err("flow \(name): \(error)")
        return ExitCode.failure
    }
}

@main
enum Flow {
    static func main() {
        exit(run())
    }
}
