/*
 * check.h - the few helpers every libswf test program shares.
 *
 * A test is a program: it exits 0 when every CHECK held, 1 at the first that
 * did not (printing where and why), and 77 (ctest's "skipped") when
 * SWF_EXPECT_GF_KERNEL names a kernel this CPU cannot run.
 */
#ifndef SWF_TEST_CHECK_H
#define SWF_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swf.h"

#define CHECK(cond)                                                                  \
	do {                                                                         \
		if (!(cond)) {                                                       \
			fprintf(stderr, "%s:%d: check failed: %s (gf kernel %s)\n",  \
				__FILE__, __LINE__, #cond, swf_gf_kernel());         \
			exit(1);                                                     \
		}                                                                    \
	} while (0)

#define CHECK_OK(expr) CHECK((expr) == SWF_OK)

/* Skips the test when ctest asked for a kernel the CPU does not have. */
static inline void check_expected_kernel(void)
{
	const char *want = getenv("SWF_EXPECT_GF_KERNEL");
	if (want && strcmp(want, swf_gf_kernel()) != 0) {
		printf("skipped: kernel %s requested, %s active (CPU lacks it)\n", want,
		       swf_gf_kernel());
		exit(77);
	}
}

/* A channel of config; the test fails if libswf refuses it. */
static inline swf_channel *check_channel_new(const swf_channel_config *config)
{
	swf_channel *channel;
	CHECK_OK(swf_channel_new(config, &channel));
	return channel;
}

/* A small seeded generator for test data (splitmix64), independent of the
 * library's own TinyMT32 so tests do not lean on the code they test. */
static inline uint64_t test_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void test_fill(uint8_t *buf, size_t len, uint64_t *state)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)test_rand(state);
}

#endif
