/*
 * tinymt32.c - TinyMT32 (RFC 8682, section 2.1), with the parameter set that
 * RFC 8681 fixes for its coding coefficients.
 */
#include "tinymt32.h"

enum { SH0 = 1, SH1 = 10, SH8 = 8, MIN_LOOP = 8, PRE_LOOP = 8 };

static const uint32_t MASK = 0x7fffffffu;
static const uint32_t MAT1 = 0x8f7011eeu;
static const uint32_t MAT2 = 0xfc78ff1fu;
static const uint32_t TMAT = 0x3793fdffu;

static void next_state(swf_tinymt32 *s)
{
	uint32_t *st = s->status;
	uint32_t x = (st[0] & MASK) ^ st[1] ^ st[2];
	uint32_t y = st[3];

	x ^= x << SH0;
	y ^= (y >> SH0) ^ x;
	st[0] = st[1];
	st[1] = st[2];
	st[2] = x ^ (y << SH1);
	st[3] = y;
	if (y & 1) {
		st[1] ^= MAT1;
		st[2] ^= MAT2;
	}
}

static uint32_t temper(const swf_tinymt32 *s)
{
	uint32_t t0 = s->status[3];
	uint32_t t1 = s->status[0] + (s->status[2] >> SH8);

	t0 ^= t1;
	if (t1 & 1)
		t0 ^= TMAT;
	return t0;
}

void swf_tinymt32_init(swf_tinymt32 *s, uint32_t seed)
{
	uint32_t *st = s->status;

	st[0] = seed;
	st[1] = MAT1;
	st[2] = MAT2;
	st[3] = TMAT;
	for (uint32_t i = 1; i < MIN_LOOP; i++)
		st[i & 3] ^= i + UINT32_C(1812433253) * (st[(i - 1) & 3] ^ (st[(i - 1) & 3] >> 30));
	/* Period certification: the all-zero state would be a fixed point. */
	if ((st[0] & MASK) == 0 && st[1] == 0 && st[2] == 0 && st[3] == 0) {
		st[0] = 'T';
		st[1] = 'I';
		st[2] = 'N';
		st[3] = 'Y';
	}
	for (int i = 0; i < PRE_LOOP; i++)
		next_state(s);
}

uint32_t swf_tinymt32_next(swf_tinymt32 *s)
{
	next_state(s);
	return temper(s);
}
