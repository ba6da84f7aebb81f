#ifndef FLOW_ATOMICS_H
#define FLOW_ATOMICS_H

// Relaxed atomic reads and adds on a word that Swift code owns, for the library's few
// process-wide counters. Swift's own atomics (the Synchronization module) need newer Apple
// systems than the package supports.
//
// Static inline functions: Swift imports them and the optimizer compiles them into their
// callers, where each is one instruction.

#include <stdint.h>

/// The value of `*word`, read atomically (no ordering beyond the word's own).
static inline intptr_t flow_atomic_load(const intptr_t *word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

/// Adds `delta` to `*word` atomically (no ordering beyond the word's own).
static inline void flow_atomic_add(intptr_t *word, intptr_t delta) {
    __atomic_fetch_add(word, delta, __ATOMIC_RELAXED);
}

#endif
