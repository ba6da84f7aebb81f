import FlowBenchmarks
import Foundation

extension BenchCommand {
    /// `--history FILE [--label L]`: appends the run, saying which existing lines could not be
    /// read (they stay in the file as they are).
    static func appendHistory(_ report: Report, to path: String, label: String?, _ tool: ToolContext) throws {
        let date = HistoryRun.timestamp()
        let run = HistoryRun(report, label: label ?? HistoryRun.defaultLabel(date: date), date: date,
                             machine: HistoryRun.currentMachine(), toolchain: HistoryRun.currentToolchain())
        let problems = try HistoryFile.append(run, to: path)
        for p in problems { Terminal.err("\(tool.name) bench: history \(path) \(p); skipped when read, kept in the file") }
        Terminal.err("\(tool.name) bench: run \(run.label) appended to \(path)")
    }
}
