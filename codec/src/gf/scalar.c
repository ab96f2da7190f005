/*
 * scalar.c - the portable GF(2^8) kernel: the reference every SIMD path must
 * match, and the kernel of WebAssembly builds without SIMD.
 *
 * No global table: each call builds the 256 products of its coefficient,
 * which costs about as much as multiplying 256 bytes and leaves nothing to
 * initialise (so nothing to race on).
 */
#include <string.h>

#include "gf.h"
#include "swf.h"

/* row[b] = c * b: the powers of two by doubling, every other b as the XOR of
 * its lowest set bit's product and the rest's. */
static void product_row(uint8_t row[256], uint8_t c)
{
	row[0] = 0;
	row[1] = c;
	for (unsigned b = 2; b < 256; b++) {
		unsigned lowest_bit = b & (0u - b);
		row[b] = b == lowest_bit ? swf_gf_xtime(row[b >> 1])
					 : (uint8_t)(row[lowest_bit] ^ row[b ^ lowest_bit]);
	}
}

uint8_t swf_gf_mul(uint8_t a, uint8_t b)
{
	uint8_t product = 0;
	for (; b != 0; b >>= 1) {
		if (b & 1)
			product ^= a;
		a = swf_gf_xtime(a);
	}
	return product;
}

/* a^254 = a^-1, since a^255 = 1 for every non-zero a; 254 = 2 + 4 + ... + 128. */
uint8_t swf_gf_inv(uint8_t a)
{
	uint8_t inverse = 1, square = a;
	for (int k = 1; k < 8; k++) {
		square = swf_gf_mul(square, square);
		inverse = swf_gf_mul(inverse, square);
	}
	return inverse;
}

/* dst[] ^= c * src[] */
static void scalar_mul_add(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	if (c == 0)
		return;
	if (c == 1) {
		for (size_t i = 0; i < len; i++)
			dst[i] ^= src[i];
		return;
	}
	uint8_t row[256];
	product_row(row, c);
	for (size_t i = 0; i < len; i++)
		dst[i] ^= row[src[i]];
}

/* dst[] = c * src[] */
static void scalar_mul_region(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	if (c == 0) {
		memset(dst, 0, len);
		return;
	}
	if (c == 1) {
		memmove(dst, src, len);
		return;
	}
	uint8_t row[256];
	product_row(row, c);
	for (size_t i = 0; i < len; i++)
		dst[i] = row[src[i]];
}

/* dst[] ^= sum_j coefs[j] * srcs[j][] */
static void scalar_dot_add(uint8_t *dst, const uint8_t *const *srcs, const uint8_t *coefs,
			   size_t count, size_t len)
{
	for (size_t j = 0; j < count; j++)
		scalar_mul_add(dst, srcs[j], coefs[j], len);
}

const swf_gf_impl swf_gf_scalar_impl = {
	.name = "scalar",
	.mul_add = scalar_mul_add,
	.mul_region = scalar_mul_region,
	.dot_add = scalar_dot_add,
};
