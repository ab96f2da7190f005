/*
 * tinymt32.c - TinyMT32 (RFC 8682, section 2.1), with the parameter set that
 * RFC 8681 fixes for its coding coefficients. The generator itself is inline
 * in tinymt32.h; swf_prng_init and swf_prng_next are swf.h's face of it.
 */
#include "tinymt32.h"

enum { MIN_LOOP = 8, PRE_LOOP = 8 };

void swf_tinymt32_init(swf_tinymt32 *s, uint32_t seed)
{
	uint32_t *st = s->state;

	st[0] = seed;
	st[1] = SWF_TINYMT32_MAT1;
	st[2] = SWF_TINYMT32_MAT2;
	st[3] = SWF_TINYMT32_TMAT;
	for (uint32_t i = 1; i < MIN_LOOP; i++)
		st[i & 3] ^= i + UINT32_C(1812433253) * (st[(i - 1) & 3] ^ (st[(i - 1) & 3] >> 30));
	/* Period certification: the all-zero state would be a fixed point. */
	if ((st[0] & 0x7fffffffu) == 0 && st[1] == 0 && st[2] == 0 && st[3] == 0) {
		st[0] = 'T';
		st[1] = 'I';
		st[2] = 'N';
		st[3] = 'Y';
	}
	for (int i = 0; i < PRE_LOOP; i++)
		swf_tinymt32_next_state(s);
}

void swf_prng_init(swf_prng *prng, uint32_t seed)
{
	swf_tinymt32_init(prng, seed);
}

uint32_t swf_prng_next(swf_prng *prng)
{
	return swf_tinymt32_next(prng);
}
