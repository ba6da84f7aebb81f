/// The vocabulary of ``EnvelopeMutator``: one edit of a parsed document, chosen by kind, on
/// the sites its walk found. Each edit returns false when the document has no place for it
/// (no accordion to take an item from), and the mutator picks another kind.
struct EnvelopeEdit {
    let sites: EnvelopeSites
    /// Where brought-in widgets, sections and ids come from; the first is the page the input
    /// is paired with, when there is one.
    let donors: [EnvelopeDonor]
    let typeNames: [String]
    /// Bytes the edit may add before the output outgrows libFuzzer's MaxSize (the long
    /// string is cut to fit).
    let maxSize: Int

    /// libFuzzer's byte mutator for one value (``EnvelopeMutator/ScalarMutator``), when the
    /// mutator runs under libFuzzer.
    var scalars: EnvelopeMutator.ScalarMutator? = nil

    /// The kinds that have a place in a document with these sites, in families, each with
    /// its weight: a family is picked by weight, then a kind of it evenly, so that adding a
    /// kind to a family does not take turns from the others. A field's value weighs most
    /// (numbers, strings, the shape of a widget's data): the bugs a widget type's own
    /// decoding has are there, and it has the fewest edits that reach them.
    static func applicable(_ sites: EnvelopeSites, scalars: Bool = false) -> [(weight: Int, kinds: [EnvelopeMutator.Kind])] {
        var families: [(weight: Int, kinds: [EnvelopeMutator.Kind])] = []
        if !sites.numbers.isEmpty { families.append((2, [.nudgeNumber, .nudgeNumber, .numberFromDocument, .edgeNumber])) }
        if !sites.strings.isEmpty { families.append((2, [.reshapeString, .reshapeString, .stringFromDocument, .edgeString])) }
        var shapes: [EnvelopeMutator.Kind] = [.otherType]
        if !sites.arrays.isEmpty { shapes += [.reshapeArray, .reshapeArray] }
        if !sites.objects.isEmpty { shapes += [.dropMember, .dropMember, .swapMembers, .swapMembers, .unknownKey, .duplicateKey] }
        families.append((2, shapes))
        if scalars { families.append((1, [.scalarBytes])) }
        var structure: [EnvelopeMutator.Kind] = []
        if !sites.widgetLists.isEmpty { structure += [.dropWidget, .duplicateWidget, .moveWidget, .swapWidgets] }
        if !sites.sectionLists.isEmpty { structure += [.dropSection, .duplicateSection, .moveSection, .swapSections] }
        if !sites.itemLists.isEmpty { structure += [.dropItem, .duplicateItem, .moveItem, .swapItems] }
        if !sites.widgets.isEmpty {
            structure.append(.deeperAccordion)
            families.append((2, [.retypeRegistered, .retypeUnknown, .retypeEmpty, .idOther, .idEmpty, .idSuffixed, .idRemoved]))
        }
        if !structure.isEmpty { families.append((3, structure)) }
        var responses: [EnvelopeMutator.Kind] = []
        if !sites.mutationLists.isEmpty { responses += [.mutationInsert, .mutationMissingTarget, .mutationJustRemoved] }
        if !sites.mutations.isEmpty { responses.append(.mutationRekind) }
        if !responses.isEmpty { families.append((3, responses)) }
        return families
    }

    mutating func apply(_ kind: EnvelopeMutator.Kind, to root: inout EnvelopeNode, _ rng: inout SeededRandom) -> Bool {
        switch kind {
        case .dropWidget: return list(.drop, sites.widgetLists, &root, &rng)
        case .duplicateWidget: return list(.duplicate, sites.widgetLists, &root, &rng)
        case .moveWidget: return list(.move, sites.widgetLists, &root, &rng)
        case .swapWidgets: return list(.swap, sites.widgetLists, &root, &rng)
        case .dropSection: return list(.drop, sites.sectionLists, &root, &rng)
        case .duplicateSection: return list(.duplicate, sites.sectionLists, &root, &rng)
        case .moveSection: return list(.move, sites.sectionLists, &root, &rng)
        case .swapSections: return list(.swap, sites.sectionLists, &root, &rng)
        case .dropItem: return list(.drop, sites.itemLists, &root, &rng)
        case .duplicateItem: return list(.duplicate, sites.itemLists, &root, &rng)
        case .moveItem: return list(.move, sites.itemLists, &root, &rng)
        case .swapItems: return list(.swap, sites.itemLists, &root, &rng)
        case .retypeRegistered: return setInWidget("type", .string(rng.pick(typeNames)), &root, &rng)
        case .retypeUnknown: return setInWidget("type", .scalar(Array(rng.pick(Self.unknownTypes).utf8)), &root, &rng)
        case .retypeEmpty: return setInWidget("type", .string(""), &root, &rng)
        case .idOther: return setInWidget("id", .scalar(anyID(&rng)), &root, &rng)
        case .idEmpty: return setInWidget("id", .string(""), &root, &rng)
        case .idSuffixed:
            let id = anyID(&rng)
            return setInWidget("id", .scalar(Array(id.dropLast()) + Array(rng.pick(Self.idSuffixes).utf8) + [0x22]), &root, &rng)
        case .idRemoved:
            let w = rng.pick(sites.widgets)
            guard root.node(at: sites.path(w)[...])?["id"] != nil else { return false }
            root.modifyObject(sites.path(w)[...]) { $0.remove("id") }
            return true
        case .otherType:
            let n = anyNode(&rng)
            guard let old = root.node(at: sites.path(n)[...]) else { return false }
            var value = rng.pick(Self.otherTypes)
            if value.typeCode == old.typeCode { value = Self.otherTypes[(Self.otherTypes.firstIndex(of: value)! + 3) % Self.otherTypes.count] }
            root.modify(sites.path(n)[...]) { $0 = value }
            return true
        case .edgeNumber:
            let n = !sites.numbers.isEmpty && rng.chance(0.7) ? rng.pick(sites.numbers) : anyNode(&rng)
            let value = EnvelopeNode.scalar(Array(rng.pick(Self.edgeNumbers).utf8))
            root.modify(sites.path(n)[...]) { $0 = value }
            return true
        case .edgeString:
            let n = !sites.strings.isEmpty && rng.chance(0.7) ? rng.pick(sites.strings) : anyNode(&rng)
            let value = edgeString(&rng)
            root.modify(sites.path(n)[...]) { $0 = value }
            return true
        case .unknownKey:
            let o = rng.pick(sites.objects)
            let member = EnvelopeMember(key: Array(rng.pick(Self.unknownKeys).utf8), value: rng.pick(Self.otherTypes))
            root.modifyObject(sites.path(o)[...]) { members in members.insert(member, at: rng.below(members.count + 1)) }
            return true
        case .duplicateKey:
            let o = rng.pick(sites.objects)
            guard case .object(let members)? = root.node(at: sites.path(o)[...]), !members.isEmpty else { return false }
            let m = rng.below(members.count)
            // Another value, of another type or an edge, before the original (it wins: the
            // first occurrence is the one typed fields read) or after it (it must not).
            let value = rng.chance(0.5) ? rng.pick(Self.otherTypes) : .scalar(Array(rng.pick(Self.edgeNumbers).utf8))
            let copy = EnvelopeMember(key: members[m].key, value: value)
            let at = rng.chance(0.5) ? m : m + 1
            root.modifyObject(sites.path(o)[...]) { $0.insert(copy, at: at) }
            return true
        case .deeperAccordion:
            // Four levels per wrap; the scan's limit is 512, past which the page fails as a
            // whole and nothing below the scanner runs.
            guard sites.maxDepth < 480 else { return false }
            let w = rng.pick(sites.widgets)
            guard let widget = root.node(at: sites.path(w)[...]) else { return false }
            let wrapper = EnvelopeNode.object([
                EnvelopeMember("type", .string("accordion")),
                EnvelopeMember("data", .object([EnvelopeMember("header", .string("Deeper")), EnvelopeMember("items", .array([widget]))])),
            ])
            root.modify(sites.path(w)[...]) { $0 = wrapper }
            return true
        case .mutationInsert:
            let kind = rng.pick(Self.mutationKinds)
            let id = presentID(&rng)
            return insertMutations(mutations(kind, id: id, &rng), &root, &rng)
        case .mutationMissingTarget:
            let id = Array("\"~missing~\(rng.below(1000))\"".utf8)
            return insertMutations(mutations(rng.pick(["remove_widget", "replace_widget"]), id: id, &rng), &root, &rng)
        case .mutationJustRemoved:
            let id = presentID(&rng)
            let then = mutations(rng.pick(["remove_widget", "replace_widget"]), id: id, &rng)
            return insertMutations(mutations("remove_widget", id: id, &rng) + then, &root, &rng)
        case .mutationRekind:
            let m = rng.pick(sites.mutations)
            let kind = rng.pick(Self.mutationKinds + ["", "REMOVE_WIDGET"])
            root.modifyObject(sites.path(m)[...]) { $0.set("kind", .string(kind)) }
            return true
        case .nudgeNumber: return nudgeNumber(&root, &rng)
        case .numberFromDocument: return numberFromDocument(&root, &rng)
        case .reshapeString: return reshapeString(&root, &rng)
        case .stringFromDocument: return stringFromDocument(&root, &rng)
        case .dropMember: return dropMember(&root, &rng)
        case .swapMembers: return swapMembers(&root, &rng)
        case .reshapeArray: return reshapeArray(&root, &rng)
        case .scalarBytes: return scalarBytes(&root, &rng)
        case .reframe, .spliceWidget, .spliceSection, .spliceMutation, .bytes:
            return false
        }
    }

    /// The crossover: a widget, section or mutation of the donor into a list of `root` (or
    /// in place of `root` itself, when it is a lone widget: a one-bad-widget replacement).
    mutating func splice(into root: inout EnvelopeNode, _ rng: inout SeededRandom) -> EnvelopeMutator.Kind? {
        guard let donor = donors.first else { return nil }
        var choices: [(EnvelopeMutator.Kind, [Int], EnvelopeNode)] = []
        if let w = donor.widget(&rng) {
            if !sites.widgetLists.isEmpty || !sites.itemLists.isEmpty { choices.append((.spliceWidget, sites.widgetLists + sites.itemLists, w)) }
            if sites.widgets.first == 0 { choices.append((.spliceWidget, [], w)) }
        }
        if let s = donor.section(&rng), !sites.sectionLists.isEmpty { choices.append((.spliceSection, sites.sectionLists, s)) }
        if let m = donor.mutation(&rng), !sites.mutationLists.isEmpty { choices.append((.spliceMutation, sites.mutationLists, m)) }
        guard !choices.isEmpty else { return nil }
        let (kind, lists, node) = rng.pick(choices)
        if lists.isEmpty {
            root = node
            return kind
        }
        let replace = rng.chance(0.3)
        root.modifyArray(sites.path(rng.pick(lists))[...]) { a in
            if replace, !a.isEmpty { a[rng.below(a.count)] = node } else { a.insert(node, at: rng.below(a.count + 1)) }
        }
        return kind
    }

    // MARK: Lists

    enum ListOp { case drop, duplicate, move, swap }

    /// Drop, duplicate, swap within a list, or move an element to another list of the same
    /// kind (widgets between bars and sections, sections between a page and a mutation).
    func list(_ op: ListOp, _ lists: [Int], _ root: inout EnvelopeNode, _ rng: inout SeededRandom) -> Bool {
        let from = rng.pick(lists)
        let path = sites.path(from)
        guard case .array(let elements)? = root.node(at: path[...]), !elements.isEmpty else { return false }
        let i = rng.below(elements.count)
        switch op {
        case .drop:
            root.modifyArray(path[...]) { $0.remove(at: i) }
        case .duplicate:
            let at = rng.below(elements.count + 1)
            root.modifyArray(path[...]) { $0.insert(elements[i], at: at) }
        case .swap:
            guard elements.count >= 2 else { return false }
            var j = rng.below(elements.count - 1)
            if j >= i { j += 1 }
            root.modifyArray(path[...]) { $0.swapAt(i, j) }
        case .move:
            var to = sites.path(rng.pick(lists))
            // Into itself (a list inside the moved element): move within its own list.
            if to.count > path.count, Array(to[..<path.count]) == path {
                if to[path.count] == i { to = path } else if to[path.count] > i { to[path.count] -= 1 }
            }
            let element = elements[i]
            root.modifyArray(path[...]) { $0.remove(at: i) }
            var done = false
            root.modifyArray(to[...]) { a in
                a.insert(element, at: rng.below(a.count + 1))
                done = true
            }
            return done
        }
        return true
    }

    // MARK: Widgets and ids

    func setInWidget(_ key: String, _ value: EnvelopeNode, _ root: inout EnvelopeNode, _ rng: inout SeededRandom) -> Bool {
        let w = rng.pick(sites.widgets)
        root.modifyObject(sites.path(w)[...]) { $0.set(key, value) }
        return true
    }

    /// An id some widget holds: the paired page's, another document's, this one's.
    func anyID(_ rng: inout SeededRandom) -> [UInt8] {
        let pools = donors.map(\.sites.ids).filter { !$0.isEmpty }
        return pools.isEmpty ? Array("\"x\"".utf8) : rng.pick(rng.pick(pools))
    }

    /// An id a mutation may find: the paired page's first (the response is applied to it).
    func presentID(_ rng: inout SeededRandom) -> [UInt8] {
        if let ids = donors.first?.sites.ids, !ids.isEmpty { return rng.pick(ids) }
        return anyID(&rng)
    }

    func anyNode(_ rng: inout SeededRandom) -> Int { sites.count > 1 ? 1 + rng.below(sites.count - 1) : 0 }

    // MARK: Mutations

    static let mutationKinds = ["replace_widget", "remove_widget", "append_sections", "prepend_sections", "replace_page", "explode"]

    /// One mutation of `kind` aimed at `id` (a string literal), its payload from the donors.
    func mutations(_ kind: String, id: [UInt8], _ rng: inout SeededRandom) -> [EnvelopeNode] {
        var members = [EnvelopeMember("kind", .string(kind))]
        switch kind {
        case "replace_widget":
            members.append(EnvelopeMember("id", .scalar(id)))
            members.append(EnvelopeMember("widget", donorWidget(&rng)))
        case "remove_widget":
            members.append(EnvelopeMember("id", .scalar(id)))
        case "append_sections", "prepend_sections":
            members.append(EnvelopeMember("sections", .array([donorSection(&rng)])))
        case "replace_page":
            members.append(EnvelopeMember("page", .object([EnvelopeMember("sections", .array([donorSection(&rng)]))])))
        default:
            members.append(EnvelopeMember("id", .scalar(id)))
        }
        return [.object(members)]
    }

    func insertMutations(_ new: [EnvelopeNode], _ root: inout EnvelopeNode, _ rng: inout SeededRandom) -> Bool {
        let list = rng.pick(sites.mutationLists)
        root.modifyArray(sites.path(list)[...]) { a in a.insert(contentsOf: new, at: rng.below(a.count + 1)) }
        return true
    }

    func donorWidget(_ rng: inout SeededRandom) -> EnvelopeNode {
        for donor in donors.shuffled(using: &rng) { if let w = donor.widget(&rng) { return w } }
        return .literal(#"{"type":"title_block","data":{"title":"New"}}"#)
    }

    func donorSection(_ rng: inout SeededRandom) -> EnvelopeNode {
        for donor in donors.shuffled(using: &rng) { if let s = donor.section(&rng) { return s } }
        return .object([EnvelopeMember("widgets", .array([donorWidget(&rng)]))])
    }

    // MARK: Values

    static let unknownTypes = [#""hologram""#, #""Title_Block""#, #""title_block ""#, #""accordion\u0000""#, #""banner2""#]
    static let idSuffixes = ["#2", "#3", "#2#2", "#02", "#1", "#0", "#"]
    static let unknownKeys = ["x_unknown", "Type", "ID", "type ", "__proto__", #"\u0000"#, #"\ud800"#, "sticky", "kind"]
    static let edgeNumbers = ["0e5", "-0", "1e400", "1e-400", "2.0", "9007199254740993", "-1", "2147483648",
                              "18446744073709551616", "0.5", "-9223372036854775809", "1E2", "0.00e5", "255", "256", "65536"]
    /// Built per call: a tree kept in a global reads as a leak to LeakSanitizer (see
    /// ``EnvelopeMutator/pages``).
    static var otherTypes: [EnvelopeNode] { [
        .scalar(Array("null".utf8)), .scalar(Array("true".utf8)), .scalar(Array("0".utf8)), .string(""),
        .array([]), .object([]), .scalar(Array("false".utf8)), .string("x"), .array([.scalar(Array("1".utf8))]),
        .object([EnvelopeMember("text", .string("t"))]),
    ] }
    /// A lone surrogate, NUL, four-byte UTF-8, strings the contract reads (colors, widths,
    /// arrangements), and one long string (100 KB, or what MaxSize leaves).
    static let edgeStrings = [#""\ud800""#, #""\u0000""#, "\"\u{1F600}\u{10348}\"", #""""#, #""\udc00\ud800""#, #""a\ud800b""#,
                              ##""#4F8CFF""##, #""fill""#, #""hug""#, #""12""#, #""carousel""#, #""grid""#, #""https://x/y.png""#]

    func edgeString(_ rng: inout SeededRandom) -> EnvelopeNode {
        if rng.chance(0.1) {
            let length = max(16, min(100_000, maxSize - 64))
            return .scalar([0x22] + [UInt8](repeating: UInt8(ascii: "a"), count: length) + [0x22])
        }
        return .scalar(Array(rng.pick(Self.edgeStrings).utf8))
    }
}

extension EnvelopeNode {
    mutating func modifyArray(_ path: ArraySlice<Int>, _ body: (inout [EnvelopeNode]) -> Void) {
        modify(path) { node in
            guard case .array(var a) = node else { return }
            node = .scalar([])
            body(&a)
            node = .array(a)
        }
    }

    mutating func modifyObject(_ path: ArraySlice<Int>, _ body: (inout [EnvelopeMember]) -> Void) {
        modify(path) { node in
            guard case .object(var m) = node else { return }
            node = .scalar([])
            body(&m)
            node = .object(m)
        }
    }
}
