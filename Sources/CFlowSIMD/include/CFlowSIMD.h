#ifndef FLOW_SIMD_H
#define FLOW_SIMD_H

// Byte classification sixteen bytes at a time for the JSON scanner.
//
// Swift's SIMD types lower comparisons to a loop over the lanes on this toolchain, and
// there is no portable "one bit per lane" operation, so the one vector step the scanner
// needs is written here as a static inline function: Swift imports it and the optimizer
// inlines it into the scan loop, where it compiles to a handful of instructions.
//
// A byte "needs a closer look" inside a JSON string when it is '"', '\\', a control
// character (below 0x20) or part of a non-ASCII character (0x80 and above).

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Flags (0x80) the bytes of `word` that need a closer look, eight at a time in a general
/// register. Only the lowest flagged byte is exact: a borrow can flag bytes above it.
static inline uint64_t flow_string_specials_swar(uint64_t word) {
    const uint64_t ones = 0x0101010101010101ULL;
    uint64_t quote = word ^ (ones * 0x22), backslash = word ^ (ones * 0x5C);
    uint64_t found = ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash)
                   | ((word - ones * 0x20) & ~word) | word;
    return found & (ones * 0x80);
}

/// A mask of the sixteen bytes at `p`: 0 when none needs a closer look, else its lowest set
/// bit is the place of the first that does (bits above it may be set or not). This one
/// works in general registers: what targets without SSE2 run, and what the tests hold the
/// vector version to.
static inline uint32_t flow_string_specials16_portable(const uint8_t *p) {
    for (int half = 0; half < 2; half++) {
        uint64_t word;
        memcpy(&word, p + 8 * half, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word);
#endif
        uint64_t found = flow_string_specials_swar(word);
        if (found != 0) return 1u << (8 * half + (__builtin_ctzll(found) >> 3));
    }
    return 0;
}

/// A mask of the sixteen bytes at `p`, as `flow_string_specials16_portable` describes (here
/// exact: one bit per byte that needs a look). Reads exactly sixteen bytes.
static inline uint32_t flow_string_specials16(const uint8_t *p) {
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    // A signed comparison: bytes of 0x80 and above are negative, so this flags them too.
    m = _mm_or_si128(m, _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
    return (uint32_t)_mm_movemask_epi8(m);
#else
    return flow_string_specials16_portable(p);
#endif
}

#endif
