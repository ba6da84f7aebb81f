// Counts heap allocations by wrapping the C allocator.
//
// Linked only into executables that measure (the FlowAllocationCounter product: flow-measure,
// a host's measuring tool): the wrapping costs every allocation of every process of the
// executable that links it, whatever the command. The harness reads the counts through
// Benchmarks/CBenchSupport, whose weak references find the two functions at the end.
//
// The executable that links this file defines malloc, calloc, realloc, free and the aligned
// variants; the dynamic linker binds every library's calls (the Swift runtime's included)
// to these definitions before libc's, and they forward to glibc's own entry points
// (__libc_malloc and friends). Counts are per thread (initial-exec TLS: one add, no
// atomics), so a benchmark on the main thread sees only its own allocations and the
// counts are deterministic.
#define _GNU_SOURCE
#include "AllocationCounter.h"

#include <errno.h>
#include <malloc.h>
#include <stddef.h>
#include <stdlib.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
// A sanitizer's runtime owns malloc: wrappers that forward to glibc's would hand it memory
// it never saw. Under a sanitizer the counter stays off (and says so: the bench refuses
// to report counts).
#define FLOW_UNDER_SANITIZER 1
#endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(FLOW_UNDER_SANITIZER)
#define FLOW_COUNTS_ALLOCATIONS 1

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

static __thread uint64_t allocations __attribute__((tls_model("initial-exec")));
static __thread uint64_t frees __attribute__((tls_model("initial-exec")));

// Live bytes: while the calling thread tracks (flow_track_live_bytes), the usable size of
// each block it is handed is added and that of each block it frees is taken away, so what a
// call leaves allocated is counted exactly, whatever the allocator keeps in its caches
// (mallinfo2 counts a block parked in glibc's per-thread cache as in use, and how many are
// parked depends on how many calls came before). Off, it costs one test per call.
static __thread int tracking __attribute__((tls_model("initial-exec")));
static __thread int64_t live_bytes __attribute__((tls_model("initial-exec")));

static inline void *handed_out(void *pointer) {
    if (__builtin_expect(tracking, 0) && pointer != NULL) live_bytes += (int64_t)malloc_usable_size(pointer);
    return pointer;
}

static inline void taken_back(void *pointer) {
    if (__builtin_expect(tracking, 0) && pointer != NULL) live_bytes -= (int64_t)malloc_usable_size(pointer);
}

void *malloc(size_t size) {
    allocations++;
    return handed_out(__libc_malloc(size));
}

void *calloc(size_t count, size_t size) {
    allocations++;
    return handed_out(__libc_calloc(count, size));
}

void *realloc(void *pointer, size_t size) {
    if (pointer == NULL) {
        allocations++;
    } else if (size == 0) {
        frees++;
    }
    // A block that moves or shrinks gives back its old size and is handed out at its new one;
    // a failed realloc leaves the old block where it was.
    int64_t before = __builtin_expect(tracking, 0) && pointer != NULL ? (int64_t)malloc_usable_size(pointer) : 0;
    void *moved = __libc_realloc(pointer, size);
    if (__builtin_expect(tracking, 0) && (moved != NULL || size == 0)) {
        live_bytes -= before;
        handed_out(moved);
    }
    return moved;
}

void free(void *pointer) {
    if (pointer != NULL) frees++;
    taken_back(pointer);
    __libc_free(pointer);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (p == NULL) return ENOMEM;
    allocations++;
    *out = handed_out(p);
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    allocations++;
    return handed_out(__libc_memalign(alignment, size));
}

void *memalign(size_t alignment, size_t size) {
    allocations++;
    return handed_out(__libc_memalign(alignment, size));
}

uint64_t flow_counted_allocations(void) { return allocations; }
uint64_t flow_counted_frees(void) { return frees; }

void flow_track_live_bytes(int on) {
    tracking = on;
    live_bytes = 0;
}

int64_t flow_tracked_live_bytes(void) { return live_bytes; }
#endif

// The measured region for callgrind (`--toggle-collect=flow_bench_measured`): here, in the
// executable that measures, with the barrier after the call so it is never a tail call (a
// jump callgrind would take for leaving the function). CBenchSupport calls it through a weak
// reference.
__attribute__((noinline)) void flow_bench_measured(void (*body)(void *), void *context) {
    body(context);
    __asm__ volatile("" ::: "memory");
}
