import FlowCore
import FlowWidgets

/// The host's widget types: the starter types (pages mix them in) plus its own.
public enum HostWidgets {
    public static var registry: WidgetRegistry {
        var registry = FlowWidgets.registry
        registry.register(PriceTag.self, as: "price_tag")
        return registry
    }
}
