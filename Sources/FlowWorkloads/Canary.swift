#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlowCore
import Foundation

/// The fuzzing suite's positive control: a widget type, `canary`, with crashes planted in it
/// of the kinds real decoders have, so that a fuzzing setup can be shown to find a bug, and
/// timed at it, before a green run is trusted.
///
/// One canary is armed per process, from the environment: `FLOW_CANARY=N` (1 to 8, the
/// `fuzz-canary` target run by `Fuzz/canaries.sh`), or `FLOW_FUZZ_CANARY=1` (a host's own fuzz
/// target, ``FuzzTarget/host(name:registry:pages:)``: the type and a page of it are added, and
/// the number out of range is armed). With neither, the type decodes and never crashes.
///
/// Each crash sits behind an ordinary condition on what the page holds, never behind a
/// constant only a dictionary could guess: what a fuzzer has to find is the shape, as it
/// would be for a real bug.
public enum Canary: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// `level` outside 0...100.
    case numberOutOfRange = 1
    /// `code` of exactly eight characters, every one a digit.
    case stringShape
    /// `low` greater than `high`.
    case fieldRelation
    /// `style` `badge` with no `label`.
    case absentCompanion
    /// `steps` of four or more numbers, strictly falling.
    case arrayOrder
    /// A canary among an accordion's items.
    case nestedInAccordion
    /// A canary in the page's header or footer bar.
    case inPageBar
    /// Two canaries that declare the same id on one page.
    case duplicateID

    public var description: String {
        switch self {
        case .numberOutOfRange: "a number out of its range (level outside 0...100)"
        case .stringShape: "a string of a given length and shape (code: eight digits)"
        case .fieldRelation: "a relation between two fields (low > high)"
        case .absentCompanion: "a field absent while another has a given value (style badge, no label)"
        case .arrayOrder: "an array's length and order (steps: four or more, falling)"
        case .nestedInAccordion: "the type nested in an accordion's items"
        case .inPageBar: "the type in a page bar (header or footer), not a section"
        case .duplicateID: "the same id on two canaries of one page"
        }
    }

    /// The name the crash report gives: `canary 3 (field-relation)`.
    public var name: String {
        let words = ["number-out-of-range", "string-shape", "field-relation", "absent-companion", "array-order",
                     "nested-in-accordion", "in-page-bar", "duplicate-id"]
        return "canary \(rawValue) (\(words[rawValue - 1]))"
    }

    /// The widget type the canaries live in.
    public static let typeName = "canary"

    /// The canary this process has armed (see the type's documentation).
    public static let armed: Canary? = armed(in: ProcessInfo.processInfo.environment)

    static func armed(in environment: [String: String]) -> Canary? {
        if let n = environment["FLOW_CANARY"].flatMap(Int.init) { return Canary(rawValue: n) }
        return environment["FLOW_FUZZ_CANARY"] == "1" ? .numberOutOfRange : nil
    }

    /// Whether a host's fuzz target should add the canary type and page (`FLOW_FUZZ_CANARY=1`).
    public static let hostControl = ProcessInfo.processInfo.environment["FLOW_FUZZ_CANARY"] == "1"

    /// The crash: what a decoder's bug does to an app. Only the armed canary fires.
    static func fire(_ canary: Canary) {
        guard canary == armed else { return }
        FileHandle.standardError.write(Data("==flow-canary== \(canary.name) found: \(canary.description)\n".utf8))
        abort()
    }

    // MARK: What each canary looks for

    /// The canaries a widget's own data breaks (1 to 5).
    static func violations(in content: CanaryContent) -> [Canary] {
        var found: [Canary] = []
        if let level = content.level, level < 0 || level > 100 { found.append(.numberOutOfRange) }
        if let code = content.code, code.count == 8, code.allSatisfy({ $0.isASCII && $0.isNumber }) { found.append(.stringShape) }
        if let low = content.low, let high = content.high, low > high { found.append(.fieldRelation) }
        if content.style == "badge" && content.label == nil { found.append(.absentCompanion) }
        if let steps = content.steps, steps.count >= 4, zip(steps, steps.dropFirst()).allSatisfy({ $0 > $1 }) { found.append(.arrayOrder) }
        return found
    }

    /// The canaries a decoded page breaks by where it puts its canaries (6 to 8).
    public static func violations(in decoded: DecodedPage) -> [Canary] {
        var found: [Canary] = []
        let page = decoded.page
        func holdsCanary(_ widgets: [Widget]) -> Bool { widgets.contains { $0.type == typeName } }
        var nested = false
        page.forEachWidget { w in
            if w.type == "accordion" && holdsCanary(w.nestedWidgets) { nested = true }
        }
        if nested { found.append(.nestedInAccordion) }
        if holdsCanary(page.header?.widgets ?? []) || holdsCanary(page.footer?.widgets ?? []) { found.append(.inPageBar) }
        if decoded.diagnostics.contains(where: { $0.kind == .duplicateID && $0.type == typeName }) { found.append(.duplicateID) }
        return found
    }

    /// Fires the armed canary when `decoded` breaks it (a page-level canary).
    public static func check(_ decoded: DecodedPage) {
        guard let armed, armed.rawValue >= Canary.nestedInAccordion.rawValue else { return }
        if violations(in: decoded).contains(armed) { fire(armed) }
    }

    /// `registry` with the canary type added.
    public static func registering(in registry: WidgetRegistry) -> WidgetRegistry {
        var r = registry
        r.register(CanaryContent.self, as: typeName)
        return r
    }
}

/// The `canary` widget's data: every field optional, as a host's type might have them.
struct CanaryContent: Decodable, Equatable, Sendable {
    var label: String?
    var style: String?
    var level: Int?
    var code: String?
    var low: Int?
    var high: Int?
    var steps: [Int]?

    enum CodingKeys: String, CodingKey { case label, style, level, code, low, high, steps }

    init(label: String? = nil, style: String? = nil, level: Int? = nil, code: String? = nil,
         low: Int? = nil, high: Int? = nil, steps: [Int]? = nil) {
        (self.label, self.style, self.level, self.code, self.low, self.high, self.steps) = (label, style, level, code, low, high, steps)
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        label = try c.decodeIfPresent(String.self, forKey: .label)
        style = try c.decodeIfPresent(String.self, forKey: .style)
        level = try c.decodeIfPresent(Int.self, forKey: .level)
        code = try c.decodeIfPresent(String.self, forKey: .code)
        low = try c.decodeIfPresent(Int.self, forKey: .low)
        high = try c.decodeIfPresent(Int.self, forKey: .high)
        steps = try c.decodeIfPresent([Int].self, forKey: .steps)
        // The bug a decoder might have: it trusts what it has just read.
        if let armed = Canary.armed, Canary.violations(in: self).contains(armed) { Canary.fire(armed) }
    }
}
