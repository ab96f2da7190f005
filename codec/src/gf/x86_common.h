/*
 * x86_common.h - SSE2 helpers the x86 kernels share. Every x86 SIMD path has
 * SSE2, and these inline into the wider targets of their callers.
 */
#ifndef SWF_GF_X86_COMMON_H
#define SWF_GF_X86_COMMON_H

#include <immintrin.h>

#include "gf.h"

#define SSE2_FUNCTION static inline __attribute__((always_inline, target("sse2")))

/* swf_gf_xtime on each byte: double it, and reduce where its top bit was set. */
SSE2_FUNCTION __m128i xtime128(__m128i v)
{
	const __m128i overflow = _mm_cmpgt_epi8(_mm_setzero_si128(), v);
	return _mm_xor_si128(_mm_add_epi8(v, v), _mm_and_si128(overflow, _mm_set1_epi8(0x1D)));
}

/* powers[i] = swf_gf_powers(coefs[i]) for 16 coefficients at once: the
 * products c * x^k as 8 vectors over the coefficients (planes), transposed
 * into one 64-bit word per coefficient by three rounds of interleaving. */
SSE2_FUNCTION void powers16(const uint8_t coefs[16], uint64_t powers[16])
{
	__m128i plane[8]; /* plane[k] byte i: coefs[i] * x^k */
	plane[0] = _mm_loadu_si128((const __m128i *)(const void *)coefs);
	for (int k = 1; k < 8; k++)
		plane[k] = xtime128(plane[k - 1]);

	/* pairs[a][h]: 16-bit elements (powers 2a, 2a+1) of coefficients 8h.. 8h+7 */
	__m128i pairs[4][2];
	for (int a = 0; a < 4; a++) {
		pairs[a][0] = _mm_unpacklo_epi8(plane[2 * a], plane[2 * a + 1]);
		pairs[a][1] = _mm_unpackhi_epi8(plane[2 * a], plane[2 * a + 1]);
	}
	/* quads[b][h][g]: 32-bit elements (powers 4b..4b+3) of coefficients
	 * 8h+4g .. 8h+4g+3 */
	__m128i quads[2][2][2];
	for (int b = 0; b < 2; b++) {
		for (int h = 0; h < 2; h++) {
			quads[b][h][0] = _mm_unpacklo_epi16(pairs[2 * b][h], pairs[2 * b + 1][h]);
			quads[b][h][1] = _mm_unpackhi_epi16(pairs[2 * b][h], pairs[2 * b + 1][h]);
		}
	}
	/* 64-bit words (powers 0..7), two coefficients per vector */
	for (int h = 0; h < 2; h++) {
		for (int g = 0; g < 2; g++) {
			uint64_t *out = powers + 8 * h + 4 * g;
			_mm_storeu_si128((__m128i *)(void *)out,
					 _mm_unpacklo_epi32(quads[0][h][g], quads[1][h][g]));
			_mm_storeu_si128((__m128i *)(void *)(out + 2),
					 _mm_unpackhi_epi32(quads[0][h][g], quads[1][h][g]));
		}
	}
}

#endif
