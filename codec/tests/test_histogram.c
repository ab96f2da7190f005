/*
 * test_histogram.c - proves the tools' delay histogram (codec/tools/histogram.c)
 * that satlink's lateness and swf-tunnel's decoding and hold delays are
 * reported through: below 256 us a percentile is exact to the microsecond;
 * above, every delay from 256 us to hours is reported within 1/128 above it
 * (never below, never capped: a tunnel's 150 ms decoding delay reads 150,
 * where a linear histogram of 10 us buckets up to 100 ms read 100); p50 and
 * p99 take the ranks they name; the maximum is exact; an interval between
 * two snapshots counts only what came between them; no delays print null.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "histogram.h"

#define US UINT64_C(1000) /* ns */
#define MS UINT64_C(1000000)

typedef struct percentiles {
	double p50, p99, max;
	unsigned long long count;
	int null;
} percentiles;

static histogram h; /* large: static storage */
static histogram_snapshot newer, older;

static percentiles print(const histogram_snapshot *now, const histogram_snapshot *before)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	CHECK(out != NULL);
	histogram_print(out, now, before);
	CHECK(fclose(out) == 0);
	percentiles p = {0};
	p.null = strcmp(text, "null") == 0;
	if (!p.null)
		CHECK(sscanf(text, "{\"p50\":%lf,\"p99\":%lf,\"max\":%lf,\"count\":%llu}", &p.p50, &p.p99,
			     &p.max, &p.count) == 4);
	free(text);
	return p;
}

static void reset(void)
{
	memset(&h, 0, sizeof h);
}

/* The p50 of delays all equal to delay_ns, and the largest delay beside
 * it, so that the cap by the maximum does not hide the bucket's edge. */
static double p50_ms_of(uint64_t delay_ns)
{
	reset();
	histogram_add(&h, delay_ns);
	histogram_add(&h, delay_ns);
	histogram_add(&h, 2 * delay_ns + 10 * MS);
	histogram_snapshot_take(&h, &newer);
	return print(&newer, NULL).p50;
}

static void test_below_256_us_exact_to_the_microsecond(void)
{
	for (uint64_t us = 0; us < 256; us++) {
		double p50 = p50_ms_of(us * US + 500); /* half a microsecond into it */
		CHECK(fabs(p50 - (double)(us + 1) / 1e3) < 1e-9);
	}
}

static void test_above_within_one_128th_and_never_capped(void)
{
	for (double ms = 0.256; ms < 3.6e6; ms *= 1.07) {
		uint64_t delay_ns = (uint64_t)(ms * 1e6);
		double p50 = p50_ms_of(delay_ns);
		double exact = (double)(delay_ns / US) / 1e3;
		CHECK(p50 > exact);
		CHECK(p50 <= exact * (1 + 1.0 / 128) + 1e-9);
	}
	CHECK(fabs(p50_ms_of(150 * MS) - 150.0) <= 150.0 / 128);
}

static void test_ranks_and_the_exact_maximum(void)
{
	reset();
	for (int i = 0; i < 98; i++)
		histogram_add(&h, 1 * MS);
	histogram_add(&h, 40 * MS);
	histogram_add(&h, 5000 * MS + 123 * US);
	histogram_snapshot_take(&h, &newer);
	percentiles p = print(&newer, NULL);
	CHECK(p.count == 100 && !p.null);
	CHECK(p.p50 > 1.0 && p.p50 <= 1.0 * (1 + 1.0 / 128));
	CHECK(p.p99 > 40.0 && p.p99 <= 40.0 * (1 + 1.0 / 128)); /* rank 99 of 100 */
	CHECK(fabs(p.max - 5000.123) < 1e-9);
}

static void test_an_interval_counts_what_came_between(void)
{
	reset();
	histogram_add(&h, 300 * MS);
	histogram_snapshot_take(&h, &older);
	CHECK(print(&older, &older).null); /* nothing between a snapshot and itself */
	histogram_add(&h, 2 * MS);
	histogram_add(&h, 2 * MS);
	histogram_snapshot_take(&h, &newer);
	percentiles p = print(&newer, &older);
	CHECK(p.count == 2);
	CHECK(p.max <= 2.0 * (1 + 1.0 / 128)); /* the 300 ms came before */
	CHECK(print(&newer, NULL).count == 3);
}

int main(void)
{
	test_below_256_us_exact_to_the_microsecond();
	test_above_within_one_128th_and_never_capped();
	test_ranks_and_the_exact_maximum();
	test_an_interval_counts_what_came_between();
	return 0;
}
