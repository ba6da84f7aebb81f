import FlowTool
import FlowWidgets

// flow with the allocation counter linked in (the CAllocationCounter target: nothing to
// import, linking is what wraps malloc). `flow bench` and `flow profile` run here, and so do
// the benchmark workers they start.
FlowTool.main(registry: FlowWidgets.registry)
