/*
 * dispatch.c - chooses the GF(2^8) kernel once per process, and the public
 * GF(2^8) functions of swf.h that go through it.
 *
 * Natively on x86 the best kernel the CPU and the OS support wins, less the
 * features SWF_DISABLE_CPU_FEATURES lists. The features nest: each path
 * needs its own and every one below it (AVX2 CPUs all have SSSE3; the GFNI
 * path uses AVX2 registers), so disabling one also disables every path
 * above it. WebAssembly has no run-time detection: the build decides.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gf.h"
#include "swf.h"

#if SWF_GF_X86
#include <cpuid.h>

enum {
	FEATURE_SSSE3 = 1 << 0,
	FEATURE_AVX2 = 1 << 1,
	FEATURE_GFNI = 1 << 2,
};

static const struct {
	const char *name;
	unsigned feature;
} feature_names[] = {
	{ "ssse3", FEATURE_SSSE3 },
	{ "avx2", FEATURE_AVX2 },
	{ "gfni", FEATURE_GFNI },
};

/* Best first. */
static const struct {
	const swf_gf_impl *impl;
	unsigned needs;
} x86_kernels[] = {
	{ &swf_gf_gfni_impl, FEATURE_SSSE3 | FEATURE_AVX2 | FEATURE_GFNI },
	{ &swf_gf_avx2_impl, FEATURE_SSSE3 | FEATURE_AVX2 },
	{ &swf_gf_ssse3_impl, FEATURE_SSSE3 },
};

/* AVX registers are usable only if the OS saves them (XCR0 bits 1 and 2). */
static bool os_saves_avx_state(void)
{
	unsigned eax, edx;
	__asm__("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
	return (eax & 6) == 6;
}

static unsigned cpu_features(void)
{
	unsigned eax, ebx, ecx, edx, features = 0;
	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
		return 0;
	if (ecx & bit_SSSE3)
		features |= FEATURE_SSSE3;
	bool avx = (ecx & bit_OSXSAVE) && (ecx & bit_AVX) && os_saves_avx_state();
	if (avx && __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) {
		if (ebx & bit_AVX2)
			features |= FEATURE_AVX2;
		if (ecx & bit_GFNI)
			features |= FEATURE_GFNI;
	}
	return features;
}

/* Whether the comma-separated list names name. */
static bool list_contains(const char *list, const char *name)
{
	size_t name_len = strlen(name);
	while (*list) {
		size_t item_len = strcspn(list, ",");
		if (item_len == name_len && memcmp(list, name, name_len) == 0)
			return true;
		list += item_len;
		if (*list == ',')
			list++;
	}
	return false;
}

static unsigned disabled_features(void)
{
	const char *list = getenv("SWF_DISABLE_CPU_FEATURES");
	unsigned disabled = 0;
	if (list) {
		for (size_t i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++)
			if (list_contains(list, feature_names[i].name))
				disabled |= feature_names[i].feature;
	}
	return disabled;
}

static const swf_gf_impl *best_kernel(void)
{
	unsigned usable = cpu_features() & ~disabled_features();
	for (size_t i = 0; i < sizeof(x86_kernels) / sizeof(x86_kernels[0]); i++)
		if ((x86_kernels[i].needs & usable) == x86_kernels[i].needs)
			return x86_kernels[i].impl;
	return &swf_gf_scalar_impl;
}
#else
static const swf_gf_impl *best_kernel(void)
{
#ifdef __wasm_simd128__
	return &swf_gf_simd128_impl;
#else
	return &swf_gf_scalar_impl;
#endif
}
#endif

#ifdef __wasm__
/* Without threads, choosing on every call costs nothing worth a cache. */
const swf_gf_impl *swf_gf_impl_active(void)
{
	return best_kernel();
}
#else
#include <pthread.h>

static pthread_once_t chosen_once = PTHREAD_ONCE_INIT;
static const swf_gf_impl *chosen;

static void choose(void)
{
	chosen = best_kernel();
}

const swf_gf_impl *swf_gf_impl_active(void)
{
	pthread_once(&chosen_once, choose);
	return chosen;
}
#endif

const char *swf_gf_kernel(void)
{
	return swf_gf_impl_active()->name;
}

void swf_gf_mul_add(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	swf_gf_impl_active()->mul_add(dst, src, c, len);
}

void swf_gf_mul_region(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	swf_gf_impl_active()->mul_region(dst, src, c, len);
}

void swf_gf_dot_add(uint8_t *dst, const uint8_t *const *srcs, const uint8_t *coefs,
		    size_t count, size_t len)
{
	swf_gf_impl_active()->dot_add(dst, srcs, coefs, count, len);
}
