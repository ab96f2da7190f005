/*
 * gf.h - GF(2^8) kernels (internal). Polynomial 0x11D as RFC 8681 requires.
 *
 * Each instruction-set path provides the same three region operations; one
 * run-time selector (dispatch.c) picks the best the CPU offers, less those
 * that SWF_DISABLE_CPU_FEATURES names.
 */
#ifndef SWF_GF_H
#define SWF_GF_H

#include <stddef.h>
#include <stdint.h>

typedef struct swf_gf_impl {
	const char *name;
	/* dst[i] ^= c * src[i] */
	void (*mul_add)(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len);
	/* dst[i] = c * src[i]; dst may equal src */
	void (*mul_region)(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len);
	/* dst[i] ^= sum_j coefs[j] * srcs[j][i] */
	void (*dot_add)(uint8_t *dst, const uint8_t *const *srcs, const uint8_t *coefs,
			size_t count, size_t len);
} swf_gf_impl;

/* The active kernel, chosen on first use. */
const swf_gf_impl *swf_gf_impl_active(void);

/* x86 kernels are built with per-function target attributes, so any x86
 * compiler that knows them builds every path whatever its -m flags. */
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define SWF_GF_X86 1
#else
#define SWF_GF_X86 0
#endif

extern const swf_gf_impl swf_gf_scalar_impl;
#if SWF_GF_X86
extern const swf_gf_impl swf_gf_ssse3_impl;
extern const swf_gf_impl swf_gf_avx2_impl;
extern const swf_gf_impl swf_gf_gfni_impl;
#endif
#ifdef __wasm_simd128__
extern const swf_gf_impl swf_gf_simd128_impl;
#endif

/* a * x, reduced by x^8 + x^4 + x^3 + x^2 + 1 */
static inline uint8_t swf_gf_xtime(uint8_t a)
{
	return (uint8_t)((a << 1) ^ ((a >> 7) * 0x1D));
}

/* The eight products c * x^k, byte k holding c * x^k. Every SIMD kernel
 * builds its per-coefficient tables or bit matrix from these, by linearity:
 * c * b is the XOR of c * x^k over the bits k set in b. */
static inline uint64_t swf_gf_powers(uint8_t c)
{
	uint64_t powers = 0;
	for (int k = 0; k < 8; k++) {
		powers |= (uint64_t)c << (8 * k);
		c = swf_gf_xtime(c);
	}
	return powers;
}

/*
 * Nibble tables (pshufb, i8x16.swizzle): lo[n] = c * n and hi[n] = c * (n << 4)
 * for n < 16. Entry n is the XOR of the powers c * x^k over the bits k of n
 * (plus 4 for hi), so each table is the XOR of four byte shuffles of the powers
 * vector: shuffle k picks power k (or k + 4) where bit k of n is set, and an
 * out-of-range index (0x80: zero for pshufb and for swizzle) elsewhere.
 * SWF_GF_NIBBLE_PICK(k) is the 32 indices of shuffle k: lo's, then hi's.
 */
#define SWF_GF_PICK(n, k, first) ((((n) >> (k)) & 1) ? (first) + (k) : 0x80)
#define SWF_GF_PICK16(k, first)                                                         \
	SWF_GF_PICK(0, k, first), SWF_GF_PICK(1, k, first), SWF_GF_PICK(2, k, first),      \
		SWF_GF_PICK(3, k, first), SWF_GF_PICK(4, k, first), SWF_GF_PICK(5, k, first), \
		SWF_GF_PICK(6, k, first), SWF_GF_PICK(7, k, first), SWF_GF_PICK(8, k, first), \
		SWF_GF_PICK(9, k, first), SWF_GF_PICK(10, k, first),                        \
		SWF_GF_PICK(11, k, first), SWF_GF_PICK(12, k, first),                       \
		SWF_GF_PICK(13, k, first), SWF_GF_PICK(14, k, first),                       \
		SWF_GF_PICK(15, k, first)
#define SWF_GF_NIBBLE_PICK(k) { SWF_GF_PICK16(k, 0), SWF_GF_PICK16(k, 4) }
#define SWF_GF_NIBBLE_PICKS                                                             \
	{ SWF_GF_NIBBLE_PICK(0), SWF_GF_NIBBLE_PICK(1), SWF_GF_NIBBLE_PICK(2),              \
	  SWF_GF_NIBBLE_PICK(3) }

#endif
