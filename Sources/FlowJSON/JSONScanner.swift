import CFlowSIMD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a scan may stop at a cut and continue below its start (see
/// JSONScanner+Parts.swift): the scan of a whole document on one thread is compiled without
/// those checks.
protocol ScanMode { static var inParts: Bool { get } }
enum WholeDocument: ScanMode { static var inParts: Bool { false } }
enum InParts: ScanMode { static var inParts: Bool { true } }

/// Scans bytes into a tape (see JSONTape.swift), validating strict RFC 8259 on the way.
///
/// One pass, no recursion: open containers live on an explicit stack bounded by the
/// configured depth. Strings are checked sixteen bytes at a time (CFlowSIMD); UTF-8 is
/// validated as it goes (overlong forms, UTF-8-encoded surrogates and code points past
/// U+10FFFF rejected).
/// What the scan deliberately leaves to decode time:
/// - `\uD800`-style escapes naming a lone surrogate pass the scan and fail when that string
///   is decoded, as in Foundation (a bad string costs the field that holds it, not the page);
/// - numbers are checked against the grammar only; magnitude (1E400, 1e-400, 2^64) is a
///   question for whoever converts the literal, and the literal itself is kept exactly.
struct JSONScanner {
    let base: UnsafePointer<UInt8>
    let count: Int
    private let buffer: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int

    var tape: UnsafeMutablePointer<UInt64>
    var tapeCount = 0
    var tapeCapacity: Int
    /// Whether `tape` is a stretch of a tape shared by the parts of a document scanned in
    /// parts: it cannot be reallocated or freed, so it is left for a tape of its own when
    /// it fills (see JSONScanner+Parts.swift).
    var tapeIsShared = false

    /// Tape indices of the open containers, innermost last.
    var stack: UnsafeMutablePointer<Int32>
    /// Whether each open container is an object (1) or an array (0).
    var stackIsObject: UnsafeMutablePointer<Bool>
    var depth = 0
    /// The deepest `depth` reached since the scan began or since its last close below
    /// its start (a part's; see JSONScanner+Parts.swift).
    var deepest = 0
    /// Whether any string holds a `\u` escape (only those can name a lone surrogate).
    var sawUnicodeEscape = false

    /// The scan returns early, with `stoppedAtSplit` set, when a value starts exactly at
    /// this byte (where the next part of a document scanned in parts begins); once past
    /// it, at the next of `splits`.
    var stopAt = Int.max
    var splits: [Int] = []
    var stoppedAtSplit = false
    /// Set for a part that begins inside containers it cannot see: what it finds below its
    /// start is recorded in `below` instead of ending the document.
    let isPart: Bool
    var below = BelowStart()

    /// Scans `buffer` and returns the tape (allocated with `malloc`; the caller frees it).
    static func scan(
        _ buffer: UnsafeBufferPointer<UInt8>, options: JSONScanOptions
    ) throws(JSONSyntaxError) -> (entries: UnsafeMutablePointer<UInt64>, count: Int, sawUnicodeEscape: Bool) {
        let scanned = try scan(buffer, options: options, splits: nil)
        return (scanned.entries, scanned.count, scanned.sawUnicodeEscape)
    }

    /// Scans `buffer` in parts beginning at `splits` (nil: cuts chosen for
    /// `options.threads`; of others, those that increase and fall inside the document), and
    /// says how many parts were joined rather than rescanned.
    static func scan(
        _ buffer: UnsafeBufferPointer<UInt8>, options: JSONScanOptions, splits: [Int]?
    ) throws(JSONSyntaxError) -> (entries: UnsafeMutablePointer<UInt64>, count: Int, sawUnicodeEscape: Bool, joinedParts: Int) {
        let limit = options.effectiveMaximumDocumentSize
        if buffer.count > limit {
            throw JSONSyntaxError(.documentTooLarge(size: buffer.count, limit: limit), offset: 0, line: 1, column: 1)
        }
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            throw JSONSyntaxError(.emptyDocument, offset: 0, line: 1, column: 1)
        }
        // Read once per scan: nil unless `flow profile --trace` records this decode.
        let timeline = PipelineTimeline.active
        let scanStart = timeline?.now() ?? 0
        var cuts: [Int] = []
        for split in splits ?? splitPoints(in: buffer, parts: min(options.threads, buffer.count / minimumPartSize))
        where split > (cuts.last ?? 0) && split < buffer.count {
            cuts.append(split)
        }
        var scanner = JSONScanner(base: base, buffer: buffer, maximumDepth: options.maximumDepth, expectedBytes: buffer.count)
        var joined = 0
        do {
            if cuts.isEmpty {
                try scanner.runDocument(WholeDocument.self)
            } else {
                joined = try scanner.runInParts(splits: cuts, timeline: timeline)
            }
        } catch {
            scanner.releaseAll()
            throw error
        }
        scanner.releaseStack()
        timeline?.record("scan", since: scanStart, waits: !cuts.isEmpty,
                         ["bytes": buffer.count, "entries": scanner.tapeCount, "parts": cuts.count + 1, "joined": joined])
        return (scanner.shrunkTape(), scanner.tapeCount, scanner.sawUnicodeEscape, joined)
    }

    /// `expectedBytes`: how much of the document this scanner will likely cover. `sharedTape`:
    /// the stretch of a shared tape it writes to, instead of a tape of its own.
    init(base: UnsafePointer<UInt8>, buffer: UnsafeBufferPointer<UInt8>, maximumDepth: Int, expectedBytes: Int,
         isPart: Bool = false, sharedTape: UnsafeMutableBufferPointer<UInt64>? = nil) {
        self.base = base
        self.count = buffer.count
        self.buffer = buffer
        self.maximumDepth = maximumDepth
        self.isPart = isPart
        // Real documents average 8 to 27 bytes per value (a compact page about 9); start at
        // one entry per 8 bytes so that one pass fits, and let realloc grow it when a
        // document is denser. Growing is not free: once glibc has raised its mmap threshold,
        // blocks of this size live on the heap and realloc copies them. What a document does
        // not use is never touched (so never resident); see `shrunkTape` for when it is
        // given back.
        if let sharedTape, let start = sharedTape.baseAddress {
            self.tape = start
            self.tapeCapacity = sharedTape.count
            self.tapeIsShared = true
        } else {
            self.tapeCapacity = max(16, expectedBytes / 8)
            self.tape = Self.allocate(UInt64.self, tapeCapacity)
        }
        self.stack = Self.allocate(Int32.self, maximumDepth + 1)
        self.stackIsObject = Self.allocate(Bool.self, maximumDepth + 1)
    }

    private static func allocate<T>(_: T.Type, _ n: Int) -> UnsafeMutablePointer<T> {
        guard let raw = malloc(n * MemoryLayout<T>.stride) else {
            fatalError("out of memory allocating \(n) scanner entries")
        }
        return raw.bindMemory(to: T.self, capacity: n)
    }

    mutating func releaseStack() {
        free(stack)
        free(stackIsObject)
    }

    mutating func releaseAll() {
        releaseStack()
        if !tapeIsShared { free(tape) }
    }

    /// Gives back the unused tail of a tape that is mostly empty (a document of long
    /// strings), so the index costs about what it holds.
    ///
    /// A tape at least a quarter full is kept as it is. Its tail was never written, so it
    /// holds address space, not memory. And giving it back is dear: glibc serves a block this
    /// large with mmap, and once a shrunk block is freed it takes the shrunk size as its new
    /// mmap threshold, which the next document of the same size exceeds, so every scan would
    /// get a fresh mapping and fault in each of its pages, on one thread and on several.
    private mutating func shrunkTape() -> UnsafeMutablePointer<UInt64> {
        guard tapeCount < tapeCapacity / 4, tapeCapacity - tapeCount > 64,
              let raw = realloc(tape, max(tapeCount, 1) * MemoryLayout<UInt64>.stride)
        else { return tape }
        return raw.bindMemory(to: UInt64.self, capacity: tapeCount)
    }

    @inline(never)
    private mutating func growTape() {
        reserveTape(max(16, tapeCapacity * 2))
    }

    /// Makes room for `newCapacity` entries in all.
    mutating func reserveTape(_ newCapacity: Int) {
        guard newCapacity > tapeCapacity else { return }
        if tapeIsShared {
            // Leave the shared stretch (the next one may be in use) for a tape of our own.
            let own = Self.allocate(UInt64.self, newCapacity)
            own.update(from: tape, count: tapeCount)
            tape = own
            tapeCapacity = newCapacity
            tapeIsShared = false
            return
        }
        guard let raw = realloc(tape, newCapacity * MemoryLayout<UInt64>.stride) else {
            fatalError("out of memory growing the JSON index to \(newCapacity) entries")
        }
        tape = raw.bindMemory(to: UInt64.self, capacity: newCapacity)
        tapeCapacity = newCapacity
    }

    @inline(__always)
    private mutating func emit(_ kind: JSONKind, flag: Bool = false, offset: Int, payload: Int = 0) {
        if tapeCount == tapeCapacity { growTape() }
        tape[tapeCount] = TapeEntry.make(kind, flag: flag, offset: offset, payload: payload)
        tapeCount += 1
    }

    // MARK: - Errors (cold)

    @inline(never)
    func fail(_ reason: JSONSyntaxError.Reason, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(reason, offset: offset, in: buffer)
    }

    @inline(never)
    func unexpected(at i: Int, expected: String) -> JSONSyntaxError {
        i >= count
            ? fail(.unexpectedEndOfInput(expected: expected), at: count)
            : fail(.unexpectedByte(found: base[i], expected: expected), at: i)
    }

    // MARK: - Structure

    @inline(__always)
    func skipWhitespace(_ start: Int) -> Int {
        var i = start
        while i < count {
            let c = base[i]
            if c > 0x20 { return i }
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return i }
            i += 1
            // A line break is followed by indentation: take its spaces eight at a time.
            // (Inline on purpose: any call in here makes the scan loop spill registers,
            // and compact documents pay for it although they never come this way.)
            if c == 0x0A {
                while i + 8 <= count && UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) == 0x2020_2020_2020_2020 {
                    i += 8
                }
            }
        }
        return i
    }

    /// Scans the whole document.
    mutating func runDocument<Mode: ScanMode>(_ mode: Mode.Type) throws(JSONSyntaxError) {
        var i = 0
        // A UTF-8 byte order mark is skipped, as Foundation does.
        if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { i = 3 }
        i = skipWhitespace(i)
        if i == count {
            throw i == 0 ? fail(.emptyDocument, at: 0) : unexpected(at: i, expected: "a JSON value")
        }
        try run(from: i, mode)
    }

    /// Scans from `start`, the first byte of a value, inside the containers on the stack.
    mutating func run<Mode: ScanMode>(from start: Int, _: Mode.Type) throws(JSONSyntaxError) {
        var i = start
        value: while true {
            // Here base[i] is the first byte of a value.
            if Mode.inParts && i >= stopAt {
                if i == stopAt {
                    stoppedAtSplit = true
                    return
                }
                stopAt = split(after: i)
            }
            let c = base[i]
            switch c {
            case UInt8(ascii: "\""):
                i = try scanString(from: i)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = c == UInt8(ascii: "{")
                if depth == maximumDepth { throw fail(.depthLimitExceeded(limit: maximumDepth), at: i) }
                stack[depth] = Int32(truncatingIfNeeded: tapeCount)
                stackIsObject[depth] = isObject
                depth += 1
                if Mode.inParts && depth > deepest { deepest = depth }
                emit(isObject ? .object : .array, offset: i)
                i = skipWhitespace(i + 1)
                let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if i < count && base[i] == close {
                    closeContainer()
                    i += 1
                } else if isObject {
                    i = try scanKey(from: i)
                    continue value
                } else {
                    if i == count { throw unexpected(at: i, expected: "a value or ']'") }
                    continue value
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                i = try scanNumber(from: i)
            case UInt8(ascii: "t"):
                try expectLiteral("true", word: 0x6575_7274, at: i, length: 4)
                emit(.true, offset: i)
                i += 4
            case UInt8(ascii: "f"):
                try expectLiteral("false", word: 0x6573_6C61, at: i, length: 5)
                emit(.false, offset: i)
                i += 5
            case UInt8(ascii: "n"):
                try expectLiteral("null", word: 0x6C6C_756E, at: i, length: 4)
                emit(.null, offset: i)
                i += 4
            default:
                throw unexpected(at: i, expected: "a JSON value")
            }

            // After a complete value: close containers, or move to the next element.
            while true {
                if depth == 0 {
                    if Mode.inParts && isPart {
                        switch try continueBelowStart(&i) {
                        case .value: continue value
                        case .afterValue: continue
                        case .end: return
                        }
                    }
                    i = skipWhitespace(i)
                    if i != count { throw fail(.trailingContent(found: base[i]), at: i) }
                    return
                }
                i = skipWhitespace(i)
                let isObject = stackIsObject[depth - 1]
                let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                guard i < count else {
                    throw unexpected(at: i, expected: isObject ? "',' or '}'" : "',' or ']'")
                }
                let d = base[i]
                if d == UInt8(ascii: ",") {
                    i = skipWhitespace(i + 1)
                    if i < count && base[i] == close { throw fail(.trailingComma(closing: close), at: i - 1) }
                    if isObject {
                        i = try scanKey(from: i)
                    } else if i == count {
                        throw unexpected(at: i, expected: "a value")
                    }
                    continue value
                } else if d == close {
                    closeContainer()
                    i += 1
                } else {
                    throw unexpected(at: i, expected: isObject ? "',' or '}' after an object member" : "',' or ']' after an array element")
                }
            }
        }
    }

    @inline(__always)
    private mutating func closeContainer() {
        depth -= 1
        let open = Int(stack[depth])
        tape[open] |= UInt64(truncatingIfNeeded: tapeCount)
    }

    /// Scans `"key" :` and returns the index of the member's value (whitespace skipped).
    ///
    /// Most keys are short and plain: a key of at most 15 bytes without escapes or
    /// non-ASCII text, with the colon right after its closing quote, is read from one
    /// 16-byte block here; any other key (or any doubt) goes the full way, from the start.
    @inline(__always)
    mutating func scanKey(from start: Int) throws(JSONSyntaxError) -> Int {
        if start + 18 <= count && base[start] == UInt8(ascii: "\"") {
            let special = flow_string_specials16(base + start + 1)
            let length = special.trailingZeroBitCount  // 32 when no byte needs a look
            let close = start + 1 + length
            if length < 16 && base[close] == UInt8(ascii: "\"") && base[close + 1] == UInt8(ascii: ":") {
                var i = close + 2
                if i < count && base[i] <= 0x20 { i = skipWhitespace(i) }
                if i < count {
                    emit(.string, offset: start + 1, payload: length)
                    return i
                }
            }
        }
        return try scanKeyInFull(from: start)
    }

    @inline(never)
    private mutating func scanKeyInFull(from start: Int) throws(JSONSyntaxError) -> Int {
        guard start < count, base[start] == UInt8(ascii: "\"") else {
            throw unexpected(at: start, expected: "a string key")
        }
        var i = try scanString(from: start)
        i = skipWhitespace(i)
        guard i < count, base[i] == UInt8(ascii: ":") else {
            throw unexpected(at: i, expected: "':' after an object key")
        }
        i = skipWhitespace(i + 1)
        if i == count { throw unexpected(at: i, expected: "a value") }
        return i
    }

    // MARK: - Literals

    /// Checks that the literal `name` (`length` bytes) starts at `i`: its last four bytes,
    /// little-endian, are `word`; for `false` the first byte was checked by the dispatch.
    @inline(__always)
    private func expectLiteral(_ name: StaticString, word: UInt32, at i: Int, length: Int) throws(JSONSyntaxError) {
        guard i + length <= count,
              UnsafeRawPointer(base + i + length - 4).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: word)
        else { throw literalError(name, at: i) }
    }

    @inline(never)
    private func literalError(_ name: StaticString, at i: Int) -> JSONSyntaxError {
        // Point at the first byte that departs from the literal.
        let expected = name.withUTF8Buffer { Array($0) }
        var j = 0
        while j < expected.count, i + j < count, base[i + j] == expected[j] { j += 1 }
        return unexpected(at: i + j, expected: "'\(name)'")
    }

    // MARK: - Numbers

    @inline(__always)
    private func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }

    /// -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    private mutating func scanNumber(from start: Int) throws(JSONSyntaxError) -> Int {
        var i = start
        if base[i] == UInt8(ascii: "-") {
            i += 1
            guard i < count, isDigit(base[i]) else { throw fail(.missingDigits(after: "'-'"), at: i) }
        }
        if base[i] == UInt8(ascii: "0") {
            i += 1
            if i < count && isDigit(base[i]) { throw fail(.leadingZero, at: start) }
        } else {
            i += 1
            while i < count && isDigit(base[i]) { i += 1 }
        }
        var isInteger = true
        if i < count && base[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard i < count, isDigit(base[i]) else { throw fail(.missingDigits(after: "the decimal point"), at: i) }
            i += 1
            while i < count && isDigit(base[i]) { i += 1 }
        }
        if i < count && base[i] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            i += 1
            if i < count && (base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < count, isDigit(base[i]) else { throw fail(.missingDigits(after: "the exponent marker"), at: i) }
            i += 1
            while i < count && isDigit(base[i]) { i += 1 }
        }
        emit(.number, flag: isInteger, offset: start, payload: i - start)
        return i
    }

    // MARK: - Strings

    /// The index of the first byte at or after `start` that needs a closer look inside a
    /// string (see CFlowSIMD.h), sixteen bytes at a time, then eight. Within the last
    /// eight bytes of the document it may stop early, at a byte that needs no look: the
    /// caller steps over those one at a time.
    @inline(__always)
    private func firstSpecialByte(from start: Int) -> Int {
        var i = start
        while i + 16 <= count {
            let special = flow_string_specials16(base + i)
            if special != 0 { return i + special.trailingZeroBitCount }
            i += 16
        }
        if i + 8 <= count {
            let special = flow_string_specials_swar(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self).littleEndian)
            if special != 0 { return i + special.trailingZeroBitCount >> 3 }
            i += 8
        }
        return i
    }

    /// Scans the string whose opening quote is at `start`; returns the index past its closing quote.
    @inline(__always)
    mutating func scanString(from start: Int) throws(JSONSyntaxError) -> Int {
        var i = start + 1
        let contents = i
        var escaped = false
        while true {
            i = firstSpecialByte(from: i)
            guard i < count else { throw fail(.unterminatedString, at: start) }
            let c = base[i]
            if c == UInt8(ascii: "\"") {
                break
            } else if c == UInt8(ascii: "\\") {
                escaped = true
                i = try scanEscape(at: i)
            } else if c >= 0x80 {
                // Non-ASCII text comes in runs (a word of CJK, an emoji sequence): stay here.
                repeat { i = try scanUTF8Sequence(at: i) } while i < count && base[i] >= 0x80
            } else if c < 0x20 {
                throw fail(.controlCharacterInString(c), at: i)
            } else {
                i += 1
            }
        }
        emit(.string, flag: escaped, offset: contents, payload: i - contents)
        return i + 1
    }

    @inline(__always)
    private func isHexDigit(_ c: UInt8) -> Bool {
        isDigit(c) || (c | 0x20) &- UInt8(ascii: "a") < 6
    }

    private mutating func scanEscape(at i: Int) throws(JSONSyntaxError) -> Int {
        guard i + 1 < count else { throw fail(.unterminatedString, at: i) }
        switch base[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return i + 2
        case UInt8(ascii: "u"):
            guard i + 6 <= count,
                  isHexDigit(base[i + 2]), isHexDigit(base[i + 3]),
                  isHexDigit(base[i + 4]), isHexDigit(base[i + 5])
            else { throw fail(.invalidUnicodeEscape, at: i) }
            sawUnicodeEscape = true
            return i + 6
        default:
            throw fail(.invalidEscape(base[i + 1]), at: i)
        }
    }

    /// Validates one multi-byte UTF-8 sequence starting at `i` (RFC 3629, table 3-7 of the
    /// Unicode standard) and returns the index past it.
    private func scanUTF8Sequence(at i: Int) throws(JSONSyntaxError) -> Int {
        let lead = base[i]
        @inline(__always) func continuation(_ j: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            j < count && base[j] >= low && base[j] <= high
        }
        switch lead {
        case 0xC2...0xDF:
            if continuation(i + 1) { return i + 2 }
        case 0xE0:
            if continuation(i + 1, 0xA0), continuation(i + 2) { return i + 3 }
        case 0xE1...0xEC, 0xEE...0xEF:
            if continuation(i + 1), continuation(i + 2) { return i + 3 }
        case 0xED:  // U+D000...U+D7FF only: UTF-8-encoded surrogates are not characters
            if continuation(i + 1, 0x80, 0x9F), continuation(i + 2) { return i + 3 }
        case 0xF0:
            if continuation(i + 1, 0x90), continuation(i + 2), continuation(i + 3) { return i + 4 }
        case 0xF1...0xF3:
            if continuation(i + 1), continuation(i + 2), continuation(i + 3) { return i + 4 }
        case 0xF4:  // nothing past U+10FFFF
            if continuation(i + 1, 0x80, 0x8F), continuation(i + 2), continuation(i + 3) { return i + 4 }
        default:
            break
        }
        throw fail(.invalidUTF8, at: i)
    }
}
