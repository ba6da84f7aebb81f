/// Where the contract's parts sit in one document: found in one walk, by the role each
/// key gives its value in the page contract, so that an edit speaks the contract (a widget
/// is moved between widget lists, a mutation is inserted into `mutations`) instead of
/// hitting bytes.
///
/// Nodes are numbered in document order; a site is a node number, and ``path(_:)`` rebuilds
/// its path from the parent links (as long as the node's depth), so the walk stays linear
/// however deep or wide the document.
struct EnvelopeSites: Sendable {
    /// What a node is in the contract, from the key that holds it.
    enum Role {
        case other, documentRoot, page, bar, section, widget, accordionData, actions, action, response, mutation
        case widgetList, itemList, sectionList, mutationList
    }

    private(set) var parent: [Int] = []
    private(set) var position: [Int] = []
    /// Widget objects (page bars, section headers and bodies, accordion items, mutation
    /// payloads, sheets).
    private(set) var widgets: [Int] = []
    /// Arrays of widgets: bars' and sections' `widgets`.
    private(set) var widgetLists: [Int] = []
    /// Accordions' `items`.
    private(set) var itemLists: [Int] = []
    private(set) var sections: [Int] = []
    private(set) var sectionLists: [Int] = []
    private(set) var mutationLists: [Int] = []
    private(set) var mutations: [Int] = []
    private(set) var objects: [Int] = []
    /// The objects that hold data, not the contract's parts: a widget's `data` and what is
    /// inside it, a document that is data alone (a one-bad-widget replacement).
    private(set) var fieldObjects: [Int] = []
    /// Every array, the contract's lists among them.
    private(set) var arrays: [Int] = []
    /// The arrays that hold data: not a list of widgets, items, sections or mutations.
    private(set) var fieldArrays: [Int] = []
    private(set) var numbers: [Int] = []
    private(set) var strings: [Int] = []
    /// The strings that are a field's value: not a `type`, `id` or `kind` (their own edits
    /// change those), where the data a widget type reads sits.
    private(set) var fieldStrings: [Int] = []
    /// The widgets' ids, as string literals: explicit ones as written, the others positional
    /// (`type@path`, the page contract, "Identity and renaming"), which mutations may aim at too.
    private(set) var ids: [[UInt8]] = []
    private(set) var maxDepth = 0

    var count: Int { parent.count }

    /// The walk of `root`, whose role is `role` (``Role/documentRoot``: decide from its keys).
    init(_ root: EnvelopeNode, role: Role = .documentRoot) {
        visit(root, role: role, parent: -1, position: 0, depth: 1, path: "page", field: true)
    }

    /// The child positions leading from the root to node `n`.
    func path(_ n: Int) -> [Int] {
        var out: [Int] = []
        var i = n
        while i > 0 {
            out.append(position[i])
            i = parent[i]
        }
        return out.reversed()
    }

    /// Keys whose string names rather than holds data.
    private static let namingKeys: [[UInt8]] = [Array("type".utf8), Array("id".utf8), Array("kind".utf8)]

    private static func rootRole(_ node: EnvelopeNode) -> Role {
        if node["page"] != nil { return .documentRoot }
        if node["mutations"] != nil { return .response }
        if node["sections"] != nil || node["header"] != nil || node["footer"] != nil { return .page }
        if node["type"] != nil { return .widget }
        return .other
    }

    private static func memberRole(_ parent: Role, _ key: [UInt8], isAccordion: Bool) -> Role {
        switch (parent, String(decoding: key, as: UTF8.self)) {
        case (.documentRoot, "page"), (.action, "sheet"), (.mutation, "page"): .page
        case (.page, "header"), (.page, "footer"): .bar
        case (.page, "sections"), (.mutation, "sections"): .sectionList
        case (.bar, "widgets"), (.section, "widgets"): .widgetList
        case (.section, "header"), (.mutation, "widget"): .widget
        case (.widget, "data"): isAccordion ? .accordionData : .other
        case (.widget, "actions"): .actions
        case (.actions, _): .action
        case (.accordionData, "items"): .itemList
        case (.response, "mutations"): .mutationList
        default: .other
        }
    }

    private mutating func visit(_ node: EnvelopeNode, role given: Role, parent p: Int, position: Int, depth d: Int, path: String,
                                field: Bool) {
        let me = parent.count
        parent.append(p)
        self.position.append(position)
        maxDepth = max(maxDepth, d)
        let role = given == .documentRoot && p < 0 ? Self.rootRole(node) : given
        switch node {
        case .scalar:
            if node.isNumber {
                numbers.append(me)
            } else if node.isString {
                strings.append(me)
                if field { fieldStrings.append(me) }
            }
        case .array(let elements):
            arrays.append(me)
            let elementRole: Role
            switch role {
            case .widgetList: widgetLists.append(me); elementRole = .widget
            case .itemList: itemLists.append(me); elementRole = .widget
            case .sectionList: sectionLists.append(me); elementRole = .section
            case .mutationList: mutationLists.append(me); elementRole = .mutation
            default: elementRole = .other; fieldArrays.append(me)
            }
            for (n, e) in elements.enumerated() {
                visit(e, role: elementRole, parent: me, position: n, depth: d + 1, path: elementRole == .other ? path : "\(path).\(n)",
                      field: true)
            }
        case .object(let members):
            objects.append(me)
            var isAccordion = false
            switch role {
            case .widget:
                widgets.append(me)
                let type = node["type"]?.stringContents.map { Array($0) } ?? []
                isAccordion = type == Array("accordion".utf8)
                if let id = node["id"], id.isString, id.stringContents?.isEmpty == false, case .scalar(let raw) = id {
                    ids.append(raw)
                } else if !type.isEmpty {
                    ids.append([0x22] + type + Array("@\(path)".utf8) + [0x22])
                }
            case .section: sections.append(me)
            case .mutation: mutations.append(me)
            case .other, .accordionData: fieldObjects.append(me)
            default: break
            }
            for (n, m) in members.enumerated() {
                let childRole = Self.memberRole(role, m.key, isAccordion: isAccordion)
                let key = String(decoding: m.key, as: UTF8.self)
                let childPath = switch childRole {
                case .page: "page"
                case .bar: "page.\(key)"
                case .other, .actions, .action: path
                case .accordionData: "\(path).data"
                case .itemList: "\(path).items"
                default: "\(path).\(key)"
                }
                visit(m.value, role: childRole, parent: me, position: n, depth: d + 1, path: childPath,
                      field: !Self.namingKeys.contains(m.key))
            }
        }
    }
}
