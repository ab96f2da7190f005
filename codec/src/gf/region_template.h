/*
 * region_template.h - the loops every SIMD kernel shares, included once by
 * each of them (libdeflate style). The including file defines:
 *
 *   ATTRIBUTES        function attributes (the target ISA)
 *   vec_t, VEC_BYTES  the vector type and its width
 *   BLOCK_VECS        vectors of dst kept in registers across all sources
 *   vec_load, vec_store, vec_xor, vec_and, vec_zero()   unaligned access, bits
 *   coef_t            a coefficient prepared for vec_mul (tables or a matrix)
 *   coef_prepare(c)   -> coef_t
 *   coefs_prepare16(coefs, out)   the same for 16 coefficients at once
 *   vec_mul(k, x)     k * x for each byte of x (k: const coef_t *)
 *   IMPL_NAME, IMPL_SYMBOL   the kernel's name and its swf_gf_impl
 *
 * Regions of any length and alignment: whole vectors first (BLOCK_VECS at a
 * time), then one last vector ending at len that overlaps the previous one,
 * with a mask so that no byte is updated twice; regions shorter than a vector
 * go through zero-padded copies on the stack.
 */
#include <string.h>

#define BLOCK_BYTES (BLOCK_VECS * VEC_BYTES)
/* dot_add prepares this many coefficients at a time (a multiple of 16). */
#define SOURCE_BATCH 128

#define ONES_16 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, \
		0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
/* Zeros then ones: the VEC_BYTES bytes from offset r mask the last r bytes
 * of a vector. */
static const uint8_t tail_mask_bytes[2 * VEC_BYTES] = {
#if VEC_BYTES == 16
	[16] = ONES_16,
#elif VEC_BYTES == 32
	[32] = ONES_16, ONES_16,
#else
#error "region_template.h: VEC_BYTES must be 16 or 32"
#endif
};

/* Mask of the last `fresh` bytes of a vector, 0 < fresh < VEC_BYTES. */
static inline ATTRIBUTES vec_t tail_mask(size_t fresh)
{
	return vec_load(tail_mask_bytes + fresh);
}

enum region_op { OP_XOR_ADD, OP_MUL_ADD, OP_MUL };

static inline __attribute__((always_inline)) ATTRIBUTES vec_t
apply_op(enum region_op op, const coef_t *k, vec_t d, vec_t s)
{
	switch (op) {
	case OP_XOR_ADD:
		return vec_xor(d, s);
	case OP_MUL_ADD:
		return vec_xor(d, vec_mul(k, s));
	case OP_MUL:
		break;
	}
	return vec_mul(k, s);
}

/* dst[] = op(dst[], src[]); op is a constant after inlining, and so is the
 * inner loop's count, which the compiler unrolls. */
static inline __attribute__((always_inline)) ATTRIBUTES void
region(enum region_op op, uint8_t *dst, const uint8_t *src, const coef_t *k, size_t len)
{
	if (len < VEC_BYTES) {
		uint8_t d[VEC_BYTES] = { 0 }, s[VEC_BYTES] = { 0 };
		memcpy(d, dst, len);
		memcpy(s, src, len);
		vec_store(d, apply_op(op, k, vec_load(d), vec_load(s)));
		memcpy(dst, d, len);
		return;
	}
	size_t i = 0;
	for (; i + BLOCK_BYTES <= len; i += BLOCK_BYTES)
		for (size_t v = i; v < i + BLOCK_BYTES; v += VEC_BYTES)
			vec_store(dst + v, apply_op(op, k, vec_load(dst + v), vec_load(src + v)));
	for (; i + VEC_BYTES <= len; i += VEC_BYTES)
		vec_store(dst + i, apply_op(op, k, vec_load(dst + i), vec_load(src + i)));
	if (i < len) {
		/* In place, this reads some bytes the loop rewrote: the mask drops
		 * them, and the fresh ones are still the source. */
		uint8_t *last = dst + len - VEC_BYTES;
		const vec_t d = vec_load(last), s = vec_load(src + len - VEC_BYTES);
		const vec_t change = vec_xor(apply_op(op, k, d, s), d);
		vec_store(last, vec_xor(d, vec_and(change, tail_mask(len - i))));
	}
}

/* dst[] ^= c * src[] */
static ATTRIBUTES void simd_mul_add(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	if (c == 1) {
		region(OP_XOR_ADD, dst, src, NULL, len);
	} else if (c != 0) {
		const coef_t k = coef_prepare(c);
		region(OP_MUL_ADD, dst, src, &k, len);
	}
}

/* dst[] = c * src[] */
static ATTRIBUTES void simd_mul_region(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	if (c == 0) {
		memset(dst, 0, len);
	} else if (c == 1) {
		memmove(dst, src, len);
	} else {
		const coef_t k = coef_prepare(c);
		region(OP_MUL, dst, src, &k, len);
	}
}

/* The sources of one dot_add batch: those with coefficient 1 are XORed, those
 * with 0 left out, the others multiplied by their prepared coefficient. */
struct dot_batch {
	size_t xor_count, mul_count;
	const uint8_t *xor_srcs[SOURCE_BATCH];
	const uint8_t *mul_srcs[SOURCE_BATCH];
	coef_t mul_coefs[SOURCE_BATCH];
};

static ATTRIBUTES void dot_batch_prepare(struct dot_batch *batch, const uint8_t *const *srcs,
					 const uint8_t *coefs, size_t count)
{
	uint8_t mul_coefs[SOURCE_BATCH];
	batch->xor_count = 0;
	batch->mul_count = 0;
	for (size_t j = 0; j < count; j++) {
		if (coefs[j] == 1) {
			batch->xor_srcs[batch->xor_count++] = srcs[j];
		} else if (coefs[j] != 0) {
			mul_coefs[batch->mul_count] = coefs[j];
			batch->mul_srcs[batch->mul_count++] = srcs[j];
		}
	}
	size_t padded = (batch->mul_count + 15) & ~(size_t)15;
	memset(mul_coefs + batch->mul_count, 0, padded - batch->mul_count);
	for (size_t j = 0; j < padded; j += 16)
		coefs_prepare16(mul_coefs + j, batch->mul_coefs + j);
}

/* Sum of every source of the batch times its coefficient over nvecs vectors
 * at offset; nvecs is a constant after inlining, so acc stays in registers. */
static inline __attribute__((always_inline)) ATTRIBUTES void
dot_sum(vec_t *acc, const struct dot_batch *batch, size_t offset, size_t nvecs)
{
	for (size_t j = 0; j < batch->xor_count; j++) {
		const uint8_t *src = batch->xor_srcs[j] + offset;
		for (size_t v = 0; v < nvecs; v++)
			acc[v] = vec_xor(acc[v], vec_load(src + v * VEC_BYTES));
	}
	for (size_t j = 0; j < batch->mul_count; j++) {
		const coef_t k = batch->mul_coefs[j];
		const uint8_t *src = batch->mul_srcs[j] + offset;
		for (size_t v = 0; v < nvecs; v++)
			acc[v] = vec_xor(acc[v], vec_mul(&k, vec_load(src + v * VEC_BYTES)));
	}
}

/* dst[] ^= the batch's sum over nvecs whole vectors at offset. */
static inline __attribute__((always_inline)) ATTRIBUTES void
dot_block(uint8_t *dst, const struct dot_batch *batch, size_t offset, size_t nvecs)
{
	vec_t acc[BLOCK_VECS];
	for (size_t v = 0; v < nvecs; v++)
		acc[v] = vec_load(dst + offset + v * VEC_BYTES);
	dot_sum(acc, batch, offset, nvecs);
	for (size_t v = 0; v < nvecs; v++)
		vec_store(dst + offset + v * VEC_BYTES, acc[v]);
}

/* dst[] ^= the batch's sum over the bytes past the last whole vector (from
 * done), or over all of dst if it is shorter than a vector. */
static ATTRIBUTES void dot_tail(uint8_t *dst, const struct dot_batch *batch, size_t done,
				size_t len)
{
	vec_t acc = vec_zero();
	if (len >= VEC_BYTES) {
		size_t offset = len - VEC_BYTES;
		dot_sum(&acc, batch, offset, 1);
		const vec_t d = vec_load(dst + offset);
		vec_store(dst + offset, vec_xor(d, vec_and(acc, tail_mask(len - done))));
		return;
	}
	uint8_t s[VEC_BYTES] = { 0 }, d[VEC_BYTES] = { 0 };
	for (size_t j = 0; j < batch->xor_count; j++) {
		memcpy(s, batch->xor_srcs[j], len);
		acc = vec_xor(acc, vec_load(s));
	}
	for (size_t j = 0; j < batch->mul_count; j++) {
		memcpy(s, batch->mul_srcs[j], len);
		acc = vec_xor(acc, vec_mul(&batch->mul_coefs[j], vec_load(s)));
	}
	memcpy(d, dst, len);
	vec_store(d, vec_xor(vec_load(d), acc));
	memcpy(dst, d, len);
}

/* dst[] ^= sum_j coefs[j] * srcs[j][]: each block of dst stays in registers
 * while every source of a batch is added to it. */
static ATTRIBUTES void simd_dot_add(uint8_t *dst, const uint8_t *const *srcs,
				    const uint8_t *coefs, size_t count, size_t len)
{
	struct dot_batch batch;
	for (size_t first = 0; first < count; first += SOURCE_BATCH) {
		size_t n = count - first < SOURCE_BATCH ? count - first : SOURCE_BATCH;
		dot_batch_prepare(&batch, srcs + first, coefs + first, n);
		size_t i = 0;
		for (; i + BLOCK_BYTES <= len; i += BLOCK_BYTES)
			dot_block(dst, &batch, i, BLOCK_VECS);
		for (; i + VEC_BYTES <= len; i += VEC_BYTES)
			dot_block(dst, &batch, i, 1);
		if (i < len)
			dot_tail(dst, &batch, i, len);
	}
}

const swf_gf_impl IMPL_SYMBOL = {
	.name = IMPL_NAME,
	.mul_add = simd_mul_add,
	.mul_region = simd_mul_region,
	.dot_add = simd_dot_add,
};
