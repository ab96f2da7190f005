/*
 * test_tinymt.c - proves that TinyMT32 and the coding coefficients follow
 * RFC 8682 and RFC 8681: the generator's published first outputs (also
 * through swf.h's swf_prng, the same generator for callers), the
 * published coefficients for repair keys 0 and 1, and the density that DT
 * sets ((DT + 1) / 16 non-zero; never zero with DT 15).
 */
#include "check.h"
#include "tinymt32.h"

static void test_first_outputs_for_seed_1(void)
{
	/* RFC 8682, section 3: the first outputs for seed 1. */
	static const uint32_t expected[] = {2545341989u, 981918433u, 3715302833u, 2387538352u,
					    3591001365u};
	swf_tinymt32 prng;
	swf_tinymt32_init(&prng, 1);
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++)
		CHECK(swf_tinymt32_next(&prng) == expected[i]);
}

static void test_public_prng_is_the_same_generator(void)
{
	swf_tinymt32 internal;
	swf_prng public;
	for (uint32_t seed = 0; seed < 100; seed++) {
		swf_tinymt32_init(&internal, seed);
		swf_prng_init(&public, seed);
		for (int i = 0; i < 100; i++)
			CHECK(swf_prng_next(&public) == swf_tinymt32_next(&internal));
	}
	swf_prng_init(&public, 1);
	CHECK(swf_prng_next(&public) == 2545341989u); /* RFC 8682, section 3 */
}

static void test_coefficients_of_keys_0_and_1(void)
{
	static const uint8_t key0[] = {39, 42, 153, 208, 176, 219, 77, 72};
	static const uint8_t key1[] = {37, 225, 177, 176, 21, 246, 54, 139};
	uint8_t coefs[8];
	CHECK_OK(swf_coefficients(0, 15, 8, coefs));
	CHECK(memcmp(coefs, key0, 8) == 0);
	CHECK_OK(swf_coefficients(1, 15, 8, coefs));
	CHECK(memcmp(coefs, key1, 8) == 0);
}

static void test_prefix_is_stable(void)
{
	/* A window's coefficients do not depend on its size: the first n of a
	 * longer draw are the draw of n. */
	uint8_t long_draw[300], short_draw[17];
	CHECK_OK(swf_coefficients(4242, 9, 300, long_draw));
	CHECK_OK(swf_coefficients(4242, 9, 17, short_draw));
	CHECK(memcmp(long_draw, short_draw, 17) == 0);
}

static void test_density_follows_dt(void)
{
	static uint8_t coefs[SWF_MAX_WINDOW];
	for (uint8_t dt = 0; dt <= SWF_MAX_DT; dt++) {
		size_t nonzero = 0, total = 0;
		for (uint16_t key = 0; key < 40; key++) {
			CHECK_OK(swf_coefficients(key, dt, SWF_MAX_WINDOW, coefs));
			for (size_t i = 0; i < SWF_MAX_WINDOW; i++)
				nonzero += coefs[i] != 0;
			total += SWF_MAX_WINDOW;
		}
		double measured = (double)nonzero / (double)total;
		double expected = (dt + 1) / 16.0;
		if (dt == SWF_MAX_DT)
			CHECK(nonzero == total);
		else
			CHECK(measured > expected - 0.01 && measured < expected + 0.01);
	}
}

static void test_rejects_invalid_arguments(void)
{
	uint8_t coefs[4] = {1, 2, 3, 4};
	CHECK(swf_coefficients(0, 16, 4, coefs) == SWF_E_INVALID);
	CHECK(coefs[0] == 1 && coefs[3] == 4);
}

int main(void)
{
	test_first_outputs_for_seed_1();
	test_public_prng_is_the_same_generator();
	test_coefficients_of_keys_0_and_1();
	test_prefix_is_stable();
	test_density_follows_dt();
	test_rejects_invalid_arguments();
	return 0;
}
