@_spi(Testing) import FlowJSON
import Foundation

extension FuzzTarget {
    /// The json target: see ``Oracles/json(_:)``; the input is the document.
    public static let json = FuzzTarget(
        name: "json",
        summary: "any bytes into FlowJSON: round trips, and accept/reject as JSONSerialization but for listed divergences",
        seedFolders: [.corpus("pages"), .corpus("mutations"), .corpus("diff"), .jsonTestSuite],
        generatedSeeds: {
            let texts = ["[1,]", "{\"a\":1,}", "[1e400]", "-1E400", "123456789012345678901234567890", "\u{FEFF}[1]",
                         "[\"\\uD800\"]", "[\"\\uD83D\\uDE00\"]", "{\"a\":1,\"a\":2}", "\"\\u0000\"",
                         String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
                         String(repeating: "[", count: 513) + String(repeating: "]", count: 513)]
            var seeds = texts.enumerated().map { ("json_gen\($0.offset)", Array($0.element.utf8)) }
            seeds.append(("json_utf16le", [0x5B, 0x00, 0x31, 0x00, 0x5D, 0x00]))
            seeds.append(("json_utf16be_bom", [0xFE, 0xFF, 0x00, 0x5B, 0x00, 0x31, 0x00, 0x5D]))
            return seeds
        },
        check: { Oracles.json($0) })
}

extension Oracles {
    /// The json oracle: any bytes into FlowJSON.
    ///
    /// - never a crash (by running at all);
    /// - the three ways in agree: ``JSONDocument/validate(_:options:)`` accepts exactly when
    ///   `JSONValue(parsing:)` does; the bare scan accepts whatever `validate` accepts, and
    ///   what only the scan accepts fails `validate` for a lone surrogate escape and nothing
    ///   else; an error's offset lies inside the input and its line and column are 1-based;
    /// - when accepted, writing and rescanning gives an equal value, three ways: the compact
    ///   writer from the ``JSONValue`` (and writing that rescan again gives the same bytes),
    ///   the tape writer (strings and numbers copied as received), and the pretty writer;
    /// - the span writer (what a raw slice keeps once the index is gone) writes each value
    ///   (the first 256 entries') exactly as the tape writer does;
    /// - the scan in parts (``JSONScanOptions/threads``), cut at element starts and at the
    ///   middle byte, gives exactly the one-thread index or error;
    /// - accept/reject agrees with Foundation's `JSONSerialization` (`.fragmentsAllowed`,
    ///   swift-corelibs-foundation on Linux), except where the disagreement falls exactly into
    ///   one of the ``JSONDivergence`` cases, each checked by a precise predicate.
    ///
    /// "Accepted" means `validate` succeeds with the default limits (depth 512, as Foundation).
    public static func json(_ bytes: [UInt8]) -> [String] {
        var failures: [String] = []
        let validateError = JSONOracleSupport.validationError(bytes)
        let scanned = Result { () throws(JSONSyntaxError) in try JSONDocument(bytes: bytes) }
        let parsed = Result { () throws(JSONSyntaxError) in try JSONValue(parsing: bytes) }
        let accepted = validateError == nil

        switch (validateError, scanned, parsed) {
        case (nil, .success(let document), .success(let value)):
            failures += JSONOracleSupport.roundTrips(value, document: document)
        case (nil, .failure(let e), _):
            failures.append("validate accepts but the scan rejects: \(e)")
        case (nil, _, .failure(let e)):
            failures.append("validate accepts but JSONValue(parsing:) rejects: \(e)")
        case (let v?, .success, _):
            if v.reason != .loneSurrogate {
                failures.append("the scan accepts but validate rejects for another reason than a lone surrogate: \(v)")
            }
            if case .success = parsed { failures.append("validate rejects (\(v)) but JSONValue(parsing:) accepts") }
        case (let v?, .failure(let s), _):
            if v != s { failures.append("validate and the scan reject differently: \(v) versus \(s)") }
            if case .success = parsed { failures.append("validate rejects (\(v)) but JSONValue(parsing:) accepts") }
        }
        failures += JSONOracleSupport.partsAgree(bytes, scanned: scanned)
        if let v = validateError {
            if v.offset < 0 || v.offset > bytes.count || v.line < 1 || v.column < 1 {
                failures.append("error position out of range for \(bytes.count) bytes: \(v)")
            }
        }

        let foundation = JSONOracleSupport.foundationAccepts(bytes)
        if accepted != foundation,
           JSONDivergence.explaining(bytes, flowAccepts: accepted, flowError: validateError, foundationAccepts: foundation) == nil {
            failures.append(accepted
                ? "FlowJSON accepts but JSONSerialization rejects, and no listed divergence explains it"
                : "FlowJSON rejects (\(validateError!)) but JSONSerialization accepts, and no listed divergence explains it")
        }
        return failures
    }
}

/// The documented, deliberate accept/reject differences between FlowJSON (strict RFC 8259,
/// README "JSON choices") and Foundation's `JSONSerialization` on Linux (read with
/// `.fragmentsAllowed`, so scalar roots are not one of them).
///
/// Each case is justified, and ``explaining(_:flowAccepts:flowError:foundationAccepts:)``
/// attributes a disagreement to a case only when a precise predicate says the case is the
/// whole story; any other disagreement is a failure of the json oracle. Not divergences,
/// because the two agree: a leading UTF-8 byte order mark (both skip it), lone surrogate
/// escapes (both reject: FlowJSON's `validate` decodes every string), depth (both accept 512
/// nested containers and reject 513), leading zeros, comments, NaN, invalid UTF-8.
public enum JSONDivergence: String, CaseIterable, Sendable {
    /// Foundation reads UTF-16 and UTF-32 input (detected from a byte order mark `FE FF` /
    /// `FF FE`, or from the NUL pattern of the first four bytes, or of a 2-3 byte input) and
    /// transcodes it; FlowJSON takes UTF-8 only (RFC 8259 §8.1).
    ///
    /// Predicate: FlowJSON rejects, Foundation accepts, and the input holds a NUL byte in its
    /// first four bytes or starts with `FE FF` or `FF FE`. Such bytes can never appear raw in
    /// UTF-8 JSON text (NUL is neither whitespace nor allowed unescaped in a string; FE and FF
    /// are never UTF-8), so FlowJSON must reject, and Foundation's own UTF-8 reading rejects
    /// them too: an acceptance can only come from its non-UTF-8 reading.
    case nonUTF8Encoding = "non_utf8_encoding"

    /// Foundation allows one trailing comma before `]` or `}` (`[1,]`, `{"a":1,}`); RFC 8259
    /// does not, and neither does FlowJSON.
    ///
    /// Predicate: FlowJSON rejects with ``JSONSyntaxError/Reason/trailingComma(closing:)``,
    /// Foundation accepts, and FlowJSON accepts the same bytes with every comma that stands
    /// (outside strings, whitespace aside) right before a `]` or `}` removed: the commas are
    /// the only objection.
    case trailingComma = "trailing_comma"

    /// Foundation rejects a number whose magnitude overflows Double (`1e400`, a 400-digit
    /// integer: "not representable in Swift"); for FlowJSON any literal that fits the grammar
    /// is valid JSON and is kept exactly (range is a question for the field that reads it).
    ///
    /// Predicate: FlowJSON accepts, Foundation rejects, at least one number literal converts
    /// to an infinite Double, and Foundation accepts the same bytes with each such literal
    /// replaced by `0`.
    case numberBeyondDouble = "number_beyond_double"

    /// Why the difference is deliberate (for reports and the README).
    public var justification: String {
        switch self {
        case .nonUTF8Encoding:
            "RFC 8259 §8.1: JSON exchanged between systems is UTF-8; Foundation also detects and transcodes UTF-16/UTF-32"
        case .trailingComma:
            "RFC 8259 has no trailing commas; Foundation allows one before a closing bracket"
        case .numberBeyondDouble:
            "RFC 8259 puts no bound on numbers and FlowJSON keeps literals exactly; Foundation refuses what overflows Double"
        }
    }

    /// The divergence that explains FlowJSON and Foundation disagreeing on `bytes`, or nil
    /// when none does (then the disagreement is a finding).
    public static func explaining(_ bytes: [UInt8], flowAccepts: Bool, flowError: JSONSyntaxError?,
                                  foundationAccepts: Bool) -> JSONDivergence? {
        guard flowAccepts != foundationAccepts else { return nil }
        if !flowAccepts {
            if bytes.prefix(4).contains(0) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
                return .nonUTF8Encoding
            }
            if case .trailingComma? = flowError?.reason,
               JSONOracleSupport.validationError(removingTrailingCommas(bytes)) == nil {
                return .trailingComma
            }
            return nil
        }
        if let zeroed = replacingInfiniteNumbers(bytes), JSONOracleSupport.foundationAccepts(zeroed) {
            return .numberBeyondDouble
        }
        return nil
    }

    /// `bytes` without the commas that stand right before a `]` or `}` (whitespace aside),
    /// outside strings. Meant for text FlowJSON otherwise accepts; on anything else it does
    /// its best and the caller's re-validation decides.
    public static func removingTrailingCommas(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inString = false
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                out.append(b)
                if b == UInt8(ascii: "\\"), i + 1 < bytes.count {
                    out.append(bytes[i + 1])
                    i += 2
                    continue
                }
                if b == UInt8(ascii: "\"") { inString = false }
                i += 1
                continue
            }
            if b == UInt8(ascii: "\"") { inString = true }
            if b == UInt8(ascii: ",") {
                var j = i + 1
                while j < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[j]) { j += 1 }
                if j < bytes.count, bytes[j] == UInt8(ascii: "]") || bytes[j] == UInt8(ascii: "}") {
                    i += 1
                    continue
                }
            }
            out.append(b)
            i += 1
        }
        return out
    }

    /// `bytes` (which FlowJSON scans) with every number literal that converts to an infinite
    /// Double replaced by `0`; nil when there is none, or the bytes do not scan.
    public static func replacingInfiniteNumbers(_ bytes: [UInt8]) -> [UInt8]? {
        guard let document = try? JSONDocument(bytes: bytes) else { return nil }
        let ranges: [Range<Int>] = document.withView { view in
            var ranges: [Range<Int>] = []
            for i in 0..<view.count where view.kind(i) == .number {
                let literal = String(decoding: view.rawBytes(i), as: UTF8.self)
                if let d = Double(literal), d.isInfinite { ranges.append(view.byteRange(i)) }
            }
            return ranges
        }
        guard !ranges.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var last = 0
        for r in ranges {
            out += bytes[last..<r.lowerBound]
            out.append(UInt8(ascii: "0"))
            last = r.upperBound
        }
        out += bytes[last...]
        return out
    }
}

/// Helpers of the json oracle, public so tests can pin them.
public enum JSONOracleSupport {
    /// A document scanned in parts gives the one-thread scan's tape or error, whatever the
    /// cuts: here at up to three element starts (a byte after a comma, where cuts are
    /// meant to fall) and at the middle byte, wherever that lands.
    public static func partsAgree(_ bytes: [UInt8], scanned: Result<JSONDocument, JSONSyntaxError>) -> [String] {
        guard bytes.count >= 2 else { return [] }
        let starts = bytes.indices.dropFirst().filter { bytes[$0 - 1] == UInt8(ascii: ",") }
        var cuts = Set([bytes.count / 2])
        for k in 1...3 where !starts.isEmpty { cuts.insert(starts[starts.count * k / 4 % starts.count]) }
        let inParts = Result { () throws(JSONSyntaxError) in try JSONDocument.scanInParts(bytes, cuts: Array(cuts)) }
        switch (scanned, inParts) {
        case (.success(let document), .success(let parts)):
            if parts.tape != document.tapeEntries || parts.sawUnicodeEscape != document.mayHoldLoneSurrogates {
                return ["the scan in parts (cuts \(cuts.sorted())) gives another index than one thread"]
            }
        case (.failure(let one), .failure(let parts)):
            if one != parts { return ["the scan in parts (cuts \(cuts.sorted())) fails with \(parts), one thread with \(one)"] }
        case (.success, .failure(let parts)):
            return ["the scan in parts (cuts \(cuts.sorted())) fails with \(parts), one thread accepts"]
        case (.failure(let one), .success):
            return ["the scan in parts (cuts \(cuts.sorted())) accepts, one thread fails with \(one)"]
        }
        return []
    }

    /// FlowJSON's verdict: nil when `validate` accepts (default limits).
    public static func validationError(_ bytes: [UInt8]) -> JSONSyntaxError? {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONSyntaxError) in try JSONDocument.validate(buffer) }
        }
        if case .failure(let e) = result { return e }
        return nil
    }

    /// Foundation's verdict: `JSONSerialization` with `.fragmentsAllowed`.
    public static func foundationAccepts(_ bytes: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
    }

    /// Write-and-rescan checks for an accepted document.
    static func roundTrips(_ value: JSONValue, document: JSONDocument) -> [String] {
        var failures: [String] = []
        let compact = JSONWriter.encode(value)
        switch Result(catching: { () throws(JSONSyntaxError) in try JSONValue(parsing: compact) }) {
        case .success(let again):
            if again != value { failures.append("compact write and rescan gives a different value: \(excerpt(compact))") }
            if JSONWriter.encode(again) != compact { failures.append("writing the rescanned value gives other bytes: \(excerpt(compact))") }
        case .failure(let e):
            failures.append("the compact writer's output does not rescan (\(e)): \(excerpt(compact))")
        }

        let fromTape: [UInt8] = document.withView { view in
            var w = JSONWriter()
            w.write(view, at: 0)
            return w.bytes
        }
        switch Result(catching: { () throws(JSONSyntaxError) in try JSONValue(parsing: fromTape) }) {
        case .success(let again):
            if again != value { failures.append("tape write and rescan gives a different value: \(excerpt(fromTape))") }
        case .failure(let e):
            failures.append("the tape writer's output does not rescan (\(e)): \(excerpt(fromTape))")
        }

        failures += spansWriteAsTheTape(document)

        let pretty = JSONWriter.pretty(value)
        switch Result(catching: { () throws(JSONSyntaxError) in try JSONValue(parsing: pretty) }) {
        case .success(let again):
            if again != value { failures.append("pretty write and rescan gives a different value") }
        case .failure(let e):
            failures.append("the pretty writer's output does not rescan (\(e))")
        }
        return failures
    }

    /// Each of the first 256 entries, written from its value span alone, gives the tape
    /// writer's bytes for it (bounded, so a large input costs at most 256 of its size).
    static func spansWriteAsTheTape(_ document: JSONDocument) -> [String] {
        document.withView { view in
            for i in 0..<min(view.count, 256) {
                var fromTape = JSONWriter()
                fromTape.write(view, at: i)
                var fromSpan = JSONWriter()
                fromSpan.write(valueSpan: UnsafeBufferPointer(rebasing: view.bytes[view.valueSpan(i)]))
                if fromSpan.bytes != fromTape.bytes {
                    return ["entry \(i) written from its span gives \(excerpt(fromSpan.bytes)), from the tape \(excerpt(fromTape.bytes))"]
                }
            }
            return []
        }
    }

    static func excerpt(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(200), as: UTF8.self)
        return bytes.count > 200 ? text + "…" : text
    }
}
