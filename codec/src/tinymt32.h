/*
 * tinymt32.h - the TinyMT32 generator of RFC 8682 (internal).
 *
 * libswf draws every pseudo-random number from it: the RLC coding
 * coefficients (seeded by the repair key, as RFC 8681 requires) and the
 * channel models (seeded by the caller), so both builds draw the same values.
 */
#ifndef SWF_TINYMT32_H
#define SWF_TINYMT32_H

#include <stdint.h>

typedef struct swf_tinymt32 {
	uint32_t status[4];
} swf_tinymt32;

/* Seeds the generator with RFC 8681's parameters (mat1 0x8f7011ee,
 * mat2 0xfc78ff1f, tmat 0x3793fdff). */
void swf_tinymt32_init(swf_tinymt32 *s, uint32_t seed);

uint32_t swf_tinymt32_next(swf_tinymt32 *s);

#endif
