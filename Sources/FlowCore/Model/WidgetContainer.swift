/// A content model that holds widgets of its own, as an accordion holds its items.
///
/// What counts or walks every widget of a page (``Page/widgetCount``,
/// ``Page/forEachWidget(_:)``, `flow inspect`'s and `flow profile`'s counts, the
/// benchmarks' widgets per second) finds nested widgets through this, at any depth. A host's
/// own content type that holds a ``WidgetList`` or `[Widget]` conforms so that its widgets
/// count too.
public protocol WidgetContainer {
    /// The widgets this model holds directly (their own nested widgets are found through them).
    var nestedWidgets: [Widget] { get }
}

extension WidgetList: WidgetContainer {
    public var nestedWidgets: [Widget] { widgets }
}

extension Widget {
    /// The widgets this widget's content model holds (an accordion's items), when it is a
    /// ``WidgetContainer``; empty otherwise.
    public var nestedWidgets: [Widget] {
        guard case .model(let model) = content else { return [] }
        return model.box.nestedWidgets
    }
}

extension Page {
    /// Every widget of the page at any depth: header, section headers and bodies, footer, and
    /// the widgets nested in them (accordion items, and their items in turn).
    ///
    /// - Complexity: O(widgets at every depth).
    public var widgetCount: Int {
        var n = 0
        forEachWidget { _ in n += 1 }
        return n
    }

    /// Calls `body` on every widget of the page at any depth, in claiming order, each
    /// widget's nested widgets right after it.
    public func forEachWidget(_ body: (Widget) -> Void) {
        func visit(_ w: Widget) {
            body(w)
            for nested in w.nestedWidgets { visit(nested) }
        }
        for w in header?.widgets ?? [] { visit(w) }
        for s in sections {
            if let h = s.header { visit(h) }
            for w in s.widgets { visit(w) }
        }
        for w in footer?.widgets ?? [] { visit(w) }
    }
}
