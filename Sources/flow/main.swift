import FlowTool
import FlowWidgets

// The flow tool with the starter widget types. It does not link the allocation counter, so
// validate, inspect and the rest run on the plain allocator; bench and profile hand over to
// flow-measure (the same tool with the counter linked).
FlowTool.main(registry: FlowWidgets.registry)
