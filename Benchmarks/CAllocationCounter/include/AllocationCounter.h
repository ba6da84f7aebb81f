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

/// Starts (1) or stops (0) counting the calling thread's live bytes, from zero.
void flow_track_live_bytes(int on);

/// Bytes handed out to the calling thread, less those it freed, since it started tracking
/// (usable sizes; a block allocated before and freed since counts against it).
int64_t flow_tracked_live_bytes(void);

/// Calls `body(context)`: the region callgrind's `--toggle-collect` names.
void flow_bench_measured(void (*body)(void *), void *context);

#endif
