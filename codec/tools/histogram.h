/*
 * histogram.h - a delay histogram one thread fills while another reads it.
 *
 * Buckets are 10 us wide up to 100 ms; longer delays share the last bucket,
 * and the exact maximum is kept apart. The writer adds with relaxed atomics
 * (no lock on the forwarding path); a reader copies it into a snapshot and
 * subtracts an older snapshot to get the percentiles of an interval.
 */
#ifndef HISTOGRAM_H
#define HISTOGRAM_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#define HISTOGRAM_BUCKET_NS 10000u
#define HISTOGRAM_BUCKETS 10000u

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
