#ifndef FLOW_ALLOCATION_COUNTER_H
#define FLOW_ALLOCATION_COUNTER_H

#include <stdint.h>

// Linking this target wraps malloc, calloc, realloc, free and the aligned variants in the
// executable (glibc on Linux). Read the counts through CBenchSupport's
// flow_allocation_count, which works whether or not this target is linked.

/// Allocations made on the calling thread since it started.
uint64_t flow_counted_allocations(void);

/// Frees made on the calling thread since it started.
uint64_t flow_counted_frees(void);

/// Calls `body(context)`: the region callgrind's `--toggle-collect` names.
void flow_bench_measured(void (*body)(void *), void *context);

#endif
