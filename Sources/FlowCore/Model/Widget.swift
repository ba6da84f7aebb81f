import FlowJSON

/// One widget: the uniform envelope (id, type, layout, actions, tracking) around content
/// only its registered type understands.
///
/// `data`, the action objects and `tracking` are kept exactly as received, so the widget
/// writes back out unchanged.
///
/// A widget's `type`, `data` and `content` change together, never one without the others:
/// the content is what the registry's type for `type` decodes from `data`, and the encoder
/// writes `data`. So they are read-only here; a widget with other content is made from its
/// element JSON (`PageDecoder.decodeWidget(_:path:)`) or takes another widget's
/// (``replaceContent(with:)``, ``init(id:contentOf:layout:actions:tracking:)``), and a page
/// built or changed in code encodes and decodes back to an equal page
/// (<doc:ImplementationChoices>). Equality covers every field but the fingerprint, which is a
/// cache of the content fields (kept current as they change) for the refresh diff.
public struct Widget: Sendable, Equatable, Identifiable {
    // Stored properties are laid out in declaration order: this one keeps the struct at 112
    // bytes with no padding (a page holds one per widget).

    /// Present and unique on the page after every operation (<doc:PageContract#Identity-and-renaming>).
    public var id: String { didSet { idHash = IDHash.of(id) } }
    /// A 64-bit hash of `id`'s bytes, kept beside it so a diff matches widgets without
    /// rehashing 100,000 strings (and, with the fingerprint next to it, reads one cache
    /// line per widget).
    var idHash: UInt64
    /// The fingerprint, or 0 when it must be computed (``Fingerprint`` never gives 0).
    private var fingerprintCache: UInt64
    public internal(set) var type: String { didSet { refreshFingerprint() } }
    /// Event name (`tap`, `long_press`, `change`, …) to action.
    public var actions: WidgetActions { didSet { refreshFingerprint() } }
    /// Boxed because most widgets have no layout, and a layout is a few hundred bytes;
    /// shared between widgets whose layouts are equal (the decoder interns them).
    private(set) var layoutBox: LayoutBox?
    public var tracking: RawJSON? { didSet { refreshFingerprint() } }
    /// The raw `data` (`{}` when it was absent): what the encoder writes.
    public internal(set) var data: RawJSON { didSet { refreshFingerprint() } }
    /// The model the registry decoded from ``data`` for ``type``, or a placeholder saying
    /// why there is none.
    public internal(set) var content: WidgetContent
    public var layout: WidgetLayout {
        get { layoutBox?.layout ?? .default }
        set {
            layoutBox = LayoutBox.boxing(newValue)
            fingerprintCache = 0
        }
    }
    /// The fingerprint the decoder stored, if it is still current. The diff reads this
    /// first: a trivial getter, where ``fingerprint`` on an array element copies the widget.
    var storedFingerprint: UInt64? { fingerprintCache == 0 ? nil : fingerprintCache }
    /// The content model as `T`, when it is one: the value the type registered for this
    /// widget's `type` decoded from its `data` (see ``WidgetRegistry/register(_:as:)``), and
    /// nil for a placeholder or another type.
    ///
    ///     if let price = page.widget(id: "total")?.model(as: PriceTag.self) { show(price) }
    public func model<T>(as type: T.Type) -> T? { content.model(as: T.self) }

    /// A field changed: the stored fingerprint no longer describes the widget.
    private mutating func refreshFingerprint() { fingerprintCache = 0 }

    public static func == (a: Widget, b: Widget) -> Bool {
        a.id == b.id && a.type == b.type && a.layout == b.layout && a.actions == b.actions
            && a.tracking == b.tracking && a.data == b.data && a.content == b.content
    }
}

// The initializers live in an extension so that the struct keeps its memberwise
// initializer, which the decoder's goes through (see there).
extension Widget {
    /// A placeholder of `type`: a widget whose content did not decode (`kind` says why), kept
    /// with its `data` as received. The host shows a placeholder view, or nothing.
    public init(id: String, type: String, placeholder kind: Diagnostic.Kind, data: RawJSON = .emptyObject,
                layout: WidgetLayout = .default, actions: WidgetActions = WidgetActions(), tracking: RawJSON? = nil) {
        self.init(id: id, type: type, layout: layout, actions: actions, tracking: tracking, data: data,
                  content: .placeholder(kind))
    }

    /// A widget with `other`'s type, data and content under its own id and envelope.
    public init(id: String, contentOf other: Widget, layout: WidgetLayout = .default,
                actions: WidgetActions = WidgetActions(), tracking: RawJSON? = nil) {
        self.init(id: id, type: other.type, layout: layout, actions: actions, tracking: tracking, data: other.data,
                  content: other.content)
    }

    /// Takes `other`'s type, data and content, keeping this widget's id, layout, actions and
    /// tracking.
    public mutating func replaceContent(with other: Widget) {
        type = other.type
        data = other.data
        content = other.content
    }

    init(id: String, type: String, layout: WidgetLayout = .default, actions: WidgetActions = WidgetActions(),
         tracking: RawJSON? = nil, data: RawJSON = .emptyObject, content: WidgetContent) {
        self.init(id: id, type: type, layoutBox: LayoutBox.boxing(layout), actions: actions,
                  tracking: tracking, data: data, content: content, fingerprint: nil)
    }

    /// With the fingerprint the decoder computed from the element (nil: hash the model),
    /// and the layout already boxed (nil for the default), so equal layouts share a box.
    init(id: String, type: String, layoutBox: LayoutBox?, actions: WidgetActions, tracking: RawJSON?,
         data: RawJSON, content: WidgetContent, fingerprint: UInt64?) {
        // Through the memberwise initializer: an initializer that assigns the stored
        // properties one by one builds `self` in a stack slot, and the optimizer then copies
        // the finished widget out of it (a retain and a release of each of its ten
        // references, for every decoded widget).
        self.init(id: id, idHash: IDHash.of(id), fingerprintCache: fingerprint ?? 0, type: type, actions: actions,
                  layoutBox: layoutBox, tracking: tracking, data: data, content: content)
    }
}

final class LayoutBox: Sendable {
    let layout: WidgetLayout
    private init(_ layout: WidgetLayout) { self.layout = layout }

    /// A box for `layout`; nil for the default layout, which widgets do not box.
    static func boxing(_ layout: WidgetLayout) -> LayoutBox? { layout.isDefault ? nil : LayoutBox(layout) }
}
