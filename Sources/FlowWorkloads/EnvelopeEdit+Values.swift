import FlowJSON

/// The edits of a field's value, the data a widget type reads: the bugs a type's own decoding
/// has live behind a number out of its range, a string of some length and shape, two fields
/// out of order, a field missing beside another, an array's length and order. Each edit moves
/// a value a step a decoder might not expect (a sign, a boundary, a neighbour's value, an end
/// of a string grown or cut), so that a few edits in a row reach shapes no single constant
/// names. `Fuzz/canaries.sh` measures them on crashes planted behind such conditions.
extension EnvelopeEdit {
    // MARK: Numbers

    /// A number at its boundaries and signs, or moved arithmetically from what it is.
    func nudgeNumber(_ root: inout EnvelopeNode, _ rng: inout SeededRandom) -> Bool {
        guard !sites.numbers.isEmpty else { return false }
        let n = rng.pick(sites.numbers)
        guard case .scalar(let literal)? = root.node(at: sites.path(n)[...]) else { return false }
        let value = EnvelopeNode.scalar(Self.nudged(literal, &rng))
        root.modify(sites.path(n)[...]) { $0 = value }
        return true
    }

    /// A number set to another's: a sibling field's (one more or one less, half the time)
    /// or any number of the document. Relations between fields (`low` above `high`) are
    /// reached this way.
    func numberFromDocument(_ root: inout EnvelopeNode, _ rng: inout SeededRandom) -> Bool {
        guard sites.numbers.count >= 2 else { return false }
        let n = rng.pick(sites.numbers)
        let siblings = sites.numbers.filter { $0 != n && sites.parent[$0] == sites.parent[n] }
        let source = !siblings.isEmpty && rng.chance(0.7) ? rng.pick(siblings) : rng.pick(sites.numbers.filter { $0 != n })
        guard case .scalar(var literal)? = root.node(at: sites.path(source)[...]) else { return false }
        if rng.chance(0.5), let v = Int64(String(decoding: literal, as: UTF8.self)) {
            let (moved, overflow) = v.addingReportingOverflow(rng.chance(0.5) ? 1 : -1)
            if !overflow { literal = Array(String(moved).utf8) }
        }
        root.modify(sites.path(n)[...]) { $0 = .scalar(literal) }
        return true
    }

    /// Integer boundaries of the common widths, and the first values past them.
    static let boundaryNumbers = ["127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32768", "-32769", "65535", "65536",
                                  "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
                                  "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
                                  "18446744073709551615", "18446744073709551616"]

    /// `literal` (a number's bytes) moved: its sign changed, one up or down, a few up or
    /// down, doubled, halved, ten times, a tenth, 0, 1, -1, or a width's boundary. A number
    /// with a fraction or exponent changes sign, or becomes its integer part moved.
    static func nudged(_ literal: [UInt8], _ rng: inout SeededRandom) -> [UInt8] {
        let text = String(decoding: literal, as: UTF8.self)
        guard let n = Int64(text) ?? Double(text).flatMap({ $0.isFinite && abs($0) < 1e18 && rng.chance(0.5) ? Int64($0) : nil }) else {
            return literal.first == UInt8(ascii: "-") ? Array(literal.dropFirst()) : [UInt8(ascii: "-")] + literal
        }
        let moved: (partialValue: Int64, overflow: Bool)
        switch rng.below(11) {
        case 0: moved = (0 as Int64).subtractingReportingOverflow(n)
        case 1: moved = n.addingReportingOverflow(1)
        case 2: moved = n.subtractingReportingOverflow(1)
        case 3: moved = n.addingReportingOverflow(Int64(2 + rng.below(15)) * (rng.chance(0.5) ? 1 : -1))
        case 4: moved = n.multipliedReportingOverflow(by: 2)
        case 5: moved = (n / 2, false)
        case 6: moved = n.multipliedReportingOverflow(by: 10)
        case 7: moved = (n / 10, false)
        case 8: moved = (Int64(rng.below(3)) - 1, false)
        default: return Array(rng.pick(boundaryNumbers).utf8)
        }
        return moved.overflow ? Array(rng.pick(boundaryNumbers).utf8) : Array(String(moved.partialValue).utf8)
    }

    // MARK: Strings

    /// A field's string grown or cut at either end, repeated, halved, recast as digits or
    /// letters, or recast (see ``reshaped(_:lengths:_:)``). Strings holding
    /// an escape are left to the other edits: cutting one could split it.
    func reshapeString(_ root: inout EnvelopeNode, _ rng: inout SeededRandom) -> Bool {
        let pool = sites.fieldStrings.isEmpty ? sites.strings : sites.fieldStrings
        guard !pool.isEmpty else { return false }
        let n = rng.pick(pool)
        guard let contents = root.node(at: sites.path(n)[...])?.stringContents, !contents.contains(UInt8(ascii: "\\")),
              let text = String(validating: contents, as: UTF8.self) else { return false }
        // A few other strings' lengths: fields of one format often stand on one page.
        let lengths = (0..<4).compactMap { _ in root.node(at: sites.path(rng.pick(pool))[...])?.stringContents?.count }
        let reshaped = Self.reshaped(Array(text.unicodeScalars), lengths: lengths, &rng)
        var out = String.UnicodeScalarView()
        out.append(contentsOf: reshaped)
        let literal = EnvelopeNode.scalar([0x22] + Array(String(out).utf8) + [0x22])
        root.modify(sites.path(n)[...]) { $0 = literal }
        return true
    }

    /// Lengths worth trying: every short one, and the powers of two with their neighbours.
    static let telling: [Int] = Array(0...12) + [15, 16, 17, 20, 24, 31, 32, 33, 36, 63, 64, 65, 127, 128, 255, 256]

    /// `scalars` (no quote, backslash or control character among them) grown or cut at
    /// either end, repeated, halved, or recast (``recast(_:lengths:_:)``, a quarter of the
    /// time); what the edit adds is digits, letters and copies of its own characters, none
    /// of which needs an escape.
    static func reshaped(_ scalars: [Unicode.Scalar], lengths: [Int] = [], _ rng: inout SeededRandom) -> [Unicode.Scalar] {
        var s = scalars
        func filler(beside neighbour: Unicode.Scalar?) -> Unicode.Scalar {
            switch rng.below(3) {
            case 0: neighbour ?? "0"
            case 1: Unicode.Scalar(UInt8(ascii: "0") + UInt8(rng.below(10)))
            default: Unicode.Scalar(UInt8(ascii: "a") + UInt8(rng.below(26)))
            }
        }
        let k = 1 + rng.below(4)
        switch rng.below(8) {
        case 0: for _ in 0..<k { s.append(filler(beside: s.last)) }
        case 1: for _ in 0..<k { s.insert(filler(beside: s.first), at: 0) }
        case 2: s.removeLast(min(k, s.count))
        case 3: s.removeFirst(min(k, s.count))
        case 4: s += s.isEmpty ? ["x"] : s
        case 5: s = Array(s.prefix(s.count / 2))
        default: s = recast(s, lengths: lengths, &rng)
        }
        return s
    }

    /// `scalars` recast: another length, other characters, or both. The length is kept, or
    /// near its own, short, a power of two or beside one, or another string's (fields of one
    /// format often stand on one page); the characters are its own, its own digits or
    /// letters alone, or digits or letters anew.
    static func recast(_ scalars: [Unicode.Scalar], lengths: [Int], _ rng: inout SeededRandom) -> [Unicode.Scalar] {
        let newLength = rng.below(3) != 0
        let length: Int = switch newLength ? rng.below(4) : 4 {
        case 0: max(0, scalars.count + rng.below(9) - 4)
        case 1: rng.below(13)
        case 2: rng.pick(telling)
        case 3: lengths.isEmpty ? rng.below(13) : rng.pick(lengths)
        default: scalars.count
        }
        let digits = (0..<10).map { Unicode.Scalar(UInt8(ascii: "0") + UInt8($0)) }
        let letters = (0..<26).map { Unicode.Scalar(UInt8(ascii: "a") + UInt8($0)) }
        let ownDigits = scalars.filter { $0.properties.numericType == .decimal && $0.isASCII }
        let ownLetters = scalars.filter { $0.properties.isAlphabetic }
        var sources = [digits, letters]
        if newLength { sources.append(scalars) }
        if !ownDigits.isEmpty { sources.append(ownDigits) }
        if !ownLetters.isEmpty { sources.append(ownLetters) }
        let source = rng.pick(sources.filter { !$0.isEmpty })
        let start = rng.below(source.count)
        let inOrder = rng.chance(0.5)
        return (0..<length).map { i in inOrder ? source[(start + i) % source.count] : source[rng.below(source.count)] }
    }

    /// A field's string set to another string of the document or of a donor: values the
    /// type itself compares against often stand elsewhere on the page (`badge`, `plain`).
    func stringFromDocument(_ root: inout EnvelopeNode, _ rng: inout SeededRandom) -> Bool {
        let pool = sites.fieldStrings.isEmpty ? sites.strings : sites.fieldStrings
        guard pool.count >= 2 else { return false }
        let n = rng.pick(pool)
        let source = rng.pick(pool.filter { $0 != n })
        guard let value = root.node(at: sites.path(source)[...]) else { return false }
        root.modify(sites.path(n)[...]) { $0 = value }
        return true
    }

    // MARK: Objects

    /// One member of an object dropped: a field absent while the others stay.
    func dropMember(_ root: inout EnvelopeNode, _ rng: inout SeededRandom) -> Bool {
        let o = rng.pick(sites.fieldObjects.isEmpty ? sites.objects : sites.fieldObjects)
        guard case .object(let members)? = root.node(at: sites.path(o)[...]), !members.isEmpty else { return false }
        let m = rng.below(members.count)
        root.modifyObject(sites.path(o)[...]) { $0.remove(at: m) }
        return true
    }

    /// Two members of one object trade values, of the same JSON type when the object has
    /// such a pair (`low` and `high`).
    func swapMembers(_ root: inout EnvelopeNode, _ rng: inout SeededRandom) -> Bool {
        let o = rng.pick(sites.fieldObjects.isEmpty ? sites.objects : sites.fieldObjects)
        guard case .object(let members)? = root.node(at: sites.path(o)[...]), members.count >= 2 else { return false }
        let i = rng.below(members.count)
        let others = members.indices.filter { $0 != i }
        let alike = others.filter { members[$0].value.typeCode == members[i].value.typeCode }
        let j = rng.pick(alike.isEmpty ? others : alike)
        root.modifyObject(sites.path(o)[...]) { m in (m[i].value, m[j].value) = (m[j].value, m[i].value) }
        return true
    }

    // MARK: Arrays

    /// An array of data (any array when there is none: the contract's lists have edits of
    /// their own) reshaped: reversed, sorted either way, an element repeated, dropped or
    /// appended one step past the last (a number moved, see ``nudged(_:_:)``), or rotated.
    func reshapeArray(_ root: inout EnvelopeNode, _ rng: inout SeededRandom) -> Bool {
        let pool = sites.fieldArrays.isEmpty ? sites.arrays : sites.fieldArrays
        guard !pool.isEmpty else { return false }
        let a = rng.pick(pool)
        guard case .array(let elements)? = root.node(at: sites.path(a)[...]) else { return false }
        var reshaped = elements
        switch rng.below(7) {
        case 0: reshaped.reverse()
        case 1: reshaped.sort(by: Self.ascending)
        case 2: reshaped.sort { Self.ascending($1, $0) }
        case 3:
            guard let e = elements.randomElement(using: &rng) else { return false }
            reshaped.insert(e, at: rng.below(elements.count + 1))
        case 4:
            guard !elements.isEmpty else { return false }
            reshaped.remove(at: rng.below(elements.count))
        case 5:
            guard let last = elements.last else { return false }
            if case .scalar(let literal) = last, last.isNumber { reshaped.append(.scalar(Self.nudged(literal, &rng))) } else { reshaped.append(last) }
        default:
            guard elements.count >= 2 else { return false }
            let k = 1 + rng.below(elements.count - 1)
            reshaped = Array(elements[k...] + elements[..<k])
        }
        root.modifyArray(sites.path(a)[...]) { $0 = reshaped }
        return true
    }

    /// An order on elements: numbers by value, then everything else by its bytes.
    static func ascending(_ a: EnvelopeNode, _ b: EnvelopeNode) -> Bool {
        if case .scalar(let x) = a, case .scalar(let y) = b, a.isNumber, b.isNumber,
           let u = Double(String(decoding: x, as: UTF8.self)), let v = Double(String(decoding: y, as: UTF8.self)), u != v {
            return u < v
        }
        if a.isNumber != b.isNumber { return a.isNumber }
        return a.bytes.lexicographicallyPrecedes(b.bytes)
    }

    // MARK: libFuzzer's byte mutations, on one value

    /// A number or a field's string mutated by libFuzzer's byte mutator alone (its
    /// dictionary, the operands of comparisons it traced, its integer edits), kept when the
    /// result is still a number, or a string, of valid JSON.
    func scalarBytes(_ root: inout EnvelopeNode, _ rng: inout SeededRandom) -> Bool {
        guard let scalars else { return false }
        let pool = sites.numbers + (sites.fieldStrings.isEmpty ? sites.strings : sites.fieldStrings)
        guard !pool.isEmpty else { return false }
        let n = rng.pick(pool)
        guard case .scalar(let literal)? = root.node(at: sites.path(n)[...]) else { return false }
        let isString = literal.first == 0x22
        let body = isString ? Array(literal.dropFirst().dropLast()) : literal
        let limit = min(max(body.count * 2, 32), max(maxSize, 0))
        guard limit > 0 else { return false }
        let mutated = scalars(body, limit)
        let candidate = isString ? [0x22] + mutated + [0x22] : mutated
        guard !mutated.isEmpty, let document = try? JSONDocument(bytes: candidate),
              document.withView({ $0.kind(0) == (isString ? .string : .number) }) else { return false }
        root.modify(sites.path(n)[...]) { $0 = .scalar(candidate) }
        return true
    }
}
