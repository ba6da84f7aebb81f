// Counts heap allocations by wrapping the C allocator.
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

void *malloc(size_t size) {
    allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    if (pointer == NULL) {
        allocations++;
    } else if (size == 0) {
        frees++;
    }
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    if (pointer != NULL) frees++;
    __libc_free(pointer);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (p == NULL) return ENOMEM;
    allocations++;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    allocations++;
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    allocations++;
    return __libc_memalign(alignment, size);
}

uint64_t flow_allocation_count(void) { return allocations; }
uint64_t flow_free_count(void) { return frees; }
#else
uint64_t flow_allocation_count(void) { return 0; }
uint64_t flow_free_count(void) { return 0; }
#endif

int flow_allocation_counter_is_active(void) {
#ifdef FLOW_COUNTS_ALLOCATIONS
    void *(*volatile allocate)(size_t) = malloc;
    uint64_t before = flow_allocation_count();
    void *p = allocate(24);
    uint64_t after = flow_allocation_count();
    free(p);
    return after > before;
#else
    return 0;
#endif
}

__attribute__((noinline)) void flow_bench_measured(void (*body)(void *), void *context) {
    body(context);
    __asm__ volatile("" ::: "memory");
}
