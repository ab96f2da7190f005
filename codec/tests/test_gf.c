/*
 * test_gf.c - proves that the active GF(2^8) kernel computes in RFC 8681's
 * field (polynomial 0x11D): every product of the kernel's mul_region over all
 * 256 x 256 pairs, and swf_gf_mul, equal a bit-by-bit carry-less multiply
 * reduced by 0x11D written here; swf_gf_inv inverts and multiplication
 * distributes over addition for every pair; mul_add, mul_region (also in
 * place) and dot_add (0..260 sources, with zero and one coefficients) match
 * that reference on seeded random data for lengths 0..300, 1399, 1400, 1500
 * and 4096 at unaligned addresses, and never write outside their region.
 */
#include "check.h"

#define POLYNOMIAL 0x11Du
#define GUARD_BYTES 64    /* checked on each side of every destination */
#define GUARD_VALUE 0xA5
#define MAX_LEN 4096
#define MAX_SOURCES 260

static uint8_t ref_product[256][256];

/* a * b: carry-less multiply bit by bit, then reduce from the top bit down. */
static uint8_t ref_mul(uint8_t a, uint8_t b)
{
	unsigned product = 0;
	for (int bit = 0; bit < 8; bit++)
		if ((b >> bit) & 1)
			product ^= (unsigned)a << bit;
	for (int bit = 14; bit >= 8; bit--)
		if ((product >> bit) & 1)
			product ^= POLYNOMIAL << (bit - 8);
	return (uint8_t)product;
}

/* Some coefficients 0 and 1 (the kernels treat them apart), the rest random. */
static uint8_t random_coef(uint64_t *rng)
{
	uint64_t r = test_rand(rng);
	switch (r % 8) {
	case 0:
		return 0;
	case 1:
		return 1;
	default:
		return (uint8_t)(r >> 8);
	}
}

/* A destination of len bytes at a random misalignment, between guards. */
static uint8_t *guarded_dst(uint8_t *buffer, size_t len, uint64_t *rng)
{
	uint8_t *dst = buffer + GUARD_BYTES + test_rand(rng) % 32;
	memset(buffer, GUARD_VALUE, MAX_LEN + 2 * GUARD_BYTES + 32);
	test_fill(dst, len, rng);
	return dst;
}

static void check_guards(const uint8_t *buffer, const uint8_t *dst, size_t len)
{
	for (const uint8_t *p = buffer; p < dst; p++)
		CHECK(*p == GUARD_VALUE);
	for (const uint8_t *p = dst + len; p < buffer + MAX_LEN + 2 * GUARD_BYTES + 32; p++)
		CHECK(*p == GUARD_VALUE);
}

static void test_products_and_field_axioms(void)
{
	uint8_t all_bytes[256], products[256 + 1];
	for (int b = 0; b < 256; b++)
		all_bytes[b] = (uint8_t)b;
	for (int a = 0; a < 256; a++) {
		/* one byte off alignment, in case a kernel only copes when aligned */
		swf_gf_mul_region(products + 1, all_bytes, (uint8_t)a, 256);
		for (int b = 0; b < 256; b++) {
			CHECK(products[1 + b] == ref_product[a][b]);
			CHECK(swf_gf_mul((uint8_t)a, (uint8_t)b) == ref_product[a][b]);
			uint8_t c = (uint8_t)(a * 31 + b * 7 + 1);
			CHECK(swf_gf_mul((uint8_t)a, (uint8_t)(b ^ c)) ==
			      (swf_gf_mul((uint8_t)a, (uint8_t)b) ^ swf_gf_mul((uint8_t)a, c)));
		}
		if (a != 0)
			CHECK(swf_gf_mul((uint8_t)a, swf_gf_inv((uint8_t)a)) == 1);
	}
}

static size_t test_lengths[300 + 1 + 4];
static size_t test_length_count;

static void list_lengths(void)
{
	for (size_t len = 0; len <= 300; len++)
		test_lengths[test_length_count++] = len;
	test_lengths[test_length_count++] = 1399;
	test_lengths[test_length_count++] = 1400;
	test_lengths[test_length_count++] = 1500;
	test_lengths[test_length_count++] = 4096;
}

static void test_mul_add_and_mul_region(uint64_t *rng)
{
	static uint8_t dst_buffer[MAX_LEN + 2 * GUARD_BYTES + 32];
	static uint8_t src_buffer[MAX_LEN + 32], before[MAX_LEN];
	for (size_t t = 0; t < test_length_count; t++) {
		size_t len = test_lengths[t];
		for (int round = 0; round < 4; round++) {
			uint8_t c = random_coef(rng);
			const uint8_t *src = src_buffer + test_rand(rng) % 32;
			test_fill(src_buffer, sizeof(src_buffer), rng);

			uint8_t *dst = guarded_dst(dst_buffer, len, rng);
			memcpy(before, dst, len);
			swf_gf_mul_add(dst, src, c, len);
			for (size_t i = 0; i < len; i++)
				CHECK(dst[i] == (before[i] ^ ref_product[c][src[i]]));
			check_guards(dst_buffer, dst, len);

			dst = guarded_dst(dst_buffer, len, rng);
			swf_gf_mul_region(dst, src, c, len);
			for (size_t i = 0; i < len; i++)
				CHECK(dst[i] == ref_product[c][src[i]]);
			check_guards(dst_buffer, dst, len);

			dst = guarded_dst(dst_buffer, len, rng);
			memcpy(before, dst, len);
			swf_gf_mul_region(dst, dst, c, len);
			for (size_t i = 0; i < len; i++)
				CHECK(dst[i] == ref_product[c][before[i]]);
			check_guards(dst_buffer, dst, len);
		}
	}
}

static uint8_t source_pool[MAX_SOURCES][MAX_LEN + 32];

/* One dot_add of count sources (at random offsets in the pool) over len
 * bytes, against the reference. */
static void check_dot_add(size_t count, size_t len, uint64_t *rng)
{
	static uint8_t dst_buffer[MAX_LEN + 2 * GUARD_BYTES + 32], expected[MAX_LEN];
	const uint8_t *srcs[MAX_SOURCES];
	uint8_t coefs[MAX_SOURCES];
	for (size_t j = 0; j < count; j++) {
		srcs[j] = source_pool[test_rand(rng) % MAX_SOURCES] + test_rand(rng) % 32;
		coefs[j] = random_coef(rng);
	}
	uint8_t *dst = guarded_dst(dst_buffer, len, rng);
	memcpy(expected, dst, len);
	for (size_t j = 0; j < count; j++)
		for (size_t i = 0; i < len; i++)
			expected[i] ^= ref_product[coefs[j]][srcs[j][i]];
	swf_gf_dot_add(dst, srcs, coefs, count, len);
	CHECK(memcmp(dst, expected, len) == 0);
	check_guards(dst_buffer, dst, len);
}

/* Every length with a few sources; every count 0..MAX_SOURCES over a symbol
 * of 1400 bytes and over a length drawn from the list. */
static void test_dot_add(uint64_t *rng)
{
	for (size_t j = 0; j < MAX_SOURCES; j++)
		test_fill(source_pool[j], sizeof(source_pool[j]), rng);
	for (size_t t = 0; t < test_length_count; t++)
		check_dot_add(t % 8, test_lengths[t], rng);
	for (size_t count = 0; count <= MAX_SOURCES; count++) {
		check_dot_add(count, 1400, rng);
		check_dot_add(count, test_lengths[test_rand(rng) % test_length_count], rng);
	}
}

int main(void)
{
	check_expected_kernel();
	for (int a = 0; a < 256; a++)
		for (int b = 0; b < 256; b++)
			ref_product[a][b] = ref_mul((uint8_t)a, (uint8_t)b);
	list_lengths();

	uint64_t rng = 0x5eed6f28; /* fixed: every run checks the same data */
	test_products_and_field_axioms();
	test_mul_add_and_mul_region(&rng);
	test_dot_add(&rng);
	printf("test_gf: kernel %s passed\n", swf_gf_kernel());
	return 0;
}
