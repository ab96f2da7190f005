/* histogram.c - a delay histogram one thread fills while another reads it. */
#include "histogram.h"

void histogram_add(histogram *h, uint64_t delay_ns)
{
	uint64_t bucket = delay_ns / HISTOGRAM_BUCKET_NS;
	if (bucket >= HISTOGRAM_BUCKETS)
		bucket = HISTOGRAM_BUCKETS - 1;
	atomic_fetch_add_explicit(&h->counts[bucket], 1, memory_order_relaxed);
	uint64_t max = atomic_load_explicit(&h->max_ns, memory_order_relaxed);
	if (delay_ns > max)
		atomic_store_explicit(&h->max_ns, delay_ns, memory_order_relaxed);
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
			return (i + 1) * (HISTOGRAM_BUCKET_NS / 1e6);
	}
	return HISTOGRAM_BUCKETS * (HISTOGRAM_BUCKET_NS / 1e6);
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
