/*
 * test_channel_overlap.c - proves swf_channel_lost_during: a time-based
 * model loses a packet whose time on the air [start, end) overlaps lost
 * time by as little as a microsecond, at either edge of an outage, a bad
 * step or a trace interval, and keeps one that only touches it (ends where
 * the loss starts, or starts where it ends); an empty interval is the
 * instant at its start; per-packet models decide exactly as
 * swf_channel_lost at the start; and asking by overlap leaves the lost time
 * as it is: afterwards the channel answers as a twin asked only at packet
 * starts.
 */
#include "check.h"

/* The answer of a fresh channel for one interval. */
static bool fresh_lost_during(const swf_channel_config *config, uint64_t start_us,
			      uint64_t end_us)
{
	swf_channel *channel = check_channel_new(config);
	bool lost = swf_channel_lost_during(channel, start_us, end_us);
	swf_channel_free(channel);
	return lost;
}

static void test_outage_edges(void)
{
	/* Outages [10000, 15200) us, then every 100 ms. */
	swf_channel_config config = {.kind = SWF_CHANNEL_OUTAGE, .period_ms = 100.0,
				     .duration_ms = 5.2, .phase_ms = 10.0};
	CHECK(!fresh_lost_during(&config, 8000, 10000)); /* ends where it starts */
	CHECK(fresh_lost_during(&config, 8000, 10001));  /* its first microsecond */
	CHECK(fresh_lost_during(&config, 15199, 16000)); /* its last microsecond */
	CHECK(!fresh_lost_during(&config, 15200, 16000)); /* starts where it ends */
	CHECK(fresh_lost_during(&config, 9000, 20000));   /* covers it */
	CHECK(fresh_lost_during(&config, 12000, 12000));  /* an instant inside */
	CHECK(!fresh_lost_during(&config, 9999, 9999));   /* an instant before */
	CHECK(!fresh_lost_during(&config, 9999, 9000));   /* end before start: the instant */
	CHECK(fresh_lost_during(&config, 109000, 110001)); /* the next period's */
	CHECK(!fresh_lost_during(&config, 16000, 110000)); /* the whole gap between */
}

static void test_trace_edges(void)
{
	const swf_loss_interval intervals[] = {{1.0, 2.0}, {5.0, 5.001}};
	swf_channel_config config = {.kind = SWF_CHANNEL_TRACE, .intervals = intervals,
				     .interval_count = 2, .trace_period_ms = 10.0};
	CHECK(!fresh_lost_during(&config, 0, 1000));
	CHECK(fresh_lost_during(&config, 0, 1001));
	CHECK(!fresh_lost_during(&config, 2000, 5000));
	CHECK(fresh_lost_during(&config, 2000, 5001));  /* the 1 us interval */
	CHECK(!fresh_lost_during(&config, 5001, 11000)); /* up to the next period's */
	CHECK(fresh_lost_during(&config, 5001, 11001));
	CHECK(fresh_lost_during(&config, 15000, 15001));
}

/* Gilbert-Elliott in 10 ms steps: the state of each step, from a twin asked
 * at each step's start, predicts every interval: lost iff a step it
 * overlaps is bad. One channel is asked about intervals moving forward in
 * time, across step edges by 1 us and within steps. */
static void test_ge_time_steps_overlapped(void)
{
	enum { STEPS = 20000 };
	swf_channel_config config = {.kind = SWF_CHANNEL_GE_TIME, .seed = 3, .p = 0.05, .q = 0.3,
				     .step_ms = 10.0};
	static bool bad[STEPS];
	swf_channel *twin = check_channel_new(&config);
	for (uint64_t k = 0; k < STEPS; k++)
		bad[k] = swf_channel_lost(twin, k * 10000);
	swf_channel_free(twin);

	swf_channel *channel = check_channel_new(&config);
	uint64_t straddling_lost = 0;
	for (uint64_t k = 0; k + 2 < STEPS; k += 2) {
		uint64_t edge = (k + 1) * 10000;
		CHECK(swf_channel_lost_during(channel, k * 10000 + 1, edge) == bad[k]);
		bool lost = swf_channel_lost_during(channel, edge - 1, edge + 1);
		CHECK(lost == (bad[k] || bad[k + 1]));
		straddling_lost += lost && !bad[k];
	}
	swf_channel_free(channel);
	CHECK(straddling_lost > 100); /* the edge cases happened */
}

/* Per-packet models make one decision per call, the one swf_channel_lost
 * makes at the start, whatever the interval. */
static void test_per_packet_models_decide_at_the_start(void)
{
	swf_channel_config configs[] = {
		{.kind = SWF_CHANNEL_BERNOULLI, .seed = 4, .loss = 0.3},
		{.kind = SWF_CHANNEL_GE_PACKET, .seed = 5, .p = 0.1, .q = 0.4, .loss_bad = 1.0},
	};
	for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
		swf_channel *by_overlap = check_channel_new(&configs[c]);
		swf_channel *at_start = check_channel_new(&configs[c]);
		for (uint64_t i = 0; i < 10000; i++)
			CHECK(swf_channel_lost_during(by_overlap, i * 1000, i * 1000 + 5000) ==
			      swf_channel_lost(at_start, i * 1000));
		swf_channel_free(by_overlap);
		swf_channel_free(at_start);
	}
}

/* After each interval, the channel answers for the next packet's start as
 * a twin asked only at packet starts does: looking ahead made the draws
 * time would make anyway. Jittered outages draw once per outage. */
static void test_overlap_leaves_the_lost_time_alone(void)
{
	swf_channel_config configs[] = {
		{.kind = SWF_CHANNEL_GE_TIME, .seed = 6, .p = 0.02, .q = 0.5, .step_ms = 7.3},
		{.kind = SWF_CHANNEL_OUTAGE, .seed = 7, .period_ms = 50.0, .duration_ms = 5.0,
		 .jitter_ms = 30.0},
	};
	for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
		swf_channel *by_overlap = check_channel_new(&configs[c]);
		swf_channel *at_start = check_channel_new(&configs[c]);
		uint64_t overlap_only = 0;
		for (uint64_t t_us = 0; t_us < 60000000u; t_us += 2500) {
			/* On the air for 2 ms of every 2.5. */
			bool overlapped = swf_channel_lost_during(by_overlap, t_us, t_us + 2000);
			bool started = swf_channel_lost(at_start, t_us);
			CHECK(!started || overlapped);
			overlap_only += overlapped && !started;
			CHECK(swf_channel_lost(by_overlap, t_us + 2000) ==
			      swf_channel_lost(at_start, t_us + 2000));
		}
		swf_channel_free(by_overlap);
		swf_channel_free(at_start);
		CHECK(overlap_only > 0);
	}
}

int main(void)
{
	test_outage_edges();
	test_trace_edges();
	test_ge_time_steps_overlapped();
	test_per_packet_models_decide_at_the_start();
	test_overlap_leaves_the_lost_time_alone();
	printf("channel overlap: all checks passed\n");
	return 0;
}
