import Foundation

/// How `flow bench` starts a worker: from a folder of the same shape in every run on every
/// machine, with an environment of its own, so that a worker's counts do not depend on where
/// the clone lies or what the shell exported.
///
/// A process lays out its stack and the first blocks of its heap from its arguments, its
/// environment and the path it was started by, and those addresses reach the counts:
/// - glibc's `memcpy` chooses between `rep movsb` (one instruction to valgrind) and a vector
///   loop by where source and destination lie: the order of the environment's variables alone
///   moved `hostile.prepend-sections` by 0.6%;
/// - glibc hands out a block larger than asked when the rest of a free one is too small to
///   keep, and Swift's arrays take the usable size as their capacity, so where the heap's free
///   blocks lie changes when an array grows, and with it the allocations of a call.
///
/// So every worker is started as `/usr/bin/env -i` with ``environment(counted:from:)``, through a link
/// named `worker` in `/tmp/flow-bench-` and the parent's process id in ten digits, with that
/// folder as its working directory.
public final class WorkerLaunch: Sendable {
    /// The launch folder; nil where /tmp cannot hold it (the worker then starts from here).
    let directory: URL?
    /// The path a worker is started by.
    let executable: String

    /// A launch of `target` (this executable by default) from the folder numbered `id` (this
    /// process's id by default; `flow bench --against` starts the base's workers from a
    /// folder numbered 9,000,000,000 more, a number no process id reaches, so that base and head start
    /// from paths of one length).
    init(target: String = Subprocess.selfPath, id: Int = Int(getpid())) {
        let digits = String(id)
        let directory = URL(fileURLWithPath: "/tmp/flow-bench-" + String(repeating: "0", count: max(0, 10 - digits.count)) + digits)
        let link = directory.appendingPathComponent("worker").path
        do {
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            self.directory = directory
            executable = link
        } catch {
            self.directory = nil
            executable = target
        }
    }

    func remove() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// `command` with ``environment(counted:from:)`` as its whole environment: a worker's (under
    /// callgrind's prefix when `counted`), or any command run under callgrind.
    static func command(_ command: [String], counted: Bool) -> [String] {
        ["/usr/bin/env", "-i"] + environment(counted: counted) + command
    }

    /// The whole environment of a worker, in this order, whatever this process's is: hashing
    /// made deterministic; for a counted worker, tunables that keep glibc's copies and fills
    /// on their vector loops at every size and alignment (never `rep movsb`, `rep stosb` or
    /// non-temporal stores: the largest value each takes, SIZE_MAX >> 4; a timed worker keeps
    /// glibc's own choice, which is what an app gets); and the variables the dynamic linker
    /// and valgrind need to start, when set.
    static func environment(counted: Bool, from: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let never = String(UInt64.max >> 4)
        var words = ["SWIFT_DETERMINISTIC_HASHING=1"]
        if counted {
            words.append("GLIBC_TUNABLES=" + ["x86_rep_movsb_threshold", "x86_rep_stosb_threshold", "x86_non_temporal_threshold"]
                .map { "glibc.cpu.\($0)=\(never)" }.joined(separator: ":"))
        }
        for name in ["LD_LIBRARY_PATH", "VALGRIND_LIB"] {
            if let value = from[name] { words.append("\(name)=\(value)") }
        }
        return words
    }
}
