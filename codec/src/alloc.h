/* alloc.h - cache-line aligned buffers for symbols, and sizes (internal). */
#ifndef SWF_ALLOC_H
#define SWF_ALLOC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SWF_ALIGN 64u

/* swf_round_up returns n rounded up to a multiple of SWF_ALIGN. */
static inline size_t swf_round_up(size_t n)
{
	return (n + SWF_ALIGN - 1) / SWF_ALIGN * SWF_ALIGN;
}

/* swf_round_up_pow2 returns the least power of two >= n (n <= 2^31). */
static inline uint32_t swf_round_up_pow2(uint32_t n)
{
	uint32_t p = 1;
	while (p < n)
		p <<= 1;
	return p;
}

/* swf_alloc_zeroed returns `bytes` zeroed bytes aligned to SWF_ALIGN, or NULL. */
static inline void *swf_alloc_zeroed(size_t bytes)
{
	void *p = aligned_alloc(SWF_ALIGN, swf_round_up(bytes ? bytes : 1));
	if (p)
		memset(p, 0, bytes);
	return p;
}

#endif
