import FlowWorkloads

// flow-core's own fuzz targets on its fuzz pages (FuzzPages+Manifest.swift: Fuzz/pages.manifest,
// read when the process starts): what its fuzz executables (Fuzz/) run and its tests replay. A
// host fuzzes its own pages and types with `FuzzTarget.host` of FlowWorkloads and needs nothing
// of this module.

extension FuzzTargets {
    /// Every target, on ``FuzzPages/all`` (the registry is ``FuzzTargets/all(pages:)``). When the
    /// pages could not be read, each target's `setupError` says which page and where it looked:
    /// the fuzz binary stops at start (``FuzzHarness/initialize(_:)``) rather than fuzz without them.
    public static let all: [FuzzTarget] = {
        var targets = all(pages: FuzzPages.all)
        if case .failure(let error) = FuzzPages.loaded {
            for index in targets.indices { targets[index].setupError = error.description }
        }
        return targets
    }()

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

extension FuzzTarget {
    public static let page = FuzzTargets.named("page")!
    public static let oneBadWidget = FuzzTargets.named("one-bad-widget")!
    public static let mutation = FuzzTargets.named("mutation")!
    public static let mergeDiff = FuzzTargets.named("merge-diff")!
}

extension OneBadWidget {
    /// The fuzz pages, analysed: what the `one-bad-widget` target's inputs name by index.
    public static let pages: [BasePage] = FuzzPages.all.map { basePage(source: $0.source, text: $0.text, bareRoot: $0.bareRoot) }
}

extension Oracles {
    /// The one-bad-widget oracle on the fuzz pages and the starter types.
    public static func oneBadWidget(_ input: [UInt8]) -> [String] {
        oneBadWidget(input, pages: OneBadWidget.pages)
    }
}
