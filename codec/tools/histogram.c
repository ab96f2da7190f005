/* histogram.c - a delay histogram threads fill while another reads it. */
#include "histogram.h"

/* A value's power of two beyond the exact range: how far its bucket's
 * width is shifted (0 below 2^(SUB_BITS + 1) units, where buckets are one
 * unit wide). */
static unsigned shift_of(uint64_t units)
{
	unsigned top_bit = units == 0 ? 0 : 63u - (unsigned)__builtin_clzll(units);
	return top_bit > HISTOGRAM_SUB_BITS ? top_bit - HISTOGRAM_SUB_BITS : 0;
}

static unsigned bucket_of(uint64_t delay_ns)
{
	uint64_t units = delay_ns / HISTOGRAM_UNIT_NS;
	const uint64_t top = (UINT64_C(1) << HISTOGRAM_TOP_BITS) - 1;
	if (units > top)
		units = top;
	unsigned shift = shift_of(units);
	return (shift << HISTOGRAM_SUB_BITS) + (unsigned)(units >> shift);
}

/* The upper edge of bucket i, in units: what its delays are less than. */
static uint64_t bucket_top(unsigned i)
{
	unsigned shift = i < (2u << HISTOGRAM_SUB_BITS) ? 0 : (i >> HISTOGRAM_SUB_BITS) - 1;
	uint64_t mantissa = i - (shift << HISTOGRAM_SUB_BITS);
	return (mantissa + 1) << shift;
}

void histogram_add(histogram *h, uint64_t delay_ns)
{
	unsigned bucket = bucket_of(delay_ns);
	atomic_fetch_add_explicit(&h->counts[bucket], 1, memory_order_relaxed);
	/* A compare-and-swap, so that a larger maximum another writer stored
	 * meanwhile is never overwritten by a smaller one. */
	uint64_t max = atomic_load_explicit(&h->max_ns, memory_order_relaxed);
	while (delay_ns > max &&
	       !atomic_compare_exchange_weak_explicit(&h->max_ns, &max, delay_ns,
						      memory_order_relaxed, memory_order_relaxed))
		;
}

void histogram_snapshot_take(const histogram *h, histogram_snapshot *snap)
{
	snap->total = 0;
	for (unsigned i = 0; i < HISTOGRAM_BUCKETS; i++) {
		snap->counts[i] = atomic_load_explicit(&h->counts[i], memory_order_relaxed);
		snap->total += snap->counts[i];
	}
	snap->max_ns = atomic_load_explicit(&h->max_ns, memory_order_relaxed);
}

/* Upper edge of the bucket holding the rank-th smallest delay (1-based). */
static double quantile_ms(const histogram_snapshot *newer, const histogram_snapshot *older,
			  uint64_t rank)
{
	uint64_t seen = 0;
	for (unsigned i = 0; i < HISTOGRAM_BUCKETS; i++) {
		seen += newer->counts[i] - (older ? older->counts[i] : 0);
		if (seen >= rank)
			return (double)bucket_top(i) * (HISTOGRAM_UNIT_NS / 1e6);
	}
	return (double)bucket_top(HISTOGRAM_BUCKETS - 1) * (HISTOGRAM_UNIT_NS / 1e6);
}

void histogram_print(FILE *out, const histogram_snapshot *newer,
		     const histogram_snapshot *older)
{
	uint64_t count = newer->total - (older ? older->total : 0);
	if (count == 0) {
		fputs("null", out);
		return;
	}
	/* Bucket edges overstate by up to a bucket: cap them with the maximum. */
	double max_ms = quantile_ms(newer, older, count);
	if (older == NULL || newer->max_ns > older->max_ns || max_ms > newer->max_ns / 1e6)
		max_ms = newer->max_ns / 1e6;
	double p50_ms = quantile_ms(newer, older, (count + 1) / 2);
	double p99_ms = quantile_ms(newer, older, count - count / 100);
	p50_ms = p50_ms < max_ms ? p50_ms : max_ms;
	p99_ms = p99_ms < max_ms ? p99_ms : max_ms;
	fprintf(out, "{\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f,\"count\":%llu}", p50_ms,
		p99_ms, max_ms, (unsigned long long)count);
}
