/*
 * simd128.c - GF(2^8) kernel for WebAssembly SIMD: the nibble tables of
 * ssse3.c, looked up with i8x16.swizzle (which, like pshufb, gives 0 for an
 * index out of range).
 */
#include "gf.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#define ATTRIBUTES
typedef v128_t vec_t;
#define VEC_BYTES 16
#define BLOCK_VECS 4
#define vec_load wasm_v128_load
#define vec_store wasm_v128_store
#define vec_xor wasm_v128_xor
#define vec_and wasm_v128_and
#define vec_zero() wasm_i64x2_const(0, 0)

typedef struct {
	v128_t lo, hi; /* lo[n] = c * n, hi[n] = c * (n << 4) */
} coef_t;

static const uint8_t nibble_picks[4][32] = SWF_GF_NIBBLE_PICKS;

static inline coef_t coef_prepare(uint8_t c)
{
	const v128_t powers = wasm_i64x2_make((int64_t)swf_gf_powers(c), 0);
	coef_t k = { vec_zero(), vec_zero() };
	for (int bit = 0; bit < 4; bit++) {
		const v128_t lo_pick = vec_load(nibble_picks[bit]);
		const v128_t hi_pick = vec_load(nibble_picks[bit] + 16);
		k.lo = wasm_v128_xor(k.lo, wasm_i8x16_swizzle(powers, lo_pick));
		k.hi = wasm_v128_xor(k.hi, wasm_i8x16_swizzle(powers, hi_pick));
	}
	return k;
}

static inline void coefs_prepare16(const uint8_t coefs[16], coef_t out[16])
{
	for (int i = 0; i < 16; i++)
		out[i] = coef_prepare(coefs[i]);
}

static inline __attribute__((always_inline)) v128_t vec_mul(const coef_t *k, v128_t x)
{
	const v128_t nibble = wasm_i8x16_splat(0x0F);
	const v128_t lo = wasm_v128_and(x, nibble);
	/* A 16-bit shift then a mask: engines lower the 8-bit shift to several
	 * instructions (about 18 % slower dot_add in node 20). */
	const v128_t hi = wasm_v128_and(wasm_u16x8_shr(x, 4), nibble);
	return wasm_v128_xor(wasm_i8x16_swizzle(k->lo, lo), wasm_i8x16_swizzle(k->hi, hi));
}

#define IMPL_NAME "simd128"
#define IMPL_SYMBOL swf_gf_simd128_impl
#include "region_template.h"

#endif
