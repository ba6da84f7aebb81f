#ifndef FLOW_ALLOCATION_COUNTER_H
#define FLOW_ALLOCATION_COUNTER_H

#include <stdint.h>

/// Allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made on
/// the calling thread since it started. Counted by wrapping the allocator functions in the
/// executable that links this target; see AllocationCounter.c.
uint64_t flow_allocation_count(void);

/// Frees (free, and realloc to zero) made on the calling thread.
uint64_t flow_free_count(void);

/// Whether the wrappers are live: allocates through a call the compiler cannot elide and
/// checks that the count moved. A counter that cannot count must say so, never report 0.
int flow_allocation_counter_is_active(void);

/// Calls `body(context)`. The benchmark harness runs a measured operation through this
/// function so that `valgrind --tool=callgrind --toggle-collect=flow_bench_measured` counts
/// exactly its instructions.
void flow_bench_measured(void (*body)(void *), void *context);

#endif
