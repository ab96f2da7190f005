/*
 * gfni.c - GF(2^8) kernel with GFNI and AVX2: c * x as one gf2p8affineqb,
 * with the 8x8 bit matrix of multiplication by c in RFC 8681's field (0x11D).
 * (gf2p8mulb would be one instruction too, but it is hard-wired to AES's
 * polynomial 0x11B: the wrong field.)
 */
#include "gf.h"

#if SWF_GF_X86
#include "x86_common.h"

#define ATTRIBUTES __attribute__((target("gfni,avx2")))
#include "ymm.h"
#define BLOCK_VECS 8

typedef struct {
	__m256i matrix; /* in every 64-bit lane */
} coef_t;

/*
 * The matrices of the coefficients whose powers (swf_gf_powers) are the two
 * 64-bit lanes of powers. gf2p8affineqb makes output bit b of a byte the
 * parity of (matrix byte 7-b AND the byte), so multiplying by c needs matrix
 * byte 7-b to hold bit b of each power c * x^j, at bit j: the powers
 * transposed. gf2p8affineqb computes that transpose itself, when given the
 * powers in reverse byte order as its matrix and the bytes 0x80, 0x40, ...,
 * 0x01 as data: byte m of the result is then bit 7-m of each power.
 */
static inline ATTRIBUTES __m128i matrices_from_powers(__m128i powers)
{
	const __m128i reverse_bytes =
		_mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
	const __m128i single_bits = _mm_set1_epi64x(0x0102040810204080);
	return _mm_gf2p8affine_epi64_epi8(single_bits, _mm_shuffle_epi8(powers, reverse_bytes), 0);
}

static inline ATTRIBUTES coef_t coef_prepare(uint8_t c)
{
	coef_t k = { _mm256_broadcastq_epi64(
		matrices_from_powers(_mm_set1_epi64x((long long)swf_gf_powers(c)))) };
	return k;
}

static inline ATTRIBUTES void coefs_prepare16(const uint8_t coefs[16], coef_t out[16])
{
	uint64_t powers[16];
	powers16(coefs, powers);
	for (int i = 0; i < 16; i += 2) {
		const __m128i pair = _mm_loadu_si128((const __m128i *)(const void *)&powers[i]);
		const __m128i two = matrices_from_powers(pair);
		out[i].matrix = _mm256_broadcastq_epi64(two);
		out[i + 1].matrix = _mm256_broadcastq_epi64(_mm_unpackhi_epi64(two, two));
	}
}

static inline __attribute__((always_inline)) ATTRIBUTES __m256i vec_mul(const coef_t *k, __m256i x)
{
	return _mm256_gf2p8affine_epi64_epi8(x, k->matrix, 0);
}

#define IMPL_NAME "gfni"
#define IMPL_SYMBOL swf_gf_gfni_impl
#include "region_template.h"

#endif
