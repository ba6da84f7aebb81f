import FlowTool
import HostWidgets

// The host's own `flow`: every command, decoding price_tag too.
FlowTool.main(registry: HostWidgets.registry)
