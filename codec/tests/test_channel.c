/*
 * test_channel.c - proves the properties of the channel models, with fixed
 * seeds: Bernoulli loses at its rate; Gilbert-Elliott, per packet and per time
 * step, is bad p / (p + q) of the time in bursts of mean length 1 / q (packets
 * or steps); a time step shares one decision and an idle gap does not change
 * the state sequence; outages without jitter repeat exactly, with jitter they
 * keep their length and stay in their window; traces replay and repeat from
 * the channel's own copy; loss 0 never loses and loss 1 always does; an
 * earlier time counts as the latest; config_check names each invalid field;
 * the same seed repeats a sequence and another seed does not.
 *
 * Tolerances are about 5 standard deviations of each estimate (derived where
 * it is checked), so a correct model passes with any seed and a wrong rate,
 * order or state rule fails.
 */
#include <math.h>

#include "check.h"

typedef struct loss_counts {
	uint64_t packets, lost, bursts; /* a burst is a maximal run of losses */
} loss_counts;

/* Sends packets at t_us = i * interval_us and counts the losses and bursts. */
static loss_counts count_losses(const swf_channel_config *config, uint64_t packets,
				uint64_t interval_us)
{
	swf_channel *channel = check_channel_new(config);
	loss_counts counts = {packets, 0, 0};
	bool previous = false;
	for (uint64_t i = 0; i < packets; i++) {
		bool lost = swf_channel_lost(channel, i * interval_us);
		counts.lost += lost;
		counts.bursts += lost && !previous;
		previous = lost;
	}
	swf_channel_free(channel);
	return counts;
}

/* Prints an estimate and fails if it is further than tolerance from expected. */
static void check_near(const char *what, double value, double expected, double tolerance)
{
	printf("%s: %.5f (expected %.5f +- %.5f)\n", what, value, expected, tolerance);
	if (!(value >= expected - tolerance && value <= expected + tolerance)) {
		fprintf(stderr, "%s: %.5f is out of tolerance\n", what, value);
		exit(1);
	}
}

static void test_bernoulli_rate(void)
{
	/* sigma = sqrt(loss * (1 - loss) / n): 2.2e-4 at 5 %, 1.0e-4 at 1 %. */
	swf_channel_config config = {.kind = SWF_CHANNEL_BERNOULLI, .seed = 1, .loss = 0.05};
	loss_counts counts = count_losses(&config, 1000000, 1000);
	check_near("bernoulli 5 % loss rate", (double)counts.lost / 1e6, 0.05, 0.0011);

	config.loss = 0.01;
	config.seed = 2;
	counts = count_losses(&config, 1000000, 1000);
	check_near("bernoulli 1 % loss rate", (double)counts.lost / 1e6, 0.01, 0.0005);
}

/* With loss_good 0 and loss_bad 1 the losses are the bad states. */
static void test_ge_packet_stationary(void)
{
	swf_channel_config config = {.kind = SWF_CHANNEL_GE_PACKET, .seed = 3, .p = 0.05,
				     .q = 0.2, .loss_good = 0.0, .loss_bad = 1.0};
	loss_counts counts = count_losses(&config, 1000000, 1000);
	/* Bad fraction 0.2; the chain's correlation (1 - p - q = 0.75) widens
	 * sigma to sqrt(0.2 * 0.8 / n * 1.75 / 0.25) = 1.1e-3. */
	check_near("ge_packet bad fraction", (double)counts.lost / 1e6, 0.2, 0.0055);
	/* Bursts are geometric with mean 1/q = 5 and sd sqrt(1 - q)/q = 4.5, over
	 * about 40,000 bursts: sigma 0.022. */
	check_near("ge_packet mean burst (packets)", (double)counts.lost / (double)counts.bursts,
		   5.0, 0.12);

	/* Losses in both states: 0.8 * 0.1 + 0.2 * 0.5 = 0.18. */
	config.loss_good = 0.1;
	config.loss_bad = 0.5;
	counts = count_losses(&config, 1000000, 1000);
	check_near("ge_packet loss rate", (double)counts.lost / 1e6, 0.18, 0.005);
}

/* The optical satellite channel of DESIGN.md, one packet per 10 ms step. */
static void test_ge_time_stationary(void)
{
	swf_channel_config config = {.kind = SWF_CHANNEL_GE_TIME, .seed = 4, .p = 0.01,
				     .q = 0.167, .step_ms = 10.0};
	loss_counts counts = count_losses(&config, 2000000, 10000);
	/* p / (p + q) = 0.0565; sigma = sqrt(0.0565 * 0.9435 / n * 1.823 / 0.177)
	 * = 5.2e-4. */
	check_near("ge_time bad fraction", (double)counts.lost / 2e6, 0.01 / 0.177, 0.0026);
	/* 1/q = 5.99 steps, sd 5.5, about 19,000 bursts: sigma 0.04. */
	check_near("ge_time mean burst (steps)", (double)counts.lost / (double)counts.bursts,
		   1 / 0.167, 0.2);
}

/* Packets in one step share its state, and a channel that sees only every
 * 37th millisecond goes through the same states as one that sees them all. */
static void test_ge_time_steps(void)
{
	swf_channel_config config = {.kind = SWF_CHANNEL_GE_TIME, .seed = 5, .p = 0.1,
				     .q = 0.3, .step_ms = 10.0};
	swf_channel *every_ms = check_channel_new(&config);
	swf_channel *sparse = check_channel_new(&config);
	bool step_state = false;
	uint64_t bad_steps = 0;
	for (uint64_t ms = 0; ms < 200000; ms++) {
		bool lost = swf_channel_lost(every_ms, ms * 1000);
		if (ms % 10 == 0) {
			step_state = lost;
			bad_steps += lost;
		}
		CHECK(lost == step_state);
		if (ms % 37 == 0)
			CHECK(swf_channel_lost(sparse, ms * 1000) == lost);
	}
	CHECK(bad_steps > 0 && bad_steps < 20000);
	swf_channel_free(every_ms);
	swf_channel_free(sparse);
}

/* The DVB train channel of DESIGN.md, a packet every 100 us. */
static void test_outage_periodic(void)
{
	swf_channel_config config = {.kind = SWF_CHANNEL_OUTAGE, .seed = 6, .period_ms = 258.0,
				     .duration_ms = 15.5, .phase_ms = 3.0};
	swf_channel *channel = check_channel_new(&config);
	for (uint64_t t_us = 0; t_us < 100 * 258000; t_us += 100) {
		bool in_outage = t_us >= 3000 && (t_us - 3000) % 258000 < 15500;
		CHECK(swf_channel_lost(channel, t_us) == in_outage);
	}
	swf_channel_free(channel);
}

/* With jitter, outage n is one run of exactly duration_us / 100 packets that
 * starts in [phase + n * period, phase + n * period + jitter], and the starts
 * vary over that whole window. */
static void test_outage_jitter(void)
{
	swf_channel_config config = {.kind = SWF_CHANNEL_OUTAGE, .seed = 7, .period_ms = 258.0,
				     .duration_ms = 15.5, .phase_ms = 3.0, .jitter_ms = 20.0};
	swf_channel *channel = check_channel_new(&config);
	uint64_t runs = 0, run_packets = 0;
	bool offsets_seen[201] = {false}; /* start - window start, in packets */
	unsigned distinct_offsets = 0;
	uint64_t min_offset = 200, max_offset = 0;
	for (uint64_t t_us = 0; t_us < 100 * 258000; t_us += 100) {
		bool lost = swf_channel_lost(channel, t_us);
		if (lost && run_packets == 0) {
			uint64_t window_start = 3000 + runs * 258000;
			CHECK(t_us >= window_start && t_us <= window_start + 20000);
			uint64_t offset = (t_us - window_start) / 100;
			distinct_offsets += !offsets_seen[offset];
			offsets_seen[offset] = true;
			min_offset = offset < min_offset ? offset : min_offset;
			max_offset = offset > max_offset ? offset : max_offset;
		}
		if (lost) {
			run_packets++;
		} else if (run_packets > 0) {
			CHECK(run_packets == 155);
			runs++;
			run_packets = 0;
		}
	}
	CHECK(runs == 100);
	/* 100 uniform draws over 200 offsets: about 79 distinct ones, and the
	 * chance that none falls in the first or the last fifth is 2e-10. */
	CHECK(distinct_offsets > 50);
	CHECK(min_offset < 40 && max_offset > 160);
	swf_channel_free(channel);
}

static void test_trace(void)
{
	swf_loss_interval intervals[] = {{1.5, 3.0}, {3.0, 4.25}, {10.0, 20.0}};
	swf_channel_config config = {.kind = SWF_CHANNEL_TRACE, .seed = 8,
				     .intervals = intervals, .interval_count = 3};
	static const struct {
		uint64_t t_us;
		bool lost;
	} once[] = {{0, false},	    {1499, false}, {1500, true},   {2999, true},
		    {3000, true},   {4249, true},  {4250, false},  {9999, false},
		    {10000, true},  {19999, true}, {20000, false}, {26500, false},
		    {1000000000, false}},
	  repeating[] = {{1500, true},	{4250, false}, {19999, true}, {20000, false},
			 {26499, false}, {26500, true}, {35000, true}, {45000, false},
			 {25000000 + 10000, true}};

	swf_channel *channel = check_channel_new(&config);
	/* The channel keeps its own copy: the caller's array may change. */
	intervals[0] = (swf_loss_interval){0.0, 100.0};
	for (size_t i = 0; i < sizeof(once) / sizeof(once[0]); i++)
		CHECK(swf_channel_lost(channel, once[i].t_us) == once[i].lost);
	swf_channel_free(channel);

	intervals[0] = (swf_loss_interval){1.5, 3.0};
	config.trace_period_ms = 25.0;
	channel = check_channel_new(&config);
	for (size_t i = 0; i < sizeof(repeating) / sizeof(repeating[0]); i++)
		CHECK(swf_channel_lost(channel, repeating[i].t_us) == repeating[i].lost);
	swf_channel_free(channel);
}

/* Probability 0 never happens and 1 always does, in every model. */
static void test_loss_edges(void)
{
	swf_channel_config never[] = {
		{.kind = SWF_CHANNEL_PERFECT},
		{.kind = SWF_CHANNEL_BERNOULLI, .loss = 0.0},
		{.kind = SWF_CHANNEL_GE_PACKET, .p = 0.5, .q = 0.5},
		{.kind = SWF_CHANNEL_GE_TIME, .p = 0.0, .q = 1.0, .step_ms = 1.0},
		{.kind = SWF_CHANNEL_OUTAGE, .period_ms = 10.0, .duration_ms = 0.0},
		{.kind = SWF_CHANNEL_TRACE},
	};
	swf_channel_config always[] = {
		{.kind = SWF_CHANNEL_BERNOULLI, .loss = 1.0},
		{.kind = SWF_CHANNEL_GE_PACKET, .p = 0.5, .q = 0.5, .loss_good = 1.0,
		 .loss_bad = 1.0},
		{.kind = SWF_CHANNEL_OUTAGE, .period_ms = 10.0, .duration_ms = 10.0},
	};
	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		CHECK(count_losses(&never[i], 1000000, 1000).lost == 0);
	for (size_t i = 0; i < sizeof(always) / sizeof(always[0]); i++)
		CHECK(count_losses(&always[i], 1000000, 1000).lost == 1000000);

	/* GE_TIME with p 1 and q 0: step 0 is good, every later step bad. */
	swf_channel_config stuck = {.kind = SWF_CHANNEL_GE_TIME, .p = 1.0, .q = 0.0,
				    .step_ms = 1.0};
	CHECK(count_losses(&stuck, 1000000, 1000).lost == 999999);
}

/* A time earlier than the latest counts as the latest: here it would fall
 * before the outage or the interval that the latest time is in. */
static void test_earlier_time_counts_as_latest(void)
{
	swf_channel_config outage = {.kind = SWF_CHANNEL_OUTAGE, .period_ms = 258.0,
				     .duration_ms = 15.5, .phase_ms = 5.0};
	swf_channel *channel = check_channel_new(&outage);
	CHECK(swf_channel_lost(channel, 10000));
	CHECK(swf_channel_lost(channel, 1000)); /* as if sent at 10000 */
	CHECK(!swf_channel_lost(channel, 20500));
	swf_channel_free(channel);

	swf_loss_interval interval = {1.0, 2.0};
	swf_channel_config trace = {.kind = SWF_CHANNEL_TRACE, .intervals = &interval,
				    .interval_count = 1};
	channel = check_channel_new(&trace);
	CHECK(swf_channel_lost(channel, 1500));
	CHECK(swf_channel_lost(channel, 0)); /* as if sent at 1500 */
	swf_channel_free(channel);
}

/* Checks that swf_channel_config_check names field, or finds config valid
 * when field is NULL. */
#define CHECK_FIELD(config, field) check_field(&(config), field, __LINE__)
static void check_field(const swf_channel_config *config, const char *field, int line)
{
	const char *invalid = swf_channel_config_check(config);
	if (field ? invalid && strcmp(invalid, field) == 0 : invalid == NULL)
		return;
	fprintf(stderr, "%s:%d: swf_channel_config_check returned %s, expected %s\n", __FILE__,
		line, invalid ? invalid : "NULL", field ? field : "NULL");
	exit(1);
}

static void test_config_check(void)
{
	static const swf_loss_interval sorted[] = {{1.0, 2.0}, {2.0, 3.0}};
	static const swf_loss_interval unsorted[] = {{2.0, 3.0}, {1.0, 1.5}};
	static const swf_loss_interval overlapping[] = {{1.0, 2.5}, {2.0, 3.0}};
	static const swf_loss_interval empty[] = {{1.0, 1.0}};
	static const swf_loss_interval negative[] = {{-1.0, 1.0}};
	static const swf_loss_interval not_a_number[] = {{NAN, 1.0}};
	const swf_channel_config bernoulli = {.kind = SWF_CHANNEL_BERNOULLI, .loss = 0.01};
	const swf_channel_config ge_packet = {.kind = SWF_CHANNEL_GE_PACKET, .p = 0.1, .q = 0.2,
					      .loss_good = 0.0, .loss_bad = 1.0};
	const swf_channel_config ge_time = {.kind = SWF_CHANNEL_GE_TIME, .p = 0.01, .q = 0.167,
					    .step_ms = 10.0};
	const swf_channel_config outage = {.kind = SWF_CHANNEL_OUTAGE, .period_ms = 258.0,
					   .duration_ms = 15.5, .phase_ms = 1.0,
					   .jitter_ms = 20.0};
	const swf_channel_config trace = {.kind = SWF_CHANNEL_TRACE, .intervals = sorted,
					  .interval_count = 2, .trace_period_ms = 3.0};
	swf_channel_config c;

	/* Valid configs; fields a kind does not read are not checked. */
	const swf_channel_config valid[] = {bernoulli, ge_packet, ge_time, outage, trace,
					    {.kind = SWF_CHANNEL_PERFECT, .loss = NAN}};
	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++)
		CHECK_FIELD(valid[i], NULL);
	c = ge_time, c.loss_good = NAN;
	CHECK_FIELD(c, NULL);

	c = bernoulli, c.kind = (swf_channel_kind)99;
	CHECK_FIELD(c, "kind");

	double bad_probabilities[] = {-0.01, 1.01, NAN, INFINITY};
	for (size_t i = 0; i < 4; i++) {
		double x = bad_probabilities[i];
		c = bernoulli, c.loss = x;
		CHECK_FIELD(c, "loss");
		c = ge_packet, c.p = x;
		CHECK_FIELD(c, "p");
		c = ge_packet, c.q = x;
		CHECK_FIELD(c, "q");
		c = ge_packet, c.loss_good = x;
		CHECK_FIELD(c, "loss_good");
		c = ge_packet, c.loss_bad = x;
		CHECK_FIELD(c, "loss_bad");
		c = ge_time, c.q = x;
		CHECK_FIELD(c, "q");
	}
	/* A time must be finite, non-negative, at most 1e12 ms; a step and a
	 * period at least 1 us after rounding (0.0004 ms rounds to 0 us). */
	double bad_steps[] = {0.0, -10.0, 0.0004, NAN, INFINITY, 2e12};
	for (size_t i = 0; i < 6; i++) {
		c = ge_time, c.step_ms = bad_steps[i];
		CHECK_FIELD(c, "step_ms");
		c = outage, c.period_ms = bad_steps[i];
		CHECK_FIELD(c, "period_ms");
	}
	c = ge_time, c.step_ms = 0.0005; /* rounds up to 1 us */
	CHECK_FIELD(c, NULL);

	c = outage, c.duration_ms = 258.5;
	CHECK_FIELD(c, "duration_ms");
	c = outage, c.duration_ms = -1.0;
	CHECK_FIELD(c, "duration_ms");
	c = outage, c.phase_ms = NAN;
	CHECK_FIELD(c, "phase_ms");
	c = outage, c.jitter_ms = 242.6; /* duration + jitter exceeds the period */
	CHECK_FIELD(c, "jitter_ms");
	c = outage, c.jitter_ms = 242.5;
	CHECK_FIELD(c, NULL);
	c = outage, c.period_ms = 1e7, c.jitter_ms = 4294967.297; /* 2^32 us */
	CHECK_FIELD(c, "jitter_ms");

	c = trace, c.intervals = NULL;
	CHECK_FIELD(c, "intervals");
	const swf_loss_interval *bad_intervals[] = {unsorted, overlapping, empty, negative,
						    not_a_number};
	for (size_t i = 0; i < 5; i++) {
		c = trace, c.intervals = bad_intervals[i], c.interval_count = 1 + (i < 2);
		CHECK_FIELD(c, "intervals");
	}
	c = trace, c.trace_period_ms = 2.5; /* shorter than the trace */
	CHECK_FIELD(c, "trace_period_ms");
	c = trace, c.trace_period_ms = -1.0;
	CHECK_FIELD(c, "trace_period_ms");
	c = trace, c.intervals = NULL, c.interval_count = 0, c.trace_period_ms = 0.0;
	CHECK_FIELD(c, NULL);

	/* swf_channel_new refuses what config_check names, leaving *out alone. */
	swf_channel *untouched = (swf_channel *)&c;
	c = bernoulli, c.loss = 2.0;
	CHECK(swf_channel_new(&c, &untouched) == SWF_E_INVALID);
	CHECK(untouched == (swf_channel *)&c);
	CHECK(swf_channel_new(&bernoulli, NULL) == SWF_E_INVALID);
}

/* Fills lost[] with the decisions for packets at i * interval_us. */
static void decisions(const swf_channel_config *config, uint64_t interval_us, bool *lost,
		      size_t packets)
{
	swf_channel *channel = check_channel_new(config);
	for (size_t i = 0; i < packets; i++)
		lost[i] = swf_channel_lost(channel, i * interval_us);
	swf_channel_free(channel);
}

static void test_seeds(void)
{
	enum { PACKETS = 20000 };
	static bool first[PACKETS], again[PACKETS], other[PACKETS];
	swf_channel_config random_models[] = {
		{.kind = SWF_CHANNEL_BERNOULLI, .loss = 0.1},
		{.kind = SWF_CHANNEL_GE_PACKET, .p = 0.05, .q = 0.2, .loss_bad = 1.0},
		{.kind = SWF_CHANNEL_GE_TIME, .p = 0.05, .q = 0.2, .step_ms = 1.0},
		{.kind = SWF_CHANNEL_OUTAGE, .period_ms = 100.0, .duration_ms = 10.0,
		 .jitter_ms = 50.0},
	};
	for (size_t m = 0; m < sizeof(random_models) / sizeof(random_models[0]); m++) {
		swf_channel_config config = random_models[m];
		config.seed = 1;
		decisions(&config, 1000, first, PACKETS);
		decisions(&config, 1000, again, PACKETS);
		config.seed = 2;
		decisions(&config, 1000, other, PACKETS);
		CHECK(memcmp(first, again, sizeof(first)) == 0);
		CHECK(memcmp(first, other, sizeof(first)) != 0);
	}
}

int main(void)
{
	test_bernoulli_rate();
	test_ge_packet_stationary();
	test_ge_time_stationary();
	test_ge_time_steps();
	test_outage_periodic();
	test_outage_jitter();
	test_trace();
	test_loss_edges();
	test_earlier_time_counts_as_latest();
	test_config_check();
	test_seeds();
	return 0;
}
