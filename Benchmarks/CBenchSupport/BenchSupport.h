#ifndef FLOW_BENCH_SUPPORT_H
#define FLOW_BENCH_SUPPORT_H

// The harness's view of the allocation counter, in every executable whether or not it links
// the counter.
//
// The counter (Benchmarks/CAllocationCounter) defines malloc and friends, and every process
// of an executable that links it pays for the wrapping; so only executables that measure
// link it. The counts are read through weak references: without the counter they resolve to
// null, the counts read 0 and `flow_allocation_counter_is_active` says 0, which the harness
// turns into a refusal rather than a figure.
//
// Header-only (a module map, no C file): the functions are compiled into the Swift module
// that imports them. An extra C compilation unit in the executable is what makes valgrind
// 3.19 give up on its DWARF 5 ("possibly corrupted debuginfo"), and callgrind must read it.

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

extern uint64_t flow_counted_allocations(void) __attribute__((weak));
extern uint64_t flow_counted_frees(void) __attribute__((weak));
extern void flow_bench_measured(void (*body)(void *), void *context) __attribute__((weak));
extern void flow_track_live_bytes(int on) __attribute__((weak));
extern int64_t flow_tracked_live_bytes(void) __attribute__((weak));

/// Allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made on
/// the calling thread since it started, when the executable links the allocation counter
/// (the FlowAllocationCounter product); 0 otherwise: ask
/// `flow_allocation_counter_is_active` before trusting it.
static inline uint64_t flow_allocation_count(void) {
    return flow_counted_allocations ? flow_counted_allocations() : 0;
}

/// Frees (free, and realloc to zero) made on the calling thread; 0 without the counter.
static inline uint64_t flow_free_count(void) { return flow_counted_frees ? flow_counted_frees() : 0; }

/// Whether the counter is linked and counting: allocates through a call the compiler cannot
/// elide and checks that the count moved. A counter that cannot count must say so, never
/// report 0.
static inline int flow_allocation_counter_is_active(void) {
    if (!flow_counted_allocations) return 0;
    void *(*volatile allocate)(size_t) = malloc;
    uint64_t before = flow_allocation_count();
    void *p = allocate(24);
    uint64_t after = flow_allocation_count();
    free(p);
    return after > before;
}

/// Calls `body(context)` through `flow_bench_measured` (the counter's), so that
/// `valgrind --tool=callgrind --toggle-collect=flow_bench_measured` counts exactly its
/// instructions; directly when the counter is not linked (nothing measures then).
static inline void flow_run_measured(void (*body)(void *), void *context) {
    if (flow_bench_measured) {
        flow_bench_measured(body, context);
    } else {
        body(context);
    }
}

/// Whether the counter can count live bytes (`flow_live_bytes_begin`).
static inline int flow_live_bytes_available(void) { return flow_track_live_bytes && flow_tracked_live_bytes; }

/// Starts counting the calling thread's live bytes from zero: the usable size of each block
/// it is handed, less that of each block it frees. Nothing without the counter.
static inline void flow_live_bytes_begin(void) {
    if (flow_track_live_bytes) flow_track_live_bytes(1);
}

/// The live bytes counted since `flow_live_bytes_begin`, and stops counting; 0 without the
/// counter (ask `flow_live_bytes_available` first).
static inline int64_t flow_live_bytes_end(void) {
    if (!flow_live_bytes_available()) return 0;
    int64_t bytes = flow_tracked_live_bytes();
    flow_track_live_bytes(0);
    return bytes;
}

/// Keeps process `pid` on CPU `cpu` (Linux's sched_setaffinity, by its system call: the
/// glibc wrapper and its cpu_set_t macros need _GNU_SOURCE, which a shared header cannot
/// set). 0 on success, -1 where the kernel refuses or the CPU does not exist.
static inline int flow_pin_to_cpu(int pid, int cpu) {
#ifdef SYS_sched_setaffinity
    unsigned long mask[16] = {0};
    if (cpu < 0 || cpu >= (int)(sizeof mask * 8)) return -1;
    mask[cpu / (8 * sizeof(unsigned long))] = 1UL << (cpu % (8 * sizeof(unsigned long)));
    return syscall(SYS_sched_setaffinity, pid, sizeof mask, mask) == 0 ? 0 : -1;
#else
    (void)pid;
    (void)cpu;
    return -1;
#endif
}

#endif
