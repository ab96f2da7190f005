/*
 * avx2.c - GF(2^8) kernel with AVX2: the nibble tables of ssse3.c (vpshufb),
 * 32 bytes at a time.
 */
#include "gf.h"

#if SWF_GF_X86
#include "x86_common.h"

#define ATTRIBUTES __attribute__((target("avx2")))
#include "ymm.h"
#define BLOCK_VECS 8

typedef struct {
	/* lo[n] = c * n, hi[n] = c * (n << 4), in both 128-bit lanes (vpshufb
	 * looks up within each lane) */
	__m256i lo, hi;
} coef_t;

static const uint8_t nibble_picks[4][32] = SWF_GF_NIBBLE_PICKS;

static inline ATTRIBUTES coef_t tables_from_powers(uint64_t powers)
{
	/* lo in lane 0 and hi in lane 1 at once: the picks of lane 1 read the
	 * powers c * x^4 .. c * x^7 */
	const __m256i p = _mm256_set1_epi64x((long long)powers);
	__m256i lo_hi = _mm256_setzero_si256();
	for (int bit = 0; bit < 4; bit++)
		lo_hi = _mm256_xor_si256(lo_hi,
					 _mm256_shuffle_epi8(p, vec_load(nibble_picks[bit])));
	coef_t k = {
		_mm256_permute2x128_si256(lo_hi, lo_hi, 0x00),
		_mm256_permute2x128_si256(lo_hi, lo_hi, 0x11),
	};
	return k;
}

static inline ATTRIBUTES coef_t coef_prepare(uint8_t c)
{
	return tables_from_powers(swf_gf_powers(c));
}

static inline ATTRIBUTES void coefs_prepare16(const uint8_t coefs[16], coef_t out[16])
{
	uint64_t powers[16];
	powers16(coefs, powers);
	for (int i = 0; i < 16; i++)
		out[i] = tables_from_powers(powers[i]);
}

static inline __attribute__((always_inline)) ATTRIBUTES __m256i vec_mul(const coef_t *k, __m256i x)
{
	const __m256i nibble = _mm256_set1_epi8(0x0F);
	const __m256i lo = _mm256_and_si256(x, nibble);
	const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
	return _mm256_xor_si256(_mm256_shuffle_epi8(k->lo, lo), _mm256_shuffle_epi8(k->hi, hi));
}

#define IMPL_NAME "avx2"
#define IMPL_SYMBOL swf_gf_avx2_impl
#include "region_template.h"

#endif
