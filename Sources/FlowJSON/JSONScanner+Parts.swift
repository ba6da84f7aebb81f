#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

// Scanning a large document on several threads.
//
// The document is cut where an array element seems to begin (a `{` after `}` and `,`),
// and each part after the first is scanned from its cut at the same time as the first,
// knowing nothing of the containers it begins inside. A part assumes it starts at an
// element of an array; when it closes a container it never opened, it records the close
// and learns the kind of the container it is now in (from the closing bracket, or from
// whether a `:` follows the next string). Its tape indexes its own entries from zero.
//
// The first part stops where the second begins, and the joining is then a check and a
// copy: the part is taken only if the scan it continues really is at the start of a value
// at that byte, inside an array, and every container the part closed or found itself in
// has the kind the part assumed, and the depth limit holds. Its entries are copied after
// the scan's own with their container ends moved, and its closes complete the scan's open
// containers. A part that does not fit (the cut fell inside a string, say) or that failed
// is thrown away, and the scan goes on from the cut on its own thread: the index and any
// error are always exactly those of a scan on one thread.

extension JSONScanner {
    /// No part is smaller than this: below it, handing work to a thread costs more than
    /// the scan of the part.
    static let minimumPartSize = 1 << 16

    /// How far past its share of the document a cut is looked for.
    private static let cutSearchWindow = 1 << 20

    /// Up to `parts - 1` cuts, in increasing order, each at a `{` that follows `}` and `,`
    /// (whitespace between them allowed), near an equal share of the document.
    static func splitPoints(in buffer: UnsafeBufferPointer<UInt8>, parts: Int) -> [Int] {
        guard parts >= 2, let base = buffer.baseAddress else { return [] }
        let count = buffer.count
        var splits: [Int] = []
        for k in 1..<parts {
            var i = max(count / parts * k, (splits.last ?? 0) + minimumPartSize / 2)
            let limit = min(count, i + cutSearchWindow)
            while i < limit, let found = memchr(base + i, Int32(UInt8(ascii: "{")), limit - i) {
                i = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
                if followsElement(i, in: base) {
                    splits.append(i)
                    break
                }
                i += 1
            }
        }
        return splits
    }

    /// Whether the bytes before `i` are `}` then `,`, whitespace allowed around the comma.
    private static func followsElement(_ i: Int, in base: UnsafePointer<UInt8>) -> Bool {
        var j = i - 1
        func skipBackWhitespace() {
            while j >= 0 && (base[j] == 0x20 || base[j] == 0x0A || base[j] == 0x0D || base[j] == 0x09) { j -= 1 }
        }
        skipBackWhitespace()
        guard j > 0, base[j] == UInt8(ascii: ",") else { return false }
        j -= 1
        skipBackWhitespace()
        return j >= 0 && base[j] == UInt8(ascii: "}")
    }

    /// One part of the document, scanned on a worker thread.
    /// `@unchecked Sendable`: each part is touched by one worker, and read by the caller
    /// only after `concurrentPerform` has returned.
    private final class Part: @unchecked Sendable {
        let start: Int
        var scanner: JSONScanner
        var error: JSONSyntaxError?

        init(start: Int, scanner: JSONScanner) {
            self.start = start
            self.scanner = scanner
        }
    }

    /// Scans the document in parts beginning at `splits` (increasing, inside the document)
    /// and joins them into this scanner's tape; returns how many parts were joined.
    ///
    /// The parts share this scanner's tape: each writes from the entry its start would have
    /// at one entry per 8 bytes (the estimate the tape's size rests on), so a join moves
    /// entries down over pages that are mostly touched already. (The first touch of a memory
    /// page costs far more than copying its contents, so a tape of its own for each part,
    /// copied into place, would make the join cost more than the parts save.)
    /// A scanner that fills its stretch moves to a tape of its own, and is copied instead.
    /// `timeline`: records each part's scan on its thread, and the join.
    mutating func runInParts(splits: [Int], timeline: PipelineTimeline? = nil) throws(JSONSyntaxError) -> Int {
        let buffer = UnsafeBufferPointer(start: base, count: count)
        let shared = tape, sharedCapacity = tapeCapacity
        // Stretch k of the shared tape is for part k (the scan from the first byte is part 0).
        let bounds = [0] + splits.map { min(sharedCapacity, $0 / 8) } + [sharedCapacity]
        let parts = splits.indices.map { k in
            let end = k + 1 < splits.count ? splits[k + 1] : count
            let stretch = bounds[k + 1] + 16 <= bounds[k + 2]
                ? UnsafeMutableBufferPointer(start: shared + bounds[k + 1], count: bounds[k + 2] - bounds[k + 1]) : nil
            var scanner = JSONScanner(base: base, buffer: buffer, maximumDepth: maximumDepth,
                                      expectedBytes: end - splits[k], isPart: true, sharedTape: stretch)
            scanner.splits = splits
            scanner.stopAt = scanner.split(after: splits[k])
            return Part(start: splits[k], scanner: scanner)
        }
        defer { for part in parts { part.scanner.releaseAll() } }
        self.splits = splits
        stopAt = splits[0]
        tapeCapacity = bounds[1]
        tapeIsShared = true
        let first = Part(start: 0, scanner: self)
        let documentEnd = count
        DispatchQueue.concurrentPerform(iterations: parts.count + 1) { k in
            let part = k == 0 ? first : parts[k - 1]
            let partStart = timeline?.now() ?? 0
            defer {
                timeline?.record("scan part", since: partStart, ["part": k, "bytes": (k < splits.count ? splits[k] : documentEnd) - part.start,
                                                               "entries": part.scanner.tapeCount])
            }
            do throws(JSONSyntaxError) {
                if k == 0 {
                    try part.scanner.runDocument(InParts.self)
                } else {
                    try part.scanner.run(from: part.start, InParts.self)
                }
            } catch {
                part.error = error
            }
        }
        self = first.scanner
        // Whatever happens next, the shared tape ends up owned by this scanner, or freed.
        defer {
            if tapeIsShared {
                tapeCapacity = sharedCapacity
                tapeIsShared = false
            } else {
                free(shared)
            }
        }
        if let error = first.error { throw error }

        let joinStart = timeline?.now() ?? 0
        var joined = 0
        while stoppedAtSplit {
            let split = stopAt
            stoppedAtSplit = false
            let k = parts.firstIndex { $0.start == split }!
            // From here this scanner may write over part k's stretch, not the next one.
            if tapeIsShared { tapeCapacity = bounds[k + 2] }
            if parts[k].error == nil, absorb(parts[k].scanner) {
                joined += 1
            } else {
                // Scan the part here, and try the parts after it where this scan reaches them.
                stopAt = self.split(after: split)
                try run(from: split, InParts.self)
            }
        }
        if tapeIsShared {
            // The parts wrote their entries further up the tape than where they now are (one
            // that moved to a tape of its own had filled its stretch first).
            let touched = parts.indices.map { k in
                parts[k].scanner.tapeIsShared ? bounds[k + 1] + parts[k].scanner.tapeCount : bounds[k + 2]
            }
            releasePages(of: shared, from: tapeCount, to: min(sharedCapacity, touched.max() ?? 0))
        }
        timeline?.record("join", since: joinStart, ["parts": parts.count + 1, "joined": joined, "entries": tapeCount])
        return joined
    }

    /// Hands the whole pages between entries `from` and `to` of `tape` back to the system:
    /// the tape keeps its size (see `shrunkTape`), but what lies past its last entry should
    /// cost no memory, and the parts left entries there that the join moved down.
    private func releasePages(of tape: UnsafeMutablePointer<UInt64>, from: Int, to: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard from < to, page > 0 else { return }
        let start = (Int(bitPattern: tape + from) + page - 1) / page * page
        let end = Int(bitPattern: tape + to) / page * page
        guard start < end, let address = UnsafeMutableRawPointer(bitPattern: start) else { return }
        #if os(Linux)
        _ = madvise(address, end - start, MADV_DONTNEED)
        #else
        _ = madvise(address, end - start, MADV_FREE)
        #endif
    }

    /// The first cut after byte `i`, or `Int.max`.
    func split(after i: Int) -> Int {
        splits.first { $0 > i } ?? Int.max
    }

    /// Appends `part`, which was scanned from the byte where this scan stopped, when what it
    /// assumed about the containers it began inside holds (see the top of this file); false,
    /// with nothing changed, when not.
    private mutating func absorb(_ part: JSONScanner) -> Bool {
        let below = part.below
        let closes = below.closes.count
        let peak = max(below.peak, part.deepest - closes)
        guard part.stoppedAtSplit || below.reachedEnd, closes <= depth, depth + peak <= maximumDepth else { return false }
        // Each container the part closed, and the one it is in if it knows its kind, must be
        // of the kind this scan has open at that level. (That covers the part's first
        // assumption, an array: the part checks the bracket that closes it.) Once the part
        // has closed the root, the only way on is a `,`, which settles the kind of a level
        // that does not exist, and is refused here: so a part that reached the end closed
        // exactly the open containers and saw only whitespace after.
        for (k, close) in below.closes.enumerated() where stackIsObject[depth - 1 - k] != close.isObject {
            return false
        }
        if below.kind != .unknown {
            guard closes < depth, stackIsObject[depth - 1 - closes] == (below.kind == .object) else { return false }
        }
        guard below.reachedEnd == (closes == depth) else { return false }

        let delta = tapeCount
        reserveTape(tapeCount + part.tapeCount)
        // The entries move down (or across to another tape), and each container the part
        // closed gets its end moved with it (an open one ends at 0 until a later close sets
        // it). The loop has no branch, so it runs as vector code: with a branch per entry,
        // the join cost twelve instructions an entry.
        let moved = UInt64(truncatingIfNeeded: delta)
        let from = part.tape, to = tape + delta
        for j in 0..<part.tapeCount {
            let entry = from[j]
            to[j] = entry &+ (moved & Self.closedContainerMask(entry))
        }
        for close in below.closes {
            depth -= 1
            tape[Int(stack[depth])] |= UInt64(truncatingIfNeeded: Int(close.entry) + delta)
        }
        for k in 0..<part.depth {
            stack[depth] = part.stack[k] + Int32(truncatingIfNeeded: delta)
            stackIsObject[depth] = part.stackIsObject[k]
            depth += 1
        }
        tapeCount += part.tapeCount
        sawUnicodeEscape = sawUnicodeEscape || part.sawUnicodeEscape
        stopAt = part.stopAt
        stoppedAtSplit = part.stoppedAtSplit
        return true
    }

    /// All ones for the entry of a container with its end set, else zero: arithmetic only,
    /// so that a loop over the tape compiles to vector code. Containers are the kinds from
    /// `array` up (5 and 6: adding 3 carries into bit 3 exactly for them), and an end is
    /// set when the payload is not zero (adding the field mask carries past it exactly then).
    @inline(__always)
    static func closedContainerMask(_ entry: UInt64) -> UInt64 {
        let isContainer = ((entry >> TapeEntry.kindShift) &+ 3) >> 3
        let isClosed = ((entry & TapeEntry.fieldMask) &+ TapeEntry.fieldMask) >> 30
        return 0 &- (isContainer & isClosed)
    }

    /// A part after a value at its own depth 0, that is, in a container it began inside:
    /// records a close of that container, or goes on to its next element or member.
    @inline(never)
    mutating func continueBelowStart(_ i: inout Int) throws(JSONSyntaxError) -> BelowStart.Step {
        i = skipWhitespace(i)
        guard i < count else {
            below.reachedEnd = true
            return .end
        }
        let c = base[i]
        if c == UInt8(ascii: ",") {
            i = skipWhitespace(i + 1)
            guard i < count else { throw unexpected(at: i, expected: "a value") }
            let next = base[i]
            if next == UInt8(ascii: "}") || next == UInt8(ascii: "]") { throw fail(.trailingComma(closing: next), at: i - 1) }
            switch below.kind {
            case .array:
                return .value
            case .object:
                i = try scanKey(from: i)
                return .value
            case .unknown:
                // A string followed by a colon is a member's key.
                guard next == UInt8(ascii: "\"") else {
                    below.kind = .array
                    return .value
                }
                let end = try scanString(from: i)
                let colon = skipWhitespace(end)
                if colon < count && base[colon] == UInt8(ascii: ":") {
                    below.kind = .object
                    i = skipWhitespace(colon + 1)
                    if i == count { throw unexpected(at: i, expected: "a value") }
                    return .value
                }
                below.kind = .array
                i = end
                return .afterValue
            }
        }
        guard c == UInt8(ascii: "}") || c == UInt8(ascii: "]") else {
            throw unexpected(at: i, expected: "',' or a closing bracket")
        }
        let isObject = c == UInt8(ascii: "}")
        if below.kind != .unknown && (below.kind == .object) != isObject {
            throw unexpected(at: i, expected: below.kind == .object ? "',' or '}'" : "',' or ']'")
        }
        below.peak = max(below.peak, deepest - below.closes.count)
        deepest = 0
        below.closes.append(BelowStart.Close(entry: Int32(truncatingIfNeeded: tapeCount), isObject: isObject))
        below.kind = .unknown
        i += 1
        return .afterValue
    }
}

/// What a part found in the containers it began inside (see JSONScanner+Parts.swift).
struct BelowStart {
    struct Close {
        /// The part's entry count when it closed the container: where the container ends.
        var entry: Int32
        var isObject: Bool
    }

    enum Kind { case array, object, unknown }

    /// Where the scan goes after a value at the part's own depth 0.
    enum Step { case value, afterValue, end }

    /// The containers the part closed without opening them, innermost first.
    var closes: [Close] = []
    /// The kind of the container the part is in now, once known; a part begins at an
    /// element of an array.
    var kind = Kind.array
    /// The most containers the part had open beyond its start, at any moment: its own
    /// depth less the containers below its start it had closed by then.
    var peak = 0
    /// Whether the part scanned to the end of the document.
    var reachedEnd = false
}
