/// A structure-aware mutator for the page-shaped fuzz targets (`LLVMFuzzerCustomMutator`,
/// `LLVMFuzzerCustomCrossOver`): most byte mutations of a page break its JSON, so most
/// executions would end in the scanner; this one parses the input with FlowJSON and makes
/// one edit that keeps it JSON and speaks the page contract: widgets, sections and
/// accordion items dropped, duplicated, moved or swapped; types and ids changed; values
/// replaced by other types and by edge numbers and strings; unknown and duplicate keys;
/// deeper accordions; mutations of every kind aimed at present, missing and just-removed
/// widgets. It falls back to libFuzzer's byte mutator (`bytes`, a closure, so tests run
/// without libFuzzer) when the input does not parse, when the edit would not fit `maxSize`,
/// and on a share of the calls (`envelopeShare`): the byte level still finds what breaks
/// the scanner, and what only a broken spelling reaches.
///
/// Deterministic: the same input, seed and share give the same output, so a run replays.
/// Pure Swift over arbitrary bytes: bad input never traps, and every step is linear in the
/// input's size (the parse, one walk, one edit along one path, one write).
public struct EnvelopeMutator: Sendable {
    /// How a target frames its JSON: the mutator edits the JSON and keeps the framing.
    public enum Format: Sendable {
        /// An optional option-selector byte (`0x80...0xBF`), then a page document (`page`).
        case page
        /// The whole input is a page document (`decodable`).
        case document
        /// Byte 0 page and options, bytes 1-2 slot, then the replacement JSON
        /// (`one-bad-widget`, ``OneBadWidget/Input``).
        case oneBadWidget
        /// A selector byte, then a document paired with a fuzz page, or two documents
        /// split at a NUL (`mutation`, `merge-diff`, `FuzzPairInput`).
        case pair
        /// ``FuzzTarget/host(name:registry:pages:)``: a byte of `0xC0` or more, then a
        /// one-bad-widget input; else as ``page``.
        case host
    }

    /// The edit applied, which tests count (every kind must show up over some seeds).
    public enum Kind: String, CaseIterable, Sendable {
        case dropWidget, duplicateWidget, moveWidget, swapWidgets
        case dropSection, duplicateSection, moveSection, swapSections
        case dropItem, duplicateItem, moveItem, swapItems
        case retypeRegistered, retypeUnknown, retypeEmpty
        case idOther, idEmpty, idSuffixed, idRemoved
        case otherType, edgeNumber, edgeString, unknownKey, duplicateKey, deeperAccordion
        /// A field's value moved a step (EnvelopeEdit+Values.swift).
        case nudgeNumber, numberFromDocument, reshapeString, stringFromDocument, dropMember, swapMembers, reshapeArray
        /// libFuzzer's byte mutator on one number or string (its dictionary, traced comparisons).
        case scalarBytes
        case mutationInsert, mutationMissingTarget, mutationJustRemoved, mutationRekind
        /// The framing's bytes: option bits, the page an input names, a one-bad-widget slot.
        case reframe
        /// Crossover: a widget, section or mutation of the other input spliced in.
        case spliceWidget, spliceSection, spliceMutation
        /// libFuzzer's byte mutator did it.
        case bytes
    }

    /// libFuzzer's byte mutator on one value's bytes (a number's literal, a string's
    /// contents): `LLVMFuzzerMutate` on a buffer of `maxSize` bytes holding `bytes`.
    public typealias ScalarMutator = (_ bytes: [UInt8], _ maxSize: Int) -> [UInt8]

    public let format: Format
    /// The most edits one mutation stacks (1, then each further one half as likely).
    public var maxEdits = 4
    /// The registered widget types a retype may pick (the target's registry's).
    let typeNames: [String]
    /// The pages a framing names by index (flow-core's fuzz pages, or a host's): ids mutations aim at,
    /// widgets and sections to bring in. Kept as bytes and parsed when an input names one:
    /// a tree kept for the process's life reads as a leak to LeakSanitizer, which cannot
    /// see the pointers Swift tags with an enum's case in their spare bits.
    let pages: [[UInt8]]

    public init(format: Format, typeNames: [String], pages: [[UInt8]]) {
        self.format = format
        self.typeNames = typeNames.isEmpty ? ["accordion"] : typeNames
        self.pages = pages
    }

    /// One mutation of `input`: the output (at most `maxSize` bytes) and the kind applied
    /// first. `bytes` is libFuzzer's `LLVMFuzzerMutate` on the input (its result, at most
    /// `maxSize`); `scalars`, when given, the same on one value (``Kind/scalarBytes``).
    public func mutate(_ input: [UInt8], maxSize: Int, seed: UInt32, envelopeShare: Double = 1,
                       bytes: ([UInt8]) -> [UInt8], scalars: ScalarMutator? = nil) -> (output: [UInt8], kind: Kind) {
        let (output, kinds) = mutations(input, maxSize: maxSize, seed: seed, envelopeShare: envelopeShare, bytes: bytes, scalars: scalars)
        return (output, kinds[0])
    }

    /// ``mutate(_:maxSize:seed:envelopeShare:bytes:scalars:)`` with every kind applied, in
    /// order: one edit, or up to ``maxEdits`` stacked (each further one half as likely), the
    /// sites found again after each, as the last edit moved them.
    public func mutations(_ input: [UInt8], maxSize: Int, seed: UInt32, envelopeShare: Double = 1,
                          bytes: ([UInt8]) -> [UInt8], scalars: ScalarMutator? = nil) -> (output: [UInt8], kinds: [Kind]) {
        var rng = SeededRandom(seed: UInt64(seed) &* 0x2545_F491_4F6C_DD1D ^ 0xE17E_1095)
        guard input.count <= maxSize, rng.chance(envelopeShare), var framed = EnvelopeFrame(input, format: format, pages: pages.count) else {
            return (bytes(input), [.bytes])
        }
        let parsed = framed.parts.indices.compactMap { i in EnvelopeNode(parsing: framed.parts[i]).map { (i, $0) } }
        guard !parsed.isEmpty else { return (bytes(input), [.bytes]) }
        let (part, tree) = rng.pick(parsed)
        var sites = EnvelopeSites(tree)
        var donors = [EnvelopeDonor(tree: tree, sites: sites)]
        if let page = framed.page, pages.indices.contains(page), let donor = EnvelopeDonor(pages[page]) { donors.insert(donor, at: 0) }
        for (i, other) in parsed where i != part { donors.insert(EnvelopeDonor(tree: other, sites: EnvelopeSites(other)), at: 0) }

        var wanted = 1
        while wanted < maxEdits && rng.chance(0.5) { wanted += 1 }
        var edited = tree
        var kinds: [Kind] = []
        for _ in 0..<(8 * wanted) where kinds.count < wanted {
            let kind = pickKind(sites, canReframe: framed.canReframe, scalars: scalars != nil, &rng)
            if kind == .reframe {
                framed.reframe(&rng, pages: pages.count)
            } else {
                var edit = EnvelopeEdit(sites: sites, donors: donors, typeNames: typeNames, maxSize: maxSize - input.count)
                edit.scalars = scalars
                var next = edited
                guard edit.apply(kind, to: &next, &rng) else { continue }
                edited = next
                // A value rewritten in place leaves every part where it was; any other edit
                // moves them, and the next edit needs them found again.
                if kinds.count + 1 < wanted, !Self.keepsSites.contains(kind) { sites = EnvelopeSites(edited) }
            }
            kinds.append(kind)
        }
        guard !kinds.isEmpty else { return (bytes(input), [.bytes]) }
        framed.parts[part] = edited.bytes
        let output = framed.bytes
        return output.count <= maxSize ? (output, kinds) : (bytes(input), [.bytes])
    }

    /// The edits that rewrite one number or string as another of its kind: the document's
    /// parts stay where they were.
    static let keepsSites: Set<Kind> = [.nudgeNumber, .numberFromDocument, .reshapeString, .stringFromDocument, .scalarBytes]

    /// A family by weight, then one of its kinds (``EnvelopeEdit/applicable(_:scalars:)``);
    /// the framing's edit is a family of its own.
    func pickKind(_ sites: EnvelopeSites, canReframe: Bool, scalars: Bool, _ rng: inout SeededRandom) -> Kind {
        var families = EnvelopeEdit.applicable(sites, scalars: scalars)
        if canReframe { families.append((1, [.reframe])) }
        var roll = rng.below(families.reduce(0) { $0 + $1.weight })
        for family in families {
            if roll < family.weight { return rng.pick(family.kinds) }
            roll -= family.weight
        }
        return .edgeString
    }

    /// `LLVMFuzzerCustomCrossOver`: `a` with a widget, section or mutation of `b` spliced
    /// in (inserted, or in place of one of `a`'s); nil when either does not parse, or `b`
    /// has nothing `a` has a place for, or the result would not fit `maxSize`.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], maxSize: Int, seed: UInt32) -> (output: [UInt8], kind: Kind)? {
        var rng = SeededRandom(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 ^ 0xC405_5000)
        guard a.count <= maxSize, var framed = EnvelopeFrame(a, format: format, pages: pages.count),
              let other = EnvelopeFrame(b, format: format, pages: pages.count) else { return nil }
        let mine = framed.parts.indices.compactMap { i in EnvelopeNode(parsing: framed.parts[i]).map { (i, $0) } }
        let theirs = other.parts.compactMap { EnvelopeNode(parsing: $0) }
        guard !mine.isEmpty, !theirs.isEmpty else { return nil }
        let (part, tree) = rng.pick(mine)
        let donorTree = rng.pick(theirs)
        let donor = EnvelopeDonor(tree: donorTree, sites: EnvelopeSites(donorTree))
        var edit = EnvelopeEdit(sites: EnvelopeSites(tree), donors: [donor], typeNames: typeNames, maxSize: maxSize - a.count)
        var edited = tree
        guard let kind = edit.splice(into: &edited, &rng) else { return nil }
        framed.parts[part] = edited.bytes
        let output = framed.bytes
        return output.count <= maxSize ? (output, kind) : nil
    }
}

/// A document edits may take widgets, sections and ids from: the page a framing names, the
/// other document of a pair, the document itself.
struct EnvelopeDonor: Sendable {
    let tree: EnvelopeNode
    let sites: EnvelopeSites

    init(tree: EnvelopeNode, sites: EnvelopeSites) {
        self.tree = tree
        self.sites = sites
    }

    init?(_ bytes: [UInt8]) {
        guard let tree = EnvelopeNode(parsing: bytes) else { return nil }
        self.init(tree: tree, sites: EnvelopeSites(tree))
    }

    func widget(_ rng: inout SeededRandom) -> EnvelopeNode? {
        sites.widgets.isEmpty ? nil : tree.node(at: sites.path(rng.pick(sites.widgets))[...])
    }

    func section(_ rng: inout SeededRandom) -> EnvelopeNode? {
        sites.sections.isEmpty ? nil : tree.node(at: sites.path(rng.pick(sites.sections))[...])
    }

    func mutation(_ rng: inout SeededRandom) -> EnvelopeNode? {
        sites.mutations.isEmpty ? nil : tree.node(at: sites.path(rng.pick(sites.mutations))[...])
    }
}
