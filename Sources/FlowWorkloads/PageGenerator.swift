import FlowJSON

/// A deterministic generator of realistic page documents: same options, same bytes.
///
/// The mix follows what a commerce or feed home page sends: product cards with images, tags
/// and tap actions, banners, title blocks, tag rails, button rows, steppers, separators and
/// accordions; atoms in both shorthand and object form; nav, a sticky filter header, section
/// headers, a sticky cart footer, pagination with a postback (an integer cursor above 2^53).
/// Knobs add bad widgets (each diagnostic kind a page decode can produce) and duplicate ids.
public struct PageGenerator: Sendable {
    public struct Options: Sendable, Hashable {
        /// Widgets in section bodies (headers, footers and accordion items come on top).
        public var widgets: Int
        public var seed: UInt64
        /// Share of widgets that are broken in some way (0...1).
        public var badRate: Double
        /// Share of widgets that reuse an id already on the page (0...1).
        public var duplicateRate: Double
        /// Number of sections; nil picks about one per 40 widgets.
        public var sections: Int?
        /// Deepest accordion nesting (0: no accordions).
        public var nesting: Int
        /// Where section positions and ids start (a next page continues a first one).
        public var firstSection: Int
        /// How section widgets choose their ids.
        public var idMode: IDMode = .realistic

        public enum IDMode: String, Sendable, Hashable {
            /// Mostly explicit and distinct (one in ten positional), `duplicateRate` reused.
            case realistic
            /// Every section widget sends the same id: the renaming worst case.
            case allSame
            /// Every section widget sends an id of its own.
            case allDistinct
        }

        public init(widgets: Int = 1000, seed: UInt64 = 1, badRate: Double = 0, duplicateRate: Double = 0,
                    sections: Int? = nil, nesting: Int = 1, firstSection: Int = 0) {
            self.widgets = widgets
            self.seed = seed
            self.badRate = badRate
            self.duplicateRate = duplicateRate
            self.sections = sections
            self.nesting = nesting
            self.firstSection = firstSection
        }

        public var sectionCount: Int { max(1, sections ?? (widgets + 39) / 40) }
    }

    public var options: Options

    public init(_ options: Options) { self.options = options }

    /// The page document.
    public func generate() -> [UInt8] {
        var state = State(options: options)
        return state.document()
    }

    /// Only the sections, as a next page (`{"page": {sections, pagination}}`, with a nav,
    /// header and footer a merge must ignore).
    public func generateNextPage() -> [UInt8] {
        var state = State(options: options)
        return state.document(nextPage: true)
    }
}

private struct State {
    let options: PageGenerator.Options
    var rng: SeededRandom
    var w = JSONWriter()
    var serial = 0
    var usedIDs: [String] = []

    init(options: PageGenerator.Options) {
        self.options = options
        self.rng = SeededRandom(seed: options.seed &* 0x2545_F491_4F6C_DD1D &+ 17)
        w = JSONWriter(reservingCapacity: options.widgets * 420 + 4096)
    }

    mutating func raw(_ s: StaticString) { w.writeRaw(s) }
    mutating func byte(_ c: Character) { w.writeByte(c.asciiValue!) }
    mutating func string(_ s: String) { w.writeString(s) }
    mutating func number(_ n: Int) { w.write(.number(JSONNumber(Int64(n)))) }
    mutating func number(_ d: Double) { w.write(.number(JSONNumber(d)!)) }
    mutating func key(_ k: StaticString) {
        byte("\"")
        raw(k)
        raw("\":")
    }
    mutating func comma() { byte(",") }

    mutating func document(nextPage: Bool = false) -> [UInt8] {
        raw("{\"page\":{")
        key("id"); string(nextPage ? "feed_page_\(options.seed)" : "home_\(options.seed)"); comma()
        key("nav"); nav(); comma()
        key("header"); bar(sticky: true, filters: true); comma()
        key("sections"); byte("[")
        let sectionCount = options.sectionCount
        var remaining = options.widgets
        for s in 0..<sectionCount {
            if s > 0 { comma() }
            let count = s == sectionCount - 1 ? remaining : options.widgets / sectionCount
            remaining -= count
            section(options.firstSection + s, widgets: count)
        }
        byte("]"); comma()
        key("footer"); bar(sticky: true, filters: false); comma()
        key("pagination"); byte("{")
        key("has_more"); raw("true"); comma()
        key("postback"); byte("{")
        key("cursor"); raw("9007199254740993"); comma()
        key("page"); number(options.firstSection / max(1, options.sectionCount) + 2); comma()
        key("session"); string("s-\(options.seed)-\(options.widgets)")
        raw("}}"); comma()
        key("refresh"); raw("{\"pull_to_refresh\":true}")
        raw("}}")
        return w.bytes
    }

    mutating func nav() {
        byte("{")
        key("title"); string("Home"); comma()
        key("subtitle"); raw("{\"text\":\"Deals picked for you\",\"color\":\"#6B7280\"}"); comma()
        key("bg_color"); string("#FFFFFF"); comma()
        key("left_button"); raw("{\"title\":\"Back\",\"action\":{\"type\":\"dismiss\"}}"); comma()
        key("right_buttons"); raw("[{\"title\":\"Cart\",\"icon\":\"cart\",\"action\":{\"type\":\"deeplink\",\"url\":\"app://cart\"}},{\"title\":{\"text\":\"Search\"},\"icon\":{\"symbol\":\"magnifyingglass\",\"size\":18}}]")
        byte("}")
    }

    mutating func bar(sticky: Bool, filters: Bool) {
        byte("{")
        key("sticky"); sticky ? raw("true") : raw("false"); comma()
        key("widgets"); byte("[")
        if filters {
            widget(kind: 6, id: "filters", depth: 0)
        } else {
            widget(kind: 3, id: "cart_bar", depth: 0)
        }
        raw("]}")
    }

    mutating func section(_ index: Int, widgets count: Int) {
        byte("{")
        key("id"); string("sec_\(index)"); comma()
        key("layout"); byte("{")
        let arrangement = ["vertical", "carousel", "grid", "vertical"][index % 4]
        key("arrangement"); string(arrangement)
        if arrangement == "grid" { comma(); key("columns"); number(2) }
        comma(); key("item_spacing"); number(12)
        comma(); key("insets"); raw("{\"top\":8,\"left\":16,\"right\":16,\"bottom\":8}")
        byte("}"); comma()
        key("header"); byte("{")
        key("type"); string("title_block"); comma()
        key("id"); string("sec_\(index)_title"); comma()
        key("data"); byte("{"); key("title"); string(Self.sectionTitles[index % Self.sectionTitles.count])
        comma(); key("subtitle"); raw("{\"text\":\"Updated hourly\",\"font\":{\"size\":13,\"weight\":\"regular\"}}")
        raw("}}"); comma()
        key("widgets"); byte("[")
        for i in 0..<count {
            if i > 0 { comma() }
            if rng.chance(options.badRate) {
                badWidget()
            } else {
                widget(kind: nil, id: nil, depth: 0)
            }
        }
        raw("]}")
    }

    /// Weighted mix: cards dominate, as on real pages.
    static let mix: [Int] = [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]
    static let types = ["image_text_card", "title_block", "banner", "button_row", "separator", "stepper_row", "tag_rail", "accordion"]
    static let sectionTitles = ["Popular this week", "New arrivals", "Because you viewed", "Top rated", "Deals ending soon", "Recommended"]
    static let products = ["AirPods Pro 2", "Ceramic pour-over set", "Linen throw blanket", "Trail running shoes", "Beeswax candle trio",
                           "Cast iron skillet 26 cm", "Noise-cancelling headphones", "Stoneware dinner plates", "Merino wool socks", "Desk lamp, warm white"]
    static let tags = ["New", "-20%", "Free delivery", "Bestseller", "Eco", "Last items"]

    mutating func nextID(_ type: String) -> String {
        if !usedIDs.isEmpty && rng.chance(options.duplicateRate) { return rng.pick(usedIDs) }
        serial += 1
        let id = "\(type == "image_text_card" ? "product" : type)_\(options.seed)_\(serial)"
        if usedIDs.count < 4096 { usedIDs.append(id) }
        return id
    }

    mutating func widget(kind: Int?, id fixedID: String?, depth: Int) {
        var k = kind ?? rng.pick(Self.mix)
        if k == 7 && depth >= options.nesting { k = 1 }
        let type = Self.types[k]
        byte("{")
        key("type"); string(type); comma()
        // Most widgets send an id; a few rely on their positional one.
        switch (fixedID, options.idMode) {
        case (let id?, _): key("id"); string(id); comma()
        case (nil, .allSame): key("id"); string("same"); comma()
        case (nil, .allDistinct): serial += 1; key("id"); string("w\(serial)"); comma()
        case (nil, .realistic): if rng.below(10) > 0 { key("id"); string(nextID(type)); comma() }
        }
        if rng.below(10) < 3 { key("layout"); layout(); comma() }
        key("data"); data(k, depth: depth)
        if k != 4 && rng.below(2) == 0 { comma(); key("actions"); actions() }
        if rng.below(2) == 0 { comma(); key("tracking"); tracking() }
        byte("}")
    }

    mutating func layout() {
        byte("{")
        switch rng.below(4) {
        case 0:
            key("corner_radius"); number(12); comma()
            key("margin"); raw("{\"left\":16,\"right\":16}")
        case 1:
            key("padding"); raw("{\"top\":12,\"left\":12,\"right\":12,\"bottom\":12}"); comma()
            key("background"); raw("{\"hex\":\"#F9FAFB\",\"dark_hex\":\"#111827\"}"); comma()
            key("corner_radius"); raw("{\"top_left\":16,\"top_right\":16}")
        case 2:
            key("width"); rng.chance(0.5) ? string("fill") : string("0.8"); comma()
            key("border"); raw("{\"width\":1,\"color\":\"#E5E7EB\"}")
        default:
            key("gradient"); raw("{\"colors\":[\"#FDE68A\",{\"hex\":\"#F59E0B\",\"alpha\":0.9}],\"angle\":90}"); comma()
            key("width"); string("hug")
        }
        byte("}")
    }

    mutating func text(_ s: String) {
        if rng.chance(0.6) {
            string(s)
        } else {
            byte("{"); key("text"); string(s); comma()
            key("font"); raw("{\"size\":15,\"weight\":\"semibold\"}"); comma()
            key("max_lines"); number(2); byte("}")
        }
    }

    mutating func image() {
        let n = rng.below(100_000)
        if rng.chance(0.5) {
            string("https://img.example-cdn.com/p/\(n)/hero.jpg")
        } else {
            byte("{"); key("url"); string("https://img.example-cdn.com/p/\(n)/square.webp"); comma()
            key("aspect_ratio"); number(1.333); comma()
            key("scale_mode"); string("fill"); comma()
            key("corner_radius"); number(8); comma()
            key("placeholder_color"); string("#E5E7EB"); comma()
            key("shimmer"); raw("true"); byte("}")
        }
    }

    mutating func tag() {
        byte("{"); key("text"); string(rng.pick(Self.tags)); comma()
        key("bg_color"); rng.chance(0.5) ? string("#DCFCE7") : raw("{\"token\":\"success_bg\"}")
        if rng.chance(0.3) { comma(); key("icon"); string("bolt.fill") }
        byte("}")
    }

    mutating func button(_ title: String) {
        byte("{"); key("title"); text(title); comma()
        key("style"); string(rng.chance(0.5) ? "primary" : "secondary"); comma()
        key("bg_color"); string("#2563EB"); comma()
        key("action"); raw("{\"type\":\"api\",\"endpoint\":\"cart/add\",\"sku\":"); number(rng.below(1_000_000))
        raw("}}")
    }

    mutating func data(_ k: Int, depth: Int) {
        byte("{")
        switch k {
        case 0:  // image_text_card
            key("title"); text(rng.pick(Self.products)); comma()
            key("image"); image(); comma()
            key("subtitle"); string("€\(rng.below(200)).\(rng.below(90) + 10) · \(rng.below(5) + 1) colours"); comma()
            key("tags"); byte("["); tag(); byte("]")
            if rng.chance(0.25) { comma(); key("trailing_icon"); raw("{\"symbol\":\"heart\",\"size\":20}") }
        case 1:  // title_block
            key("title"); text(rng.pick(Self.sectionTitles)); comma()
            key("subtitle"); text("See all \(rng.below(300) + 20) items")
        case 2:  // banner
            key("image"); image(); comma()
            key("title"); text("Spring sale: up to \(rng.below(5) * 10 + 20)% off"); comma()
            key("subtitle"); string("Ends Sunday at midnight")
        case 3:  // button_row
            key("buttons"); byte("["); button("Add to cart")
            if rng.chance(0.3) { comma(); button("Buy now") }
            byte("]")
        case 4:  // separator
            key("style"); string("solid"); comma()
            key("color"); string("#E5E7EB"); comma()
            key("thickness"); number(1); comma()
            key("insets"); raw("{\"left\":16,\"right\":16}")
        case 5:  // stepper_row
            key("title"); text("Quantity"); comma()
            key("subtitle"); string("Max \(rng.below(8) + 2) per order"); comma()
            key("min"); number(1); comma()
            key("max"); number(10); comma()
            key("initial"); number(1)
        case 6:  // tag_rail
            key("tags"); byte("[")
            for t in 0..<(2 + rng.below(3)) {
                if t > 0 { comma() }
                tag()
            }
            byte("]")
        default:  // accordion
            key("header"); text("Details and care"); comma()
            key("initially_expanded"); raw("false"); comma()
            key("items"); byte("[")
            widget(kind: 1, id: nil, depth: depth + 1)
            comma()
            widget(kind: rng.pick([4, 5, 7]), id: nil, depth: depth + 1)
            byte("]")
        }
        byte("}")
    }

    mutating func actions() {
        byte("{")
        key("tap")
        switch rng.below(4) {
        case 0: raw("{\"type\":\"deeplink\",\"url\":\"app://product/"); number(rng.below(1_000_000)); raw("\"}")
        case 1: raw("{\"type\":\"open_bottom_sheet\",\"sheet\":{\"id\":\"quick_view\",\"config\":{\"detents\":[\"medium\"]}}}")
        case 2: raw("{\"type\":\"api\",\"endpoint\":\"favourites/toggle\",\"body\":{\"id\":"); number(rng.below(1_000_000)); raw("}}")
        default: raw("{\"type\":\"toast\",\"message\":\"Added to your list\",\"duration\":2.5}")
        }
        if rng.chance(0.3) { comma(); key("long_press"); raw("{\"type\":\"toast\",\"message\":\"Hold to preview\"}") }
        byte("}")
    }

    mutating func tracking() {
        byte("{")
        key("impression_id"); string("imp_\(options.seed)_\(rng.below(10_000_000))"); comma()
        key("position"); number(rng.below(500)); comma()
        key("list"); string("home_feed")
        byte("}")
    }

    /// One broken widget, cycling through what a page decode can survive.
    mutating func badWidget() {
        switch rng.below(8) {
        case 0: number(rng.below(100))  // not an object: dropped_element
        case 1: raw("{\"id\":\"no_type\",\"data\":{\"title\":\"x\"}}")  // no type: dropped_element
        case 2: byte("{"); key("type"); string("hologram_\(rng.below(3))"); raw(",\"data\":{\"beam\":true}}")  // unknown_type
        case 3: byte("{"); key("type"); string("image_text_card"); raw(",\"data\":{\"subtitle\":\"no title\"}}")  // malformed_payload
        case 4: byte("{"); key("type"); string("stepper_row"); raw(",\"data\":{\"title\":\"Qty\",\"max\":\"ten\"}}")  // malformed_payload
        case 5: byte("{"); key("type"); string("banner"); raw(",\"layout\":\"wide\",\"data\":{\"image\":\"https://img.example-cdn.com/b.jpg\"}}")  // invalid_field layout
        case 6: byte("{"); key("type"); string("title_block"); raw(",\"id\":17,\"data\":{\"title\":\"Numbered\"}}")  // invalid_field id
        default: byte("{"); key("type"); string("title_block"); raw(",\"data\":{\"title\":\"Tap me\"},\"actions\":{\"tap\":{\"kind\":\"toast\"}}}")  // invalid_field event
        }
    }
}
