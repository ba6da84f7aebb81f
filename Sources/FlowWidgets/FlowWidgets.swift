import FlowCore

/// The starter widget content models of the page contract, "Widgets": models only, no views.
public enum FlowWidgets {
    /// Every starter type and the `type` string it answers to.
    package static let types: [(name: String, type: any FlowDecodable.Type)] = [
        ("title_block", TitleBlock.self), ("image_text_card", ImageTextCard.self), ("banner", Banner.self),
        ("button_row", ButtonRow.self), ("separator", SeparatorData.self), ("stepper_row", StepperRow.self),
        ("tag_rail", TagRail.self), ("accordion", Accordion.self),
    ]

    /// Registers every starter type, in one call.
    public static func register(on registry: inout WidgetRegistry) {
        registry.register(TitleBlock.self, as: "title_block")
        registry.register(ImageTextCard.self, as: "image_text_card")
        registry.register(Banner.self, as: "banner")
        registry.register(ButtonRow.self, as: "button_row")
        registry.register(SeparatorData.self, as: "separator")
        registry.register(StepperRow.self, as: "stepper_row")
        registry.register(TagRail.self, as: "tag_rail")
        registry.register(Accordion.self, as: "accordion")
    }

    /// A registry holding the starter types only.
    public static var registry: WidgetRegistry {
        var registry = WidgetRegistry()
        register(on: &registry)
        return registry
    }
}
