/// A run of widgets with an arrangement, and optionally a header widget that pins while
/// the section scrolls.
public struct Section: Sendable, Equatable, Identifiable {
    /// Unique among the page's sections (their own namespace).
    public var id: String
    public var layout: SectionLayout
    public var header: Widget?
    public var widgets: [Widget]
    private var memberwise = Memberwise()
}

extension Section {
    public init(id: String, layout: SectionLayout = .default, header: Widget? = nil, widgets: [Widget] = []) {
        self.init(id: id, layout: layout, header: header, widgets: widgets, memberwise: Memberwise())
    }
}

/// A page header or footer: a strip of widgets, pinned outside the scroll area when sticky.
public struct PageBar: Sendable, Equatable {
    /// `true` when the document leaves it out.
    public var sticky: Bool
    public var widgets: [Widget]

    public init(sticky: Bool = true, widgets: [Widget] = []) {
        self.sticky = sticky
        self.widgets = widgets
    }
}

/// The navigation bar. Each part that fails to decode is absent (with a diagnostic);
/// right buttons are lossy one by one.
public struct NavBar: Sendable, Equatable {
    public var title: TextData?
    public var subtitle: TextData?
    public var backgroundColor: ColorData?
    public var leftButton: ButtonData?
    public var rightButtons: [ButtonData]

    public init(title: TextData? = nil, subtitle: TextData? = nil, backgroundColor: ColorData? = nil,
                leftButton: ButtonData? = nil, rightButtons: [ButtonData] = []) {
        self.title = title
        self.subtitle = subtitle
        self.backgroundColor = backgroundColor
        self.leftButton = leftButton
        self.rightButtons = rightButtons
    }
}

/// Pagination: whether more follows, and the opaque postback to echo, exactly, when asking
/// for it.
public struct Pagination: Sendable, Equatable {
    public var hasMore: Bool
    public var postback: RawJSON?

    public init(hasMore: Bool, postback: RawJSON? = nil) {
        self.hasMore = hasMore
        self.postback = postback
    }
}

/// Refresh behaviour. A page without it assumes no pull to refresh.
public struct RefreshConfig: Sendable, Equatable {
    /// `true` when absent inside a present `refresh`.
    public var pullToRefresh: Bool

    public init(pullToRefresh: Bool = true) { self.pullToRefresh = pullToRefresh }
}

/// A bottom sheet's presentation settings.
public struct SheetConfig: Sendable, Equatable {
    public var detents: [RawJSON]?
    public var grabber: Bool?
    public var dismissible: Bool?
    public var cornerRadius: Double?

    public init(detents: [RawJSON]? = nil, grabber: Bool? = nil, dismissible: Bool? = nil, cornerRadius: Double? = nil) {
        self.detents = detents
        self.grabber = grabber
        self.dismissible = dismissible
        self.cornerRadius = cornerRadius
    }
}
