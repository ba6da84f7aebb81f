import FlowCore
import FlowJSON

/// Documents shaped to make a careless decoder slow: one of everything the page contract, "Limits and hostile input" names, at
/// any size. The benchmark suite measures each at two sizes (`hostile.<shape>/<n>`) and the
/// tests check, from instruction counts, that cost grows linearly with the size.
///
/// Every shape is valid JSON that a backend could send; `n` is the count of the thing the
/// shape repeats (events, keys, sections, widgets removed…), so the input grows linearly
/// with it.
public enum HostileShape: String, CaseIterable, Sendable {
    /// One widget whose `actions` object has n distinct events.
    case events
    /// One widget sending its `id` n times (the first counts).
    case duplicateWidgetKeys = "duplicate-widget-keys"
    /// One widget whose `data` sends `title` n times.
    case duplicateDataKeys = "duplicate-data-keys"
    /// One widget whose `actions` sends `tap` n times.
    case duplicateActionKeys = "duplicate-action-keys"
    /// One widget with n keys nobody reads.
    case unknownKeys = "unknown-keys"
    /// One `tag_rail` with n tags.
    case tags
    /// One `button_row` with n buttons.
    case buttons
    /// A nav bar with n right buttons.
    case navButtons = "nav-buttons"
    /// n sections of one widget each.
    case sections
    /// n sections all sending the id `s`.
    case sectionIDRepeated = "section-id-repeated"
    /// n widgets asking, in turn, for `x`, `x#2`, `x#2#2`, `x#2#2#2`: every rename collides
    /// with a name someone asked for.
    case renameChain = "rename-chain"
    /// n/2 widgets holding `x#2`…`x#(n/2+1)` explicitly, then n/2 asking for `x`: each rename
    /// must step past names already held.
    case renameSkip = "rename-skip"
    /// One accordion whose n items all send the id `item`.
    case accordionSameID = "accordion-same-id"
    /// A response removing every widget of an n-widget section, first to last.
    case removeAll = "remove-all"
    /// The same, transactional.
    case removeAllTransactional = "remove-all-transactional"
    /// A response replacing every widget of an n-widget section.
    case replaceAll = "replace-all"
    /// A response naming n widgets that are not on the page.
    case missingAll = "missing-all"
    /// A response of n `prepend_sections`, one section each.
    case prependSections = "prepend-sections"
    /// The refresh diff of an n-widget section against itself reversed.
    case diffReversed = "diff-reversed"
    /// An n-widget page with itself appended as its next page (every id collides).
    case mergeSelf = "merge-self"
    /// An n-widget page through the fuzzers' structure-aware mutator (``EnvelopeMutator``),
    /// once for each of four seeds: the parse, the walk, one edit and the write back must
    /// stay linear, or a fuzzer slows to a crawl on its largest inputs.
    case envelopeMutation = "envelope-mutation"

    /// What to run: a document to decode, or an operation on decoded pages.
    public enum Input: Sendable {
        case decode([UInt8])
        case mutate(page: [UInt8], response: [UInt8], transactional: Bool)
        case diff(old: [UInt8], new: [UInt8])
        case merge(page: [UInt8], next: [UInt8])
        /// A page document for the page target's mutator.
        case envelopeMutation([UInt8])

        /// Bytes the operation reads.
        public var bytes: Int {
            switch self {
            case .decode(let b), .envelopeMutation(let b): b.count
            case .mutate(let p, let r, _): p.count + r.count
            case .diff(let o, let n): o.count + n.count
            case .merge(let p, let n): p.count + n.count
            }
        }
    }

    public func input(size n: Int) -> Input {
        func list(_ count: Int, _ item: (Int) -> String) -> String { (0..<count).map(item).joined(separator: ",") }
        func page(sections: String, nav: String = "") -> [UInt8] { Array(#"{"page":{"id":"p",\#(nav)"sections":[\#(sections)]}}"#.utf8) }
        func oneWidget(_ widget: String) -> [UInt8] { page(sections: #"{"id":"s","widgets":[\#(widget)]}"#) }
        let action = #"{"type":"deeplink","url":"app://p/1"}"#
        func section(widgets count: Int) -> [UInt8] { page(sections: #"{"id":"s","widgets":[\#(list(count) { #"{"type":"separator","id":"w\#($0)"}"# })]}"#) }
        func response(_ mutations: String) -> [UInt8] { Array(#"{"mutations":[\#(mutations)]}"#.utf8) }

        switch self {
        case .events:
            return .decode(oneWidget(#"{"type":"separator","id":"a","actions":{\#(list(n) { #""e\#($0)":\#(action)"# })}}"#))
        case .duplicateWidgetKeys:
            return .decode(oneWidget(#"{"type":"separator",\#(list(n) { #""id":"a\#($0)""# })}"#))
        case .duplicateDataKeys:
            return .decode(oneWidget(#"{"type":"title_block","id":"a","data":{\#(list(n) { #""title":"T\#($0)""# })}}"#))
        case .duplicateActionKeys:
            return .decode(oneWidget(#"{"type":"separator","id":"a","actions":{\#(list(n) { _ in #""tap":\#(action)"# })}}"#))
        case .unknownKeys:
            return .decode(oneWidget(#"{"type":"separator","id":"a",\#(list(n) { #""k\#($0)":\#($0)"# })}"#))
        case .tags:
            return .decode(oneWidget(#"{"type":"tag_rail","id":"a","data":{"tags":[\#(list(n) { #"{"text":"Tag \#($0)"}"# })]}}"#))
        case .buttons:
            return .decode(oneWidget(#"{"type":"button_row","id":"a","data":{"buttons":[\#(list(n) { #"{"title":"B\#($0)","action":\#(action)}"# })]}}"#))
        case .navButtons:
            return .decode(page(sections: "", nav: #""nav":{"title":"T","right_buttons":[\#(list(n) { #"{"title":"B\#($0)"}"# })]},"#))
        case .sections:
            return .decode(page(sections: list(n) { #"{"id":"s\#($0)","widgets":[{"type":"separator","id":"w\#($0)"}]}"# }))
        case .sectionIDRepeated:
            return .decode(page(sections: list(n) { _ in #"{"id":"s","widgets":[]}"# }))
        case .renameChain:
            let chain = ["x", "x#2", "x#2#2", "x#2#2#2"]
            return .decode(page(sections: #"{"id":"s","widgets":[\#(list(n) { #"{"type":"separator","id":"\#(chain[$0 % 4])"}"# })]}"#))
        case .renameSkip:
            let held = list(n / 2) { #"{"type":"separator","id":"x#\#($0 + 2)"}"# }
            let asking = list(n - n / 2) { _ in #"{"type":"separator","id":"x"}"# }
            return .decode(page(sections: #"{"id":"s","widgets":[\#(held),\#(asking)]}"#))
        case .accordionSameID:
            return .decode(oneWidget(#"{"type":"accordion","id":"a","data":{"header":"H","items":[\#(list(n) { _ in #"{"type":"separator","id":"item"}"# })]}}"#))
        case .removeAll, .removeAllTransactional:
            return .mutate(page: section(widgets: n), response: response(list(n) { #"{"kind":"remove_widget","id":"w\#($0)"}"# }),
                           transactional: self == .removeAllTransactional)
        case .replaceAll:
            return .mutate(page: section(widgets: n), response: response(list(n) { #"{"kind":"replace_widget","id":"w\#($0)","widget":{"type":"separator"}}"# }),
                           transactional: false)
        case .missingAll:
            return .mutate(page: section(widgets: 16), response: response(list(n) { #"{"kind":"remove_widget","id":"gone\#($0)"}"# }),
                           transactional: false)
        case .prependSections:
            return .mutate(page: section(widgets: 16), response: response(list(n) { #"{"kind":"prepend_sections","sections":[{"id":"p\#($0)","widgets":[{"type":"separator","id":"n\#($0)"}]}]}"# }),
                           transactional: false)
        case .diffReversed:
            let ids = (0..<n).map { #"{"type":"separator","id":"w\#($0)"}"# }
            return .diff(old: page(sections: #"{"id":"s","widgets":[\#(ids.joined(separator: ","))]}"#),
                         new: page(sections: #"{"id":"s","widgets":[\#(ids.reversed().joined(separator: ","))]}"#))
        case .mergeSelf:
            let document = section(widgets: n)
            return .merge(page: document, next: document)
        case .envelopeMutation:
            return .envelopeMutation(section(widgets: n))
        }
    }

    /// The operation on `input`, prepared: decoding what is not measured, and handing back
    /// a closure that does what is (the same work on every call).
    public static func prepare(_ input: Input, decoder: PageDecoder) throws -> () -> Any {
        switch input {
        case .decode(let bytes):
            return { (try? decoder.decode(bytes)) as Any }
        case .mutate(let pageBytes, let responseBytes, let transactional):
            let page = try decoder.decode(pageBytes).page
            return {
                var copy = page
                guard let response = try? decoder.decodeMutations(responseBytes) else { return copy }
                return (decoder.apply(response, to: &copy, transactional: transactional), copy)
            }
        case .diff(let old, let new):
            let (a, b) = (try decoder.decode(old).page, try decoder.decode(new).page)
            return { PageDiff(old: a, new: b) }
        case .merge(let pageBytes, let next):
            let page = try decoder.decode(pageBytes).page
            return {
                var copy = page
                _ = try? decoder.append(nextPage: next, to: &copy)
                return copy
            }
        case .envelopeMutation(let bytes):
            // The page target's mutator, without the fuzz pages a framing may name.
            let mutator = EnvelopeMutator(format: .page, typeNames: Oracles.registry.typeNames, pages: [])
            return { (0..<4).map { mutator.mutate(bytes, maxSize: 4 * bytes.count + 4096, seed: $0, bytes: { $0 }).kind } }
        }
    }
}
