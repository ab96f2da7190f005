/*
 * ssse3.c - GF(2^8) kernel with SSSE3: c * x as two 16-entry table lookups
 * (pshufb), one per nibble of x: c * x = lo[x & 15] ^ hi[x >> 4].
 */
#include "gf.h"

#if SWF_GF_X86
#include "x86_common.h"

#define ATTRIBUTES __attribute__((target("ssse3")))
typedef __m128i vec_t;
#define VEC_BYTES 16
#define BLOCK_VECS 4
#define vec_load(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define vec_store(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define vec_xor _mm_xor_si128
#define vec_and _mm_and_si128
#define vec_zero _mm_setzero_si128

typedef struct {
	__m128i lo, hi; /* lo[n] = c * n, hi[n] = c * (n << 4) */
} coef_t;

static const uint8_t nibble_picks[4][32] = SWF_GF_NIBBLE_PICKS;

/* The tables from swf_gf_powers(c) in the low 8 bytes of powers. */
static inline ATTRIBUTES coef_t tables_from_powers(__m128i powers)
{
	coef_t k = { _mm_setzero_si128(), _mm_setzero_si128() };
	for (int bit = 0; bit < 4; bit++) {
		const __m128i lo_pick = vec_load(nibble_picks[bit]);
		const __m128i hi_pick = vec_load(nibble_picks[bit] + 16);
		k.lo = _mm_xor_si128(k.lo, _mm_shuffle_epi8(powers, lo_pick));
		k.hi = _mm_xor_si128(k.hi, _mm_shuffle_epi8(powers, hi_pick));
	}
	return k;
}

static inline ATTRIBUTES coef_t coef_prepare(uint8_t c)
{
	return tables_from_powers(_mm_set_epi64x(0, (long long)swf_gf_powers(c)));
}

static inline ATTRIBUTES void coefs_prepare16(const uint8_t coefs[16], coef_t out[16])
{
	uint64_t powers[16];
	powers16(coefs, powers);
	for (int i = 0; i < 16; i++)
		out[i] = tables_from_powers(_mm_loadl_epi64((const void *)&powers[i]));
}

static inline __attribute__((always_inline)) ATTRIBUTES __m128i vec_mul(const coef_t *k, __m128i x)
{
	const __m128i nibble = _mm_set1_epi8(0x0F);
	const __m128i lo = _mm_and_si128(x, nibble);
	const __m128i hi = _mm_and_si128(_mm_srli_epi16(x, 4), nibble);
	return _mm_xor_si128(_mm_shuffle_epi8(k->lo, lo), _mm_shuffle_epi8(k->hi, hi));
}

#define IMPL_NAME "ssse3"
#define IMPL_SYMBOL swf_gf_ssse3_impl
#include "region_template.h"

#endif
