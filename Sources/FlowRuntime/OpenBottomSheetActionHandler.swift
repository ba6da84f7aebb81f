import FlowCore
import FlowJSON

/// `open_bottom_sheet`: `{ "type": "open_bottom_sheet", "sheet": { … } }` — decodes the sheet
/// with the page's registry (the page contract, "Widgets": as a document of its own, paths from `sheet`) and
/// presents it, with its diagnostics.
///
/// A sheet that is absent or not an object is still claimed, with a note, and nothing is
/// presented: the type is known, so "unhandled" would mislead. Widgets that fail inside a
/// sheet degrade as on a page and show up in ``Presenter/sheetDiagnostics``.
///
/// The registry is the store's; a handler made with an explicit registry uses that one
/// instead (and works without a store, as in a preview). With neither, the action is left
/// unclaimed, with a note.
public struct OpenBottomSheetActionHandler: ActionHandler {
    private let decoder: PageDecoder?

    /// Decodes sheets with the store's registry.
    public init() { decoder = nil }

    /// Decodes sheets with `registry`, whatever the store's.
    public init(registry: WidgetRegistry, options: PageDecodingOptions = PageDecodingOptions()) {
        decoder = PageDecoder(registry: registry, options: options)
    }

    public var actionTypes: Set<String>? { ["open_bottom_sheet"] }

    public func handle(_ action: ActionData, context: ActionContext) async -> Bool {
        guard action.type == "open_bottom_sheet" else { return false }
        guard let decoder = decoder ?? context.store?.decoder else {
            context.note("open_bottom_sheet: no registry to decode the sheet with (no page store in the context)")
            return false
        }
        guard let sheet = action.raw.value["sheet"], !sheet.isNull else {
            context.note("open_bottom_sheet without a \"sheet\": nothing presented")
            return true
        }
        guard let decoded = decoder.decodeSheet(RawJSON(sheet)) else {
            context.note("open_bottom_sheet: \"sheet\" is not an object (\(sheet.kind)): nothing presented")
            return true
        }
        context.presenter.present(decoded.sheet, diagnostics: decoded.diagnostics)
        return true
    }
}
