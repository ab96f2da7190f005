/*
 * histogram.h - a delay histogram threads fill while another reads it.
 *
 * Buckets are log-linear (as HdrHistogram's): 1 us wide below 256 us, then
 * 128 to each power of two, so a bucket is within 1/128 (0.8 %) of its
 * delays from a satlink's microseconds of lateness to a tunnel's seconds of
 * decoding delay; delays from 2^36 us (19 h) share the last bucket, and the
 * exact maximum is kept apart. Writers add with relaxed atomics (no lock on
 * the forwarding path; several threads may add to one histogram); a reader
 * copies it into a snapshot and subtracts an older snapshot to get the
 * percentiles of an interval.
 */
#ifndef HISTOGRAM_H
#define HISTOGRAM_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#define HISTOGRAM_UNIT_NS 1000u /* 1 us: the narrowest bucket */
#define HISTOGRAM_SUB_BITS 7u     /* 2^7 buckets to each power of two */
#define HISTOGRAM_TOP_BITS 36u    /* delays below 2^36 units get a bucket of their own */
#define HISTOGRAM_BUCKETS (((HISTOGRAM_TOP_BITS - HISTOGRAM_SUB_BITS) + 1u) << HISTOGRAM_SUB_BITS)

typedef struct histogram {
	_Atomic uint64_t counts[HISTOGRAM_BUCKETS];
	_Atomic uint64_t max_ns;
} histogram;

typedef struct histogram_snapshot {
	uint64_t counts[HISTOGRAM_BUCKETS];
	uint64_t total;
	uint64_t max_ns; /* the largest delay since the start */
} histogram_snapshot;

void histogram_add(histogram *h, uint64_t delay_ns);

/* histogram_snapshot_take copies h into snap. */
void histogram_snapshot_take(const histogram *h, histogram_snapshot *snap);

/* histogram_print writes {"p50":…,"p99":…,"max":…} in milliseconds for the
 * delays added between `older` (NULL: the start) and `newer`, or null if
 * there were none. The interval's max is its top bucket's upper edge unless
 * the overall maximum grew meanwhile. */
void histogram_print(FILE *out, const histogram_snapshot *newer,
		     const histogram_snapshot *older);

#endif /* HISTOGRAM_H */
