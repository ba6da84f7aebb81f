import Foundation

/// A flame graph of folded stacks as one self-contained SVG: the root at the bottom, each
/// frame as wide as its inclusive instructions, callees above their caller (in name order,
/// so two graphs of similar runs line up). Hovering names a frame with its count and share;
/// a click zooms to it; Ctrl-F or the Search button highlights the frames a regular
/// expression matches and shows the share of the total they cover.
///
/// Given the stacks of an earlier run (`before`), it is differential: widths stay those of
/// this run, and a frame is red where its own instructions (not its callees') grew, blue
/// where they shrank, the deeper the larger the change.
public struct FlameGraphSVG: Sendable {
    public var title: String
    public var subtitle: String
    public var width = 1200.0

    static let frameHeight = 17.0
    static let top = 58.0
    static let bottomBar = 26.0
    static let fontSize = 11.0
    /// A monospaced font's advance, as a share of its size: fits labels without measuring.
    static let charWidth = 0.6 * fontSize
    /// Frames narrower than this (pixels) are left out; their instructions stay in the parent's width.
    static let minimumWidth = 0.3

    public init(title: String, subtitle: String) {
        self.title = title
        self.subtitle = subtitle
    }

    /// A node of the merged stacks.
    final class Frame {
        let name: String
        var total = 0, ownCount = 0
        var before = 0, ownBefore = 0
        var children: [String: Frame] = [:]
        init(_ name: String) { self.name = name }

        func child(_ name: String) -> Frame {
            if let c = children[name] { return c }
            let c = Frame(name)
            children[name] = c
            return c
        }

        var depth: Int { 1 + (children.values.map(\.depth).max() ?? 0) }
    }

    /// The stacks merged into one tree under an `all` root; `before` adds the earlier
    /// run's counts to the frames of this run's stacks that it also has.
    static func tree(_ stacks: FoldedStacks, before: FoldedStacks?) -> Frame {
        let root = Frame("all")
        func add(_ stack: String, _ count: Int, create: Bool, _ update: (Frame, _ last: Bool) -> Void) {
            let names = stack.split(separator: ";")
            var frame = root
            update(root, names.isEmpty)
            for (i, name) in names.enumerated() {
                guard let next = create ? frame.child(String(name)) : frame.children[String(name)] else { return }
                frame = next
                update(frame, i == names.count - 1)
            }
        }
        for (stack, count) in stacks.counts {
            add(stack, count, create: true) { f, last in f.total += count; if last { f.ownCount += count } }
        }
        // The earlier run's counts go only to frames this run has: the widths are this run's.
        for (stack, count) in before?.counts ?? [:] {
            add(stack, count, create: false) { f, last in f.before += count; if last { f.ownBefore += count } }
        }
        return root
    }

    public func svg(_ stacks: FoldedStacks, before: FoldedStacks? = nil) -> String {
        let root = Self.tree(stacks, before: before)
        let depth = root.depth
        let height = Self.top + Double(depth) * Self.frameHeight + Self.bottomBar + 8
        let total = max(Double(root.total), 1)
        let scale = (width - 20) / total
        var maxChange = 1.0, placedBefore = 0
        if before != nil {
            func visit(_ f: Frame) {
                maxChange = max(maxChange, Double(abs(f.ownCount - f.ownBefore)))
                placedBefore += f.ownBefore
                f.children.values.forEach(visit)
            }
            visit(root)
        }

        var frames: [String] = []
        func draw(_ f: Frame, x: Double, level: Int) {
            let w = Double(f.total) * scale
            guard w >= Self.minimumWidth else { return }
            let y = Self.top + Double(depth - 1 - level) * Self.frameHeight
            var hover = "\(f.name)\n\(Self.grouped(f.total)) instructions, \(Self.percent(Double(f.total) / total))"
            let fill: String, ink: String
            if before != nil {
                let change = Double(f.ownCount - f.ownBefore) / maxChange
                (fill, ink) = Self.differentialColour(change)
                hover += "\nbefore: \(Self.grouped(f.before)), after: \(Self.grouped(f.total)), delta: \(Self.signed(f.total - f.before))\(f.before > 0 ? " (\(Self.signedPercent(Double(f.total - f.before) / Double(f.before))))" : "")"
                hover += "\nown: \(Self.grouped(f.ownBefore)) → \(Self.grouped(f.ownCount)) (\(Self.signed(f.ownCount - f.ownBefore)))"
            } else {
                (fill, ink) = (Self.colour(f.name), "#000")
            }
            let short = Self.shortName(f.name)
            let shortAttribute = short == f.name ? "" : " data-short=\"\(Self.escape(short))\""
            frames.append("<g class=\"f\"\(shortAttribute)><title>\(Self.escape(hover))</title><rect x=\"\(Self.fmt(10 + x * scale))\" y=\"\(Self.fmt(y))\" width=\"\(Self.fmt(w))\" height=\"\(Self.fmt(Self.frameHeight - 1))\" fill=\"\(fill)\" rx=\"2\"/><text x=\"\(Self.fmt(10 + x * scale + 3))\" y=\"\(Self.fmt(y + 12))\" fill=\"\(ink)\">\(Self.escape(Self.label(f.name, width: w)))</text></g>")
            var cx = x
            for c in f.children.values.sorted(by: { $0.name < $1.name }) {
                draw(c, x: cx, level: level + 1)
                cx += Double(c.total)
            }
        }
        draw(root, x: 0, level: 0)

        var legend = before == nil ? "" : " · red: own instructions grew, blue: shrank"
        // Stacks only the earlier run has cannot be drawn at this run's widths: say how much.
        if let before, before.total > placedBefore {
            legend += " · \(Self.grouped(before.total - placedBefore)) earlier instructions on stacks this run lacks"
        }
        return """
        <?xml version="1.0" encoding="UTF-8" standalone="no"?>
        <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" data-total="\(root.total)">
        <style>
        text { font-family: ui-monospace, Menlo, "DejaVu Sans Mono", monospace; font-size: \(Int(Self.fontSize))px; }
        .f rect { stroke: #FFFFFF; stroke-width: 0.5; }
        .f:hover rect { stroke: #000000; stroke-width: 1; }
        .f { cursor: pointer; }
        .hidden { display: none; }
        .ancestor rect { opacity: 0.55; }
        .button { cursor: pointer; fill: #1D4ED8; }
        .button:hover { text-decoration: underline; }
        #title { font-family: Helvetica, Arial, sans-serif; font-size: 17px; font-weight: 600; }
        #subtitle, #details, #matched { font-family: Helvetica, Arial, sans-serif; font-size: 12px; fill: #4B5563; }
        </style>
        <rect width="100%" height="100%" fill="#FDFCFA"/>
        <text id="title" x="10" y="24">\(Self.escape(title))</text>
        <text id="subtitle" x="10" y="44">\(Self.escape(subtitle + legend))</text>
        <text id="reset" class="button hidden" x="\(Int(width) - 130)" y="44" text-anchor="end">Reset zoom</text>
        <text id="search" class="button" x="\(Int(width) - 10)" y="44" text-anchor="end">Search</text>
        <g id="frames">
        \(frames.joined(separator: "\n"))
        </g>
        <text id="details" x="10" y="\(Self.fmt(height - 12))">Hover a frame for its instructions; click to zoom; Ctrl-F to search.</text>
        <text id="matched" x="\(Int(width) - 10)" y="\(Self.fmt(height - 12))" text-anchor="end"></text>
        <script><![CDATA[\(Self.script)]]></script>
        </svg>

        """
    }

    // MARK: Labels and colours

    /// The name cut to what fits `width` pixels, `..` marking the cut; empty when not even
    /// a few characters fit.
    static func label(_ name: String, width: Double) -> String {
        let fits = Int((width - 6) / charWidth)
        guard fits >= 3 else { return "" }
        if name.count <= fits { return name }
        let short = shortName(name)
        return short.count <= fits ? short : String(short.prefix(fits - 2)) + ".."
    }

    /// What a narrow frame shows: the name without the words that say how the code was
    /// compiled (`specialized`, `partial apply for`, …) and without its module or object, so
    /// that the function comes first. The hover text keeps the full name.
    static func shortName(_ name: String) -> String {
        var rest = Substring(name)
        rest = rest.dropFirst(FrameNames.leadingWordsLength(rest, compilationOnly: true))
        if let tick = rest.firstIndex(of: "`") { return String(rest[rest.index(after: tick)...]) }
        if let dot = rest.firstIndex(of: "."), !rest[..<dot].contains(where: { " (<".contains($0) }), rest[rest.index(after: dot)...].contains(where: { $0.isLetter }) {
            rest = rest[rest.index(after: dot)...]
        }
        return String(rest)
    }

    /// Warm colours for Swift code, a hue per module; blue-grey for C and the runtime
    /// (object-qualified names, `libc.so.6`memmove`). The shade varies with the name so that
    /// neighbours differ.
    static func colour(_ name: String) -> String {
        let shade = Double(stableHash(name) % 1000) / 1000
        if name.contains("`") || name == "all" {
            return hsl(205, 0.25 + 0.15 * shade, 0.70 + 0.08 * shade)
        }
        let hues = [12.0, 22, 32, 42, 27, 17]
        return hsl(hues[stableHash(module(name)) % hues.count], 0.75 + 0.15 * shade, 0.58 + 0.1 * shade)
    }

    /// The module a frame name is qualified with (the word before its first dot after
    /// `closure #1 in` and the like).
    static func module(_ name: String) -> String {
        let entity = name.split(separator: " ").first { $0.first?.isUppercase == true && $0.contains(".") } ?? Substring(name)
        return String(entity.prefix { $0 != "." })
    }

    /// Red for growth, blue for shrinkage, white for none; `change` in -1...1.
    static func differentialColour(_ change: Double) -> (fill: String, ink: String) {
        let strength = min(1, abs(change)).squareRoot()  // small changes stay visible
        let fade = Int((1 - strength) * 215)
        let fill = change > 0 ? "rgb(255,\(fade + 20),\(fade + 20))" : change < 0 ? "rgb(\(fade + 20),\(fade + 20),255)" : "rgb(238,238,238)"
        return (fill, strength > 0.7 ? "#FFF" : "#000")
    }

    /// FNV-1a: the same colour for the same name in every run (Swift's Hasher is seeded).
    static func stableHash(_ s: String) -> Int {
        var h: UInt32 = 2_166_136_261
        for b in s.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
        return Int(h)
    }

    static func hsl(_ h: Double, _ s: Double, _ l: Double) -> String {
        "hsl(\(Int(h)),\(Int(s * 100))%,\(Int(l * 100))%)"
    }

    // MARK: Numbers and text

    /// 262,250,000.
    public static func grouped(_ n: Int) -> String {
        let digits = String(abs(n))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    static func signed(_ n: Int) -> String { (n > 0 ? "+" : "") + grouped(n) }
    static func percent(_ share: Double) -> String { String(format: "%.2f%%", share * 100) }
    static func signedPercent(_ share: Double) -> String { String(format: "%+.1f%%", share * 100) }
    static func fmt(_ v: Double) -> String { String(format: "%.1f", v) }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
