import FlowWorkloads

// flow-core's own fuzz targets on the embedded pages (FuzzPages+Embedded.swift): what its
// fuzz executables (Fuzz/) run and its tests replay. A host fuzzes its own pages and types
// with `FuzzTarget.host` of FlowWorkloads and needs nothing of this module.

extension FuzzTargets {
    /// Every target, on the embedded pages (the registry is ``FuzzTargets/all(pages:)``).
    public static let all = all(pages: FuzzPages.all)

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

extension FuzzTarget {
    public static let page = FuzzTargets.named("page")!
    public static let oneBadWidget = FuzzTargets.named("one-bad-widget")!
    public static let mutation = FuzzTargets.named("mutation")!
    public static let mergeDiff = FuzzTargets.named("merge-diff")!
}

extension OneBadWidget {
    /// The embedded pages, analysed: what the `one-bad-widget` target's inputs name by index.
    public static let pages: [BasePage] = FuzzPages.all.map { basePage(source: $0.source, text: $0.text, bareRoot: $0.bareRoot) }
}

extension Oracles {
    /// The one-bad-widget oracle on the embedded pages and the starter types.
    public static func oneBadWidget(_ input: [UInt8]) -> [String] {
        oneBadWidget(input, pages: OneBadWidget.pages)
    }
}
