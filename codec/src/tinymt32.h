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

#include "swf.h"

/* The generator's state is swf.h's swf_prng: callers outside the library
 * draw from the same generator through swf_prng_init and swf_prng_next. */
typedef swf_prng swf_tinymt32;

#define SWF_TINYMT32_MAT1 0x8f7011eeu
#define SWF_TINYMT32_MAT2 0xfc78ff1fu
#define SWF_TINYMT32_TMAT 0x3793fdffu

/* Seeds the generator with RFC 8681's parameters (mat1 0x8f7011ee,
 * mat2 0xfc78ff1f, tmat 0x3793fdff). */
void swf_tinymt32_init(swf_tinymt32 *s, uint32_t seed);

/* RFC 8682's tinymt32_next_state(); inline because every repair symbol
 * draws a coefficient per source of its window (a tenth of encoding time
 * when it was a call). */
static inline void swf_tinymt32_next_state(swf_tinymt32 *s)
{
	uint32_t *st = s->state;
	uint32_t x = (st[0] & 0x7fffffffu) ^ st[1] ^ st[2];
	uint32_t y = st[3];

	x ^= x << 1;
	y ^= (y >> 1) ^ x;
	st[0] = st[1];
	st[1] = st[2];
	st[2] = x ^ (y << 10);
	st[3] = y;
	/* if (y & 1) { st[1] ^= mat1; st[2] ^= mat2; }, without a branch that
	 * mispredicts half the time. */
	uint32_t odd = -(y & 1);
	st[1] ^= odd & SWF_TINYMT32_MAT1;
	st[2] ^= odd & SWF_TINYMT32_MAT2;
}

/* RFC 8682's tinymt32_generate_uint32(): the next state, tempered. */
static inline uint32_t swf_tinymt32_next(swf_tinymt32 *s)
{
	swf_tinymt32_next_state(s);
	uint32_t t0 = s->state[3];
	uint32_t t1 = s->state[0] + (s->state[2] >> 8);

	t0 ^= t1;
	return t0 ^ (-(t1 & 1) & SWF_TINYMT32_TMAT); /* if (t1 & 1) t0 ^= tmat */
}

#endif
