import Foundation

/// Where and with what a run happened, as a history records it: instruction counts move with
/// the compiler and the CPU, so a step that coincides with a new toolchain or machine reads
/// differently from one that came with a commit.
extension HistoryRun {
    /// This run's date, ISO 8601 in UTC to the second.
    public static func timestamp(_ date: Date = Date()) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// The label a run gets without `--label`: the short commit of the git work tree at
    /// `directory` (where the run happens), or else the date.
    public static func defaultLabel(in directory: String = FileManager.default.currentDirectoryPath, date: String) -> String {
        guard let out = try? Subprocess.run(["/usr/bin/env", "git", "-C", directory, "rev-parse", "--short", "HEAD"]) else { return date }
        let commit = out.trimmingCharacters(in: .whitespacesAndNewlines)
        return commit.isEmpty ? date : commit
    }

    /// This machine: CPU model, cores, OS and kernel.
    public static func currentMachine() -> Machine {
        Machine(cpu: cpuModel() ?? "unknown", cores: ProcessInfo.processInfo.activeProcessorCount, os: operatingSystem())
    }

    /// The compiler, as `swift --version` names it; failing that, the language version this
    /// executable was built with.
    public static func currentToolchain() -> String {
        if let out = try? Subprocess.run(["/usr/bin/env", "swift", "--version"]),
           let line = out.split(separator: "\n").first(where: { $0.contains("Swift version") }) {
            return line.trimmingCharacters(in: .whitespaces)
        }
        #if compiler(>=6.3)
        return "Swift 6.3 or later (swift --version unavailable)"
        #elseif compiler(>=6.2)
        return "Swift 6.2 (swift --version unavailable)"
        #elseif compiler(>=6.1)
        return "Swift 6.1 (swift --version unavailable)"
        #else
        return "Swift 6.0 (swift --version unavailable)"
        #endif
    }

    static func cpuModel() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    static func operatingSystem() -> String {
        var name = ProcessInfo.processInfo.operatingSystemVersionString
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
           let line = release.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") }) {
            name = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        if let kernel = try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8) {
            name += ", Linux " + kernel.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return name
    }
}
