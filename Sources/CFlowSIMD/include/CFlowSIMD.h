#ifndef FLOW_SIMD_H
#define FLOW_SIMD_H

// Byte classification sixteen bytes at a time for the JSON scanner.
//
// Swift's SIMD types lower comparisons to a loop over the lanes on this toolchain, and
// there is no portable "one bit per lane" operation, so the few vector steps the scanner
// needs are written here as static inline functions: Swift imports them and the optimizer
// inlines them into the scan loop, where they compile to a handful of instructions.

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Bit k is set when byte k of the sixteen at `p` needs a closer look inside a JSON string:
/// '"', '\\', a control character (below 0x20) or any byte of a non-ASCII character
/// (0x80 and above). Reads exactly sixteen bytes.
static inline uint32_t flow_string_specials16_portable(const uint8_t *p) {
    uint32_t mask = 0;
    for (int k = 0; k < 16; k++) {
        uint8_t c = p[k];
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) mask |= (uint32_t)1 << k;
    }
    return mask;
}

/// As `flow_string_specials16_portable`, with SSE2 where the target has it (every x86-64).
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
