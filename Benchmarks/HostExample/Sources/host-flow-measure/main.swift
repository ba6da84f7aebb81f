import FlowTool
import HostWidgets

// host-flow with the allocation counter linked in (the FlowAllocationCounter product: linking
// it is what wraps malloc). host-flow hands bench and profile over to this executable.
FlowTool.main(registry: HostWidgets.registry)
