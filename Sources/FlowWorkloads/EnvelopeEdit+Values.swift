import FlowJSON

/// The value edits of ``EnvelopeEdit``: numbers, strings, object members and arrays anywhere
/// in a document, edited by the shapes a decoder's bugs hide behind (a range's edge, a
/// string's length and alphabet, a field gone, an array's length and order) rather than by
/// the page contract. Each is linear in the size of the value it edits; a sort takes a
/// window of at most ``sortWindow`` elements, so it stays linear in the array's length too.
extension EnvelopeEdit {
    /// The value kinds that have a place in a document with these sites.
    static func applicableValues(_ sites: EnvelopeSites) -> [EnvelopeMutator.Kind] {
        var kinds: [EnvelopeMutator.Kind] = []
        if !sites.numbers.isEmpty { kinds += [.numberBoundary, .numberNeighbor, .numberNegate] }
        if !sites.strings.isEmpty { kinds += [.stringDigits, .stringGrow, .stringShrink, .stringReshape] }
        if !sites.objects.isEmpty { kinds.append(.dropMember) }
        if !sites.arrays.isEmpty { kinds += [.arrayGrow, .arrayReverse, .arraySortDescending, .arraySortAscending, .arrayDuplicate] }
        return kinds
    }

    /// Integers at the edges of the machine's types, and of sign.
    static let boundaryNumbers = ["0", "-1", "1", "127", "-128", "128", "255", "256", "32767", "-32768", "65535",
                                  "2147483647", "-2147483648", "4294967295", "9223372036854775807",
                                  "-9223372036854775808", "18446744073709551615"]

    /// The most elements one sort reorders (a window of a longer array).
    static let sortWindow = 64

    /// A site of `all`, half the time one inside a widget's data when there is one.
    func site(_ all: [Int], data: [Int], _ rng: inout SeededRandom) -> Int {
        !data.isEmpty && rng.chance(0.5) ? rng.pick(data) : rng.pick(all)
    }

    mutating func applyValue(_ kind: EnvelopeMutator.Kind, to root: inout EnvelopeNode, _ rng: inout SeededRandom) -> Bool {
        switch kind {
        case .numberBoundary:
            guard !sites.numbers.isEmpty else { return false }
            let value = EnvelopeNode.scalar(Array(rng.pick(Self.boundaryNumbers).utf8))
            root.modify(sites.path(site(sites.numbers, data: sites.dataNumbers, &rng))[...]) { $0 = value }
            return true
        case .numberNeighbor:
            // A neighbour of a number the document holds (this one's or another's): 100 and
            // 101 from a 100 elsewhere, one more than the field it is compared with.
            guard !sites.numbers.isEmpty else { return false }
            let target = site(sites.numbers, data: sites.dataNumbers, &rng)
            let source = rng.chance(0.5) ? target : site(sites.numbers, data: sites.dataNumbers, &rng)
            guard case .scalar(let literal)? = root.node(at: sites.path(source)[...]),
                  let n = Int64(String(decoding: literal, as: UTF8.self)) else { return false }
            let step = rng.pick([Int64(1), -1, 1, -1, 2, -2, 10])
            let value = EnvelopeNode.scalar(Array(String(n.addingReportingOverflow(step).partialValue).utf8))
            root.modify(sites.path(target)[...]) { $0 = value }
            return true
        case .numberNegate:
            guard !sites.numbers.isEmpty else { return false }
            let n = site(sites.numbers, data: sites.dataNumbers, &rng)
            guard case .scalar(let literal)? = root.node(at: sites.path(n)[...]), let first = literal.first else { return false }
            let negated = first == UInt8(ascii: "-") ? Array(literal.dropFirst()) : [UInt8(ascii: "-")] + literal
            root.modify(sites.path(n)[...]) { $0 = .scalar(negated) }
            return true
        case .stringDigits, .stringGrow, .stringShrink, .stringReshape:
            guard !sites.strings.isEmpty else { return false }
            let n = site(sites.strings, data: sites.dataStrings, &rng)
            guard let old = root.node(at: sites.path(n)[...])?.stringContents.map(Array.init),
                  let contents = reshaped(kind, old, &rng), contents.count <= old.count + max(0, maxSize) else { return false }
            root.modify(sites.path(n)[...]) { $0 = .scalar([0x22] + contents + [0x22]) }
            return true
        case .dropMember:
            let o = site(sites.objects, data: sites.dataObjects, &rng)
            guard case .object(let members)? = root.node(at: sites.path(o)[...]), !members.isEmpty else { return false }
            let m = rng.below(members.count)
            root.modifyObject(sites.path(o)[...]) { $0.remove(at: m) }
            return true
        case .arrayGrow, .arrayReverse, .arraySortDescending, .arraySortAscending, .arrayDuplicate:
            guard !sites.arrays.isEmpty else { return false }
            let path = sites.path(site(sites.arrays, data: sites.dataArrays, &rng))
            guard case .array(let elements)? = root.node(at: path[...]), !elements.isEmpty,
                  let reordered = rearranged(kind, elements, &rng) else { return false }
            root.modifyArray(path[...]) { $0 = reordered }
            return true
        default:
            return false
        }
    }

    // MARK: Strings

    /// The contents (between the quotes, escapes as written) of a string literal after the
    /// edit, nil when the edit does not apply or would not leave a valid literal.
    func reshaped(_ kind: EnvelopeMutator.Kind, _ old: [UInt8], _ rng: inout SeededRandom) -> [UInt8]? {
        switch kind {
        case .stringDigits:
            // Digits, as many as there were characters give or take three, or 1 to 16.
            let length = rng.chance(0.6) ? max(1, old.count - 3 + rng.below(7)) : 1 + rng.below(16)
            return (0..<length).map { _ in UInt8(ascii: "0") + UInt8(rng.below(10)) }
        case .stringGrow:
            // One to eight characters at the start or the end: copies of the one at that end
            // (a plain ASCII one), digits, or letters.
            let count = 1 + rng.below(8)
            let atStart = rng.chance(0.5)
            let edge = atStart ? old.first : old.last
            let source = rng.below(3)
            let added: [UInt8] = (0..<count).map { _ in
                if source == 0, let edge, Self.isPlain(edge) { return edge }
                return source == 1 ? UInt8(ascii: "0") + UInt8(rng.below(10)) : UInt8(ascii: "a") + UInt8(rng.below(26))
            }
            return atStart ? added + old : old + added
        case .stringShrink:
            guard !old.isEmpty else { return nil }
            // One to four bytes off either end, or half of it; an escape or a UTF-8 sequence
            // cut in two is refused (the literal is checked).
            let count = rng.chance(0.25) ? (old.count + 1) / 2 : min(old.count, 1 + rng.below(4))
            let cut = rng.chance(0.5) ? Array(old.dropFirst(count)) : Array(old.dropLast(count))
            return Self.isValidContents(cut) ? cut : nil
        case .stringReshape:
            guard !old.isEmpty else { return nil }
            // Every letter (or one position) another class: digits, upper or lower case; or
            // the string reversed. Only plain ASCII strings: an escape's letters are syntax.
            guard old.allSatisfy(Self.isPlain) else { return nil }
            switch rng.below(5) {
            case 0: return old.map { Self.isLetter($0) ? UInt8(ascii: "0") + $0 % 10 : $0 }
            case 1: return old.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0 }
            case 2: return old.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
            case 3: return old.reversed()
            default:
                var out = old
                out[rng.below(out.count)] = UInt8(ascii: "0") + UInt8(rng.below(10))
                return out
            }
        default:
            return nil
        }
    }

    /// ASCII that needs no escape in a JSON string and is no part of one.
    static func isPlain(_ b: UInt8) -> Bool { b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C }

    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }

    /// Whether `contents` between quotes is a string literal FlowJSON accepts.
    static func isValidContents(_ contents: [UInt8]) -> Bool {
        if contents.allSatisfy(isPlain) { return true }
        return (try? JSONDocument(bytes: [0x22] + contents + [0x22])) != nil
    }

    // MARK: Arrays

    /// The elements after the edit, nil when it would change nothing or outgrow the budget.
    func rearranged(_ kind: EnvelopeMutator.Kind, _ elements: [EnvelopeNode], _ rng: inout SeededRandom) -> [EnvelopeNode]? {
        switch kind {
        case .arrayGrow:
            // One to four copies of its elements, each at a place of its own.
            var out = elements
            var added = 0
            for _ in 0..<(1 + rng.below(4)) {
                let copy = elements[rng.below(elements.count)]
                added += copy.byteCount + 1
                guard added <= maxSize else { break }
                out.insert(copy, at: rng.below(out.count + 1))
            }
            return out.count > elements.count ? out : nil
        case .arrayDuplicate:
            guard elements.reduce(0, { $0 + $1.byteCount + 1 }) <= maxSize else { return nil }
            return elements + elements
        case .arrayReverse:
            guard elements.count >= 2 else { return nil }
            return elements.reversed()
        case .arraySortDescending, .arraySortAscending:
            guard elements.count >= 2 else { return nil }
            let start = elements.count > Self.sortWindow ? rng.below(elements.count - Self.sortWindow + 1) : 0
            let window = start..<min(elements.count, start + Self.sortWindow)
            // Numbers by value before everything else by its bytes; ties by position, so
            // the order is the same on every platform.
            let keyed = elements[window].enumerated().map { (n, e) in (Self.sortKey(e), n, e) }
            let descending = kind == .arraySortDescending
            let sorted = keyed.sorted { a, b in
                if a.0 != b.0 { return descending ? a.0 > b.0 : a.0 < b.0 }
                return a.1 < b.1
            }
            var out = elements
            out.replaceSubrange(window, with: sorted.map(\.2))
            return out
        default:
            return nil
        }
    }

    /// How sorts order elements: numbers by value, before any other value.
    struct SortKey: Comparable {
        let number: Double?
        let bytes: [UInt8]

        static func < (a: SortKey, b: SortKey) -> Bool {
            switch (a.number, b.number) {
            case let (x?, y?): return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil): return a.bytes.lexicographicallyPrecedes(b.bytes)
            }
        }
    }

    static func sortKey(_ node: EnvelopeNode) -> SortKey {
        if node.isNumber, case .scalar(let b) = node, let d = Double(String(decoding: b, as: UTF8.self)), !d.isNaN {
            return SortKey(number: d, bytes: [])
        }
        return SortKey(number: nil, bytes: node.scalarBytes ?? [])
    }
}

extension EnvelopeNode {
    /// The bytes of a scalar (a literal as written), nil for an array or object.
    var scalarBytes: [UInt8]? { if case .scalar(let b) = self { b } else { nil } }

    /// The size of the node written compactly, without writing it.
    var byteCount: Int {
        switch self {
        case .scalar(let b): b.count
        case .array(let a): 2 + a.reduce(max(0, a.count - 1)) { $0 + $1.byteCount }
        case .object(let m): 2 + m.reduce(max(0, m.count - 1)) { $0 + $1.key.count + 3 + $1.value.byteCount }
        }
    }
}
