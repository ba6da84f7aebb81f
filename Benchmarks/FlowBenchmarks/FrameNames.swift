import Foundation

/// Readable names for the frames of a flame graph: Swift symbols demangled and qualified by
/// their module (`FlowCore.PageDecoder.decode(_:)`), anything else by its object file
/// (`libc.so.6`memmove`, as perf and DTrace write them).
public enum FrameNames {
    /// One name per symbol, in order. Demangles through the toolchain's `swift-demangle`
    /// (all symbols in one run); without it, or where it fails, ``minimal(_:)`` names the
    /// symbol from its leading identifiers.
    public static func readable(_ symbols: [(symbol: String, object: String)]) -> [String] {
        let swift = symbols.map { isSwift($0.symbol) }
        let demangled = demangle(zip(symbols, swift).filter(\.1).map(\.0.symbol))
        var next = demangled.makeIterator()
        return zip(symbols, swift).map { entry, isSwift in
            let name: String
            if isSwift {
                let simplified = next.next() ?? nil
                name = simplified.flatMap { qualify($0, module: module(of: entry.symbol)) } ?? minimal(entry.symbol) ?? entry.symbol
            } else {
                let object = (entry.object as NSString).lastPathComponent
                name = object.isEmpty || object == "???" ? entry.symbol : "\(object)`\(entry.symbol)"
            }
            // `;` separates frames in the folded format.
            return name.replacingOccurrences(of: ";", with: ",")
        }
    }

    static func isSwift(_ symbol: String) -> Bool {
        symbol.hasPrefix("$s") || symbol.hasPrefix("_$s") || symbol.hasPrefix("$S") || symbol.hasPrefix("_$S")
    }

    /// `swift-demangle --simplified` over every symbol at once; nil for each where it is not
    /// on PATH or left the symbol as it was.
    static func demangle(_ symbols: [String]) -> [String?] {
        guard !symbols.isEmpty, let tool = Executable.find("swift-demangle") else { return symbols.map { _ in nil } }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("flow-symbols-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: input) }
        guard (try? Data(symbols.joined(separator: "\n").utf8).write(to: input)) != nil,
              let output = try? Subprocess.run([tool, "--simplified"], input: input)
        else { return symbols.map { _ in nil } }
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= symbols.count else { return symbols.map { _ in nil } }
        return zip(symbols, lines).map { $0 == $1 ? nil : $1 }
    }

    /// The module a mangled Swift symbol belongs to: its first identifier, or `Swift` for the
    /// standard library's substitutions (`$sSa…` is Array's).
    static func module(of symbol: String) -> String? {
        var rest = Substring(symbol.drop { $0 == "_" }.dropFirst(2))
        if rest.first == "S", let next = rest.dropFirst().first, next.isLetter { return "Swift" }
        if rest.hasPrefix("s") { return "Swift" }
        return identifier(&rest)
    }

    /// A name from a Swift symbol's leading identifiers alone (`FlowCore.PageDecoder.decode`),
    /// for when the demangler is not there; nil when the symbol does not start with one.
    static func minimal(_ symbol: String) -> String? {
        guard isSwift(symbol) else { return nil }
        var rest = Substring(symbol.drop { $0 == "_" }.dropFirst(2))
        var parts: [String] = []
        while let name = identifier(&rest) {
            parts.append(name)
            // One kind letter (V struct, C class, O enum, P protocol…) may separate identifiers.
            if let kind = rest.first, kind.isLetter, rest.dropFirst().first?.isNumber == true { rest = rest.dropFirst() }
        }
        return parts.isEmpty ? nil : parts.joined(separator: ".")
    }

    /// Reads a `<length><characters>` identifier off the front of `rest`.
    private static func identifier(_ rest: inout Substring) -> String? {
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard let length = Int(digits), length > 0, rest.count >= digits.count + length else { return nil }
        let name = rest.dropFirst(digits.count).prefix(length)
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        rest = rest.dropFirst(digits.count + length)
        return String(name)
    }

    /// What `--simplified` leaves out put back: the module, before the entity the name is
    /// about (after words such as `closure #1 in` or `specialized`).
    static func qualify(_ simplified: String, module: String?) -> String {
        guard let module else { return simplified }
        let lead = simplified.prefix(leadingWordsLength(Substring(simplified), compilationOnly: false))
        let entity = simplified.dropFirst(lead.count)
        if entity.hasPrefix(module + ".") || entity.isEmpty || !(entity.first!.isLetter || entity.first == "_") { return simplified }
        return lead + module + "." + entity
    }

    // Not Swift's Regex: its compiled programs live in statics that LeakSanitizer reports as
    // leaked (the sanitized test run fails on them), and a prefix scan is all this needs.

    /// Words that say how a function was compiled or called, which come before its name.
    private static let compilationWords = ["@objc ", "specialized ", "static ", "partial apply for ", "protocol witness for ", "merged "]
    /// The rest of the words a demangled name can start with (`qualify` skips them too).
    private static let callWords = [
        "reabstraction thunk helper for ", "reabstraction thunk for ", "thunk helper for ", "thunk for ",
        "lazy protocol witness table accessor for type ", "type metadata accessor for ",
    ]

    /// The length of the leading words of `name` (repeated, in any order): the compilation
    /// words only, or every word `qualify` skips, closures (`closure #2 in`, `implicit closure
    /// #1 in`), default arguments (`default argument 0 of`) and outlined copies (`outlined
    /// copy of`) included.
    static func leadingWordsLength(_ name: Substring, compilationOnly: Bool) -> Int {
        var rest = name
        func skip(_ prefix: String) -> Bool {
            guard rest.hasPrefix(prefix) else { return false }
            rest = rest.dropFirst(prefix.count)
            return true
        }
        /// `start`, digits, `end`.
        func skipNumbered(_ start: String, _ end: String) -> Bool {
            guard rest.hasPrefix(start) else { return false }
            let digits = rest.dropFirst(start.count).prefix { $0.isASCII && $0.isNumber }
            let after = rest.dropFirst(start.count + digits.count)
            guard !digits.isEmpty, after.hasPrefix(end) else { return false }
            rest = after.dropFirst(end.count)
            return true
        }
        /// `outlined `, lowercase words, ` of ` (the last one the words reach).
        func skipOutlined() -> Bool {
            guard rest.hasPrefix("outlined ") else { return false }
            let words = rest.dropFirst("outlined ".count).prefix { ("a"..."z").contains($0) || $0 == " " }
            guard !words.isEmpty else { return false }
            // Slices share their base's indices, so a cut in `words` is one in `rest`.
            var cut: Substring.Index?
            var i = words.index(after: words.startIndex)
            while i < words.endIndex {
                if words[i...].hasPrefix(" of ") { cut = words.index(i, offsetBy: 4) }
                i = words.index(after: i)
            }
            guard let cut else { return false }
            rest = rest[cut...]
            return true
        }
        while true {
            if compilationWords.contains(where: skip) { continue }
            if compilationOnly { break }
            if callWords.contains(where: skip) { continue }
            if skipNumbered("closure #", " in ") || skipNumbered("implicit closure #", " in ") || skipNumbered("default argument ", " of ") { continue }
            if skipOutlined() { continue }
            break
        }
        return name.count - rest.count
    }
}
