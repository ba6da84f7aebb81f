#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CFlowAtomics
import Dispatch

/// One decode on a timeline: the spans of its stages (the scan and its parts, the page, a
/// section list's stretches and their claims, index releases), each on the thread that ran
/// it, for `flow profile --trace`.
///
/// Bound around one decode with ``bind(_:_:)``. Each stage reads ``active`` once (the scan,
/// the page) and hands the recorder on explicitly to what runs elsewhere (the scan's parts,
/// a section list's stretches: work on other threads does not see the caller's
/// task-locals). While no decode anywhere is being recorded, that read is one load of a
/// process-wide count, not a task-local lookup (a few hundred instructions, which a small
/// decode, a 1k-widget mutation response say, feels).
///
/// `@unchecked Sendable`: spans are appended under a lock, from any thread.
package final class PipelineTimeline: @unchecked Sendable {
    /// One stage, or one piece of one, as it ran.
    package struct Span: Sendable, Equatable {
        package var name: String
        /// The system's id of the thread that ran it.
        package var thread: UInt
        /// Monotonic nanoseconds (``now()``).
        package var start: UInt64
        package var end: UInt64
        /// Whether the thread spends the span's own time (what no span inside it covers)
        /// waiting for other threads: a scan in parts, a section list decoded in parallel.
        package var waits: Bool
        /// Counts, in the order the stage gives them: bytes, entries, sections, widgets…
        package var args: [Arg]

        package init(name: String, thread: UInt, start: UInt64, end: UInt64, waits: Bool = false, args: [Arg] = []) {
            self.name = name
            self.thread = thread
            self.start = start
            self.end = end
            self.waits = waits
            self.args = args
        }

        package var duration: UInt64 { end >= start ? end - start : 0 }

        /// The count named `name`, if the span carries one.
        package subscript(_ name: String) -> Int? { args.first { $0.name == name }?.value }
    }

    package struct Arg: Sendable, Equatable {
        package var name: String
        package var value: Int
        package init(_ name: String, _ value: Int) {
            self.name = name
            self.value = value
        }
    }

    /// The recorder of the decode running on this task, if one is being recorded.
    @TaskLocal package static var current: PipelineTimeline?

    /// How many ``bind(_:_:)`` calls are running, in the whole process. `nonisolated(unsafe)`:
    /// the word is read and written only through the atomic functions.
    nonisolated(unsafe) private static let bindings: UnsafeMutablePointer<Int> = {
        let word = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        word.initialize(to: 0)
        return word
    }()

    /// Runs `body` with `timeline` as this task's ``current``: the decodes it runs record
    /// their stages there.
    package static func bind<Value, Failure: Error>(_ timeline: PipelineTimeline, _ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        flow_atomic_add(bindings, 1)
        defer { flow_atomic_add(bindings, -1) }
        // The count goes up before the binding, on this thread, so the decode in `body`
        // sees it (a thread sees its own writes in order); elsewhere a stale count at most
        // costs a task-local read that finds nothing.
        let outcome = $current.withValue(timeline) { Result { () throws(Failure) in try body() } }
        return try outcome.get()
    }

    /// ``current``, read only while some decode in the process is being recorded: what a
    /// stage reads once per decode.
    @inline(__always)
    package static var active: PipelineTimeline? {
        flow_atomic_load(bindings) == 0 ? nil : current
    }

    /// The thread that made the recorder: the one that calls the decode.
    package let callerThread: UInt
    /// When the recorder was made.
    package let origin: UInt64
    /// A pthread mutex (what ThreadSanitizer follows), at an address of its own.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        return mutex
    }()
    private var recorded: [Span] = []

    package init() {
        callerThread = Self.currentThread()
        origin = Self.now()
    }

    /// A timeline of spans already known (tests, a reading of made-up figures).
    package init(callerThread: UInt, origin: UInt64 = 0, spans: [Span]) {
        self.callerThread = callerThread
        self.origin = origin
        recorded = spans
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Monotonic nanoseconds.
    @inline(__always)
    package static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// The same clock, reached through a recorder (`timeline?.now() ?? 0`).
    @inline(__always)
    package func now() -> UInt64 { Self.now() }

    /// Records a span that began at `start` (``now()``) and ends now, on this thread. (The
    /// counts are worked out before the span ends: when they take time, end it first with
    /// ``record(_:from:to:waits:_:)``.)
    package func record(_ name: String, since start: UInt64, waits: Bool = false, _ args: KeyValuePairs<String, Int> = [:]) {
        record(name, from: start, to: Self.now(), waits: waits, args)
    }

    /// Records a span from `start` to `end` (``now()``), on this thread.
    package func record(_ name: String, from start: UInt64, to end: UInt64, waits: Bool = false, _ args: KeyValuePairs<String, Int>) {
        let span = Span(name: name, thread: Self.currentThread(), start: start, end: end, waits: waits,
                        args: args.map { Arg($0.key, $0.value) })
        pthread_mutex_lock(mutex)
        recorded.append(span)
        pthread_mutex_unlock(mutex)
    }

    /// The spans recorded so far, in the order they ended.
    /// Adds `name: value` to the counts of every span named `span`: a count that is known
    /// only once the decode has returned, and is taken outside its spans (walking a large
    /// page's widgets inside the decode would show as a stage of its own).
    package func annotate(_ span: String, _ name: String, _ value: Int) {
        pthread_mutex_lock(mutex)
        for i in recorded.indices where recorded[i].name == span { recorded[i].args.append(Arg(name, value)) }
        pthread_mutex_unlock(mutex)
    }

    package var spans: [Span] {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return recorded
    }

    /// The system's id of the calling thread.
    package static func currentThread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #elseif canImport(Glibc) || canImport(Musl)
        UInt(pthread_self())
        #else
        1
        #endif
    }
}
