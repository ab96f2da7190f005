/*
 * test_channel_stats.c - proves that swf_channel_measure measures what the
 * channel models do: the optical preset (Gilbert-Elliott per 10 ms step from
 * 2.56 % of the time lost in bursts of mean 16.7 ms) over an hour loses
 * 2.56 % +- 0.1 of the time in bursts of 16.7 +- 0.5 ms, whole steps long;
 * the DVB train preset (15.2 ms every 258 ms) loses exactly its outages;
 * a trace's touching intervals make one burst; a burst cut by the end of
 * the duration keeps the length it had; per-packet models have no time loss
 * and bursts counted in packets; the stream's packet count and losses are
 * those of swf_channel_lost asked at each packet's send time, or by overlap
 * those of swf_channel_lost_during over its time on the air (the DVB preset
 * then loses (15.2 + air time) / 258 of the packets), with the same lost
 * time; the same seed repeats the figures; invalid inputs are named and
 * change nothing.
 *
 * Tolerances are those the brief states for the presets (2.5 and 3.5
 * standard deviations of the estimates over an hour) or exact where the
 * model is deterministic.
 */
#include <math.h>

#include "check.h"

#define HOUR_MS 3600e3

static const swf_stream STREAM_10_MBPS = {.duration_ms = HOUR_MS, .rate_mbps = 10.0,
					  .packet_bytes = 1400};

/* The optical preset of labs/geo-optical.yaml: q = step / mean burst,
 * p = q * r / (1 - r). */
static swf_channel_config optical(void)
{
	double q = 10.0 / 16.7, r = 0.0256;
	return (swf_channel_config){.kind = SWF_CHANNEL_GE_TIME, .seed = 1, .p = q * r / (1 - r),
				    .q = q, .step_ms = 10.0};
}

static swf_channel_stats stats_of(const swf_channel_config *config, const swf_stream *stream)
{
	swf_channel_stats stats;
	CHECK_OK(swf_channel_measure(config, stream, &stats));
	return stats;
}

static uint64_t histogram_total(const swf_channel_stats *stats)
{
	uint64_t total = 0;
	for (size_t bin = 0; bin < SWF_CHANNEL_BURST_BINS; bin++)
		total += stats->burst_histogram[bin];
	return total;
}

static void test_optical_preset_over_an_hour(void)
{
	swf_channel_config config = optical();
	swf_channel_stats stats = stats_of(&config, &STREAM_10_MBPS);
	printf("optical: %.4f %% of the time lost, bursts %.1f/%.2f/%.1f ms (%llu), "
	       "%.4f %% of packets\n",
	       100 * stats.time_lost_ratio, stats.burst_min, stats.burst_mean, stats.burst_max,
	       (unsigned long long)stats.bursts, 100 * stats.packet_loss_ratio);
	CHECK(stats.time_based);
	CHECK(stats.duration_us == 3600000000u);
	CHECK(fabs(stats.time_lost_ratio - 0.0256) <= 0.001);
	CHECK(fabs(stats.burst_mean - 16.7) <= 0.5);
	CHECK(stats.burst_min == 10.0);
	CHECK((uint64_t)stats.burst_max % 10 == 0 && stats.burst_max == (uint64_t)stats.burst_max);
	CHECK(stats.lost_us % 10000 == 0);
	/* Every burst is whole steps: 10, 20, 30 ... ms fill only the even bins. */
	for (size_t bin = 1; bin < SWF_CHANNEL_BURST_BINS - 1; bin += 2)
		CHECK(stats.burst_histogram[bin] == 0);
	CHECK(histogram_total(&stats) == stats.bursts);
	/* 8 or 9 packets per step sample the time closely. */
	CHECK(fabs(stats.packet_loss_ratio - stats.time_lost_ratio) <= 0.0005);
}

static void test_dvb_train_preset_loses_its_outages(void)
{
	swf_channel_config config = {.kind = SWF_CHANNEL_OUTAGE, .seed = 1, .period_ms = 258.0,
				     .duration_ms = 15.2};
	swf_channel_stats stats = stats_of(&config, &STREAM_10_MBPS);
	printf("dvb: %.4f %% of the time lost, %.4f %% of packets\n", 100 * stats.time_lost_ratio,
	       100 * stats.packet_loss_ratio);
	/* 13954 outages start in the hour (the last 126 ms after its start). */
	CHECK(stats.bursts == 13954);
	CHECK(stats.lost_us == 13954u * 15200u);
	CHECK(fabs(stats.time_lost_ratio - 0.0589) <= 0.0001);
	CHECK(stats.burst_min == 15.2 && stats.burst_mean == 15.2 && stats.burst_max == 15.2);
	CHECK(stats.burst_histogram[3] == stats.bursts); /* [15, 20) ms */
	/* 13 or 14 of a period's 230.4 packets fall in an outage. */
	CHECK(fabs(stats.packet_loss_ratio - 0.0589) <= 0.002);
}

static void test_touching_trace_intervals_are_one_burst(void)
{
	const swf_loss_interval intervals[] = {{100.0, 350.5}, {2000.0, 2040.0}, {2040.0, 2041.25}};
	swf_channel_config config = {.kind = SWF_CHANNEL_TRACE, .intervals = intervals,
				     .interval_count = 3, .trace_period_ms = 5000.0};
	/* A packet every ms. */
	swf_stream stream = {.duration_ms = 10000.0, .rate_mbps = 8.0, .packet_bytes = 1000};
	swf_channel_stats stats = stats_of(&config, &stream);
	CHECK(stats.bursts == 4); /* twice: 250.5 ms and 41.25 ms */
	CHECK(stats.burst_min == 41.25 && stats.burst_max == 250.5);
	CHECK(stats.lost_us == 2 * (250500 + 41250));
	CHECK(stats.burst_histogram[8] == 2);  /* [40, 45) ms */
	CHECK(stats.burst_histogram[15] == 2); /* 75 ms and more */
	/* Packets at whole ms: 100..350 and 2000..2041, twice. */
	CHECK(stats.packets == 10000 && stats.packets_lost == 2 * (251 + 42));
}

static void test_a_burst_cut_by_the_end_keeps_its_length(void)
{
	swf_channel_config config = {.kind = SWF_CHANNEL_OUTAGE, .period_ms = 100.0,
				     .duration_ms = 50.0};
	swf_stream stream = {.duration_ms = 125.0, .rate_mbps = 8.0, .packet_bytes = 1000};
	swf_channel_stats stats = stats_of(&config, &stream);
	CHECK(stats.bursts == 2 && stats.burst_min == 25.0 && stats.burst_max == 50.0);
	CHECK(stats.time_lost_ratio == 75.0 / 125.0);
}

static void test_per_packet_models_count_bursts_in_packets(void)
{
	/* 1000 packets a second. */
	swf_stream stream = {.duration_ms = 100e3, .rate_mbps = 10.0, .packet_bytes = 1250};
	swf_channel_config bernoulli = {.kind = SWF_CHANNEL_BERNOULLI, .seed = 3, .loss = 0.05};
	swf_channel_stats stats = stats_of(&bernoulli, &stream);
	CHECK(!stats.time_based && isnan(stats.time_lost_ratio) && stats.lost_us == 0);
	CHECK(stats.packets == 100000);
	/* sd 0.07 % of 100,000 draws; a burst lasts 1 / (1 - loss) packets */
	CHECK(fabs(stats.packet_loss_ratio - 0.05) <= 0.0035);
	CHECK(stats.burst_min == 1.0 && fabs(stats.burst_mean - 1.0 / 0.95) <= 0.02);
	CHECK(histogram_total(&stats) == stats.bursts);
	CHECK(stats.burst_histogram[0] > stats.burst_histogram[1]);

	/* Gilbert-Elliott per packet, lossless good and lossy bad state: bursts
	 * of mean 1 / q packets, p / (p + q) of the packets lost. */
	swf_channel_config ge = {.kind = SWF_CHANNEL_GE_PACKET, .seed = 4, .p = 0.01, .q = 0.25,
				 .loss_bad = 1.0};
	stats = stats_of(&ge, &stream);
	CHECK(fabs(stats.burst_mean - 4.0) <= 0.25);
	CHECK(fabs(stats.packet_loss_ratio - 0.01 / 0.26) <= 0.006);
}

/* The stream's packets are exactly those a loop asking swf_channel_lost at
 * floor(i * bits / rate) would send, and lose. */
static void test_stream_losses_are_the_channels_decisions(void)
{
	swf_channel_config configs[] = {
		optical(),
		{.kind = SWF_CHANNEL_OUTAGE, .seed = 9, .period_ms = 258.0, .duration_ms = 15.2,
		 .phase_ms = 3.0, .jitter_ms = 40.0},
		{.kind = SWF_CHANNEL_BERNOULLI, .seed = 5, .loss = 0.02},
	};
	/* 933.3 us apart: not whole microseconds. */
	swf_stream stream = {.duration_ms = 60e3, .rate_mbps = 12.0, .packet_bytes = 1400};
	for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
		swf_channel_stats stats = stats_of(&configs[c], &stream);
		swf_channel *channel;
		CHECK_OK(swf_channel_new(&configs[c], &channel));
		uint64_t packets = 0, lost = 0;
		for (uint64_t t_us; (t_us = (uint64_t)(packets * 11200.0 / 12.0)) < 60000000u;
		     packets++)
			lost += swf_channel_lost(channel, t_us);
		swf_channel_free(channel);
		CHECK(stats.packets == packets && stats.packets_lost == lost);
	}
}

/* By overlap, the stream's packets are those a loop asking
 * swf_channel_lost_during over [t, t + ceil(bits / link rate)) would lose;
 * the lost time is the same as by the start rule. */
static void test_stream_losses_by_overlap_are_the_channels_decisions(void)
{
	swf_channel_config configs[] = {
		optical(),
		{.kind = SWF_CHANNEL_OUTAGE, .seed = 9, .period_ms = 258.0, .duration_ms = 15.2,
		 .phase_ms = 3.0, .jitter_ms = 40.0},
		{.kind = SWF_CHANNEL_BERNOULLI, .seed = 5, .loss = 0.02},
	};
	/* 1120 us apart, 933.3 us on the air (ceil: 934). */
	swf_stream at_start = {.duration_ms = 60e3, .rate_mbps = 10.0, .packet_bytes = 1400};
	swf_stream overlap = at_start;
	overlap.loss_rule = SWF_LOSS_OVERLAP;
	overlap.link_rate_mbps = 12.0;
	for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
		swf_channel_stats stats = stats_of(&configs[c], &overlap);
		swf_channel_stats start_stats = stats_of(&configs[c], &at_start);
		swf_channel *channel;
		CHECK_OK(swf_channel_new(&configs[c], &channel));
		uint64_t packets = 0, lost = 0;
		for (uint64_t t_us; (t_us = packets * 1120) < 60000000u; packets++)
			lost += swf_channel_lost_during(channel, t_us, t_us + 934);
		swf_channel_free(channel);
		CHECK(stats.packets == packets && stats.packets_lost == lost);
		CHECK(stats.lost_us == start_stats.lost_us && stats.bursts == start_stats.bursts);
		if (stats.time_based)
			CHECK(stats.packets_lost > start_stats.packets_lost);
		else
			CHECK(stats.packets_lost == start_stats.packets_lost);
	}
}

/* By overlap, a packet of the DVB preset is lost if it starts within its
 * air time before an outage or during one: (15.2 + 1.12) / 258 of them for
 * 1400-byte packets back to back at 10 Mbit/s, 14 or 15 packets an
 * outage. */
static void test_dvb_train_preset_by_overlap(void)
{
	swf_channel_config config = {.kind = SWF_CHANNEL_OUTAGE, .seed = 1, .period_ms = 258.0,
				     .duration_ms = 15.2};
	swf_stream stream = STREAM_10_MBPS;
	stream.loss_rule = SWF_LOSS_OVERLAP;
	swf_channel_stats stats = stats_of(&config, &stream);
	printf("dvb by overlap: %.4f %% of packets\n", 100 * stats.packet_loss_ratio);
	CHECK(stats.lost_us == 13954u * 15200u);
	CHECK(fabs(stats.packet_loss_ratio - (15.2 + 1.12) / 258) <= 0.002);
}

static void test_perfect_loses_nothing(void)
{
	swf_channel_config config = {.kind = SWF_CHANNEL_PERFECT};
	swf_channel_stats stats = stats_of(&config, &STREAM_10_MBPS);
	CHECK(stats.time_based && stats.time_lost_ratio == 0.0 && stats.packets_lost == 0);
	CHECK(stats.bursts == 0 && stats.burst_mean == 0.0 && histogram_total(&stats) == 0);
}

static void test_the_seed_repeats_the_figures(void)
{
	swf_channel_config config = optical();
	swf_stream stream = {.duration_ms = 600e3, .rate_mbps = 10.0, .packet_bytes = 1400};
	swf_channel_stats first = stats_of(&config, &stream), again = stats_of(&config, &stream);
	CHECK(memcmp(&first, &again, sizeof first) == 0);
	config.seed = 2;
	swf_channel_stats other = stats_of(&config, &stream);
	CHECK(other.lost_us != first.lost_us);
}

static void test_invalid_inputs_are_named(void)
{
	swf_channel_config config = optical();
	swf_stream good = {.duration_ms = 1000.0, .rate_mbps = 10.0, .packet_bytes = 1400};
	swf_stream bad_duration = good, nan_duration = good, bad_rate = good, bad_bytes = good,
		   bad_rule = good, slow_link = good, fast_link = good;
	bad_duration.duration_ms = 0.0;
	nan_duration.duration_ms = NAN;
	bad_rate.rate_mbps = 0.0;
	bad_bytes.packet_bytes = 0;
	bad_rule.loss_rule = (swf_loss_rule)2;
	slow_link.link_rate_mbps = 9.0; /* below the stream's 10 */
	fast_link.link_rate_mbps = 2e6;
	CHECK(swf_stream_check(&good) == NULL);
	CHECK(strcmp(swf_stream_check(&bad_duration), "duration_ms") == 0);
	CHECK(strcmp(swf_stream_check(&nan_duration), "duration_ms") == 0);
	CHECK(strcmp(swf_stream_check(&bad_rate), "rate_mbps") == 0);
	CHECK(strcmp(swf_stream_check(&bad_bytes), "packet_bytes") == 0);
	CHECK(strcmp(swf_stream_check(&bad_rule), "loss_rule") == 0);
	CHECK(strcmp(swf_stream_check(&slow_link), "link_rate_mbps") == 0);
	CHECK(strcmp(swf_stream_check(&fast_link), "link_rate_mbps") == 0);

	swf_channel_stats stats, untouched;
	memset(&stats, 0xA5, sizeof stats);
	memcpy(&untouched, &stats, sizeof stats);
	CHECK(swf_channel_measure(&config, &bad_rate, &stats) == SWF_E_INVALID);
	config.q = 1.5;
	CHECK(swf_channel_measure(&config, &good, &stats) == SWF_E_INVALID);
	CHECK(memcmp(&stats, &untouched, sizeof stats) == 0);
}

int main(void)
{
	test_optical_preset_over_an_hour();
	test_dvb_train_preset_loses_its_outages();
	test_touching_trace_intervals_are_one_burst();
	test_a_burst_cut_by_the_end_keeps_its_length();
	test_per_packet_models_count_bursts_in_packets();
	test_stream_losses_are_the_channels_decisions();
	test_stream_losses_by_overlap_are_the_channels_decisions();
	test_dvb_train_preset_by_overlap();
	test_perfect_loses_nothing();
	test_the_seed_repeats_the_figures();
	test_invalid_inputs_are_named();
	printf("channel stats: all checks passed\n");
	return 0;
}
