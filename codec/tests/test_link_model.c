/*
 * test_link_model.c - proves satlink's link model (codec/tools/link_model.c)
 * without a device or a clock: a packet takes len x 8 / rate to serialise
 * (1500 bytes at 10 Mbit/s: 1.2 ms) from when the link is free, and is due
 * at its end plus the delay (the model tells the serialisation of the last
 * packet it took, a lost one too); the drop-tail buffer counts bytes and packets
 * not yet serialised, the part of the packet on the wire already sent
 * excluded; the AQM drops its share of the arrivals above its threshold,
 * none below; the ring's capacity overflows; a falling delay never reorders
 * packets; a rate trace applies the rate in force when serialisation
 * starts; frames make packets leave at frame times and lose whole frames.
 *
 * And the loss rules, exactly: by overlap, a packet whose serialisation
 * overlaps an outage by a nanosecond is lost and one that ends where the
 * outage starts is kept; at the start, only the start counts; a frame is
 * lost if its time on the air meets lost time. And statistically: a stream
 * of 1500-byte packets at 10 Mbit/s loses, by overlap, the fraction f of
 * the time lost plus the rate of loss-period starts times 1.2 ms (the
 * optical preset: 2.56 % + 0.18 %; the DVB preset: (15.2 + 1.2) / 258), and
 * at the start f alone, each within 5 binomial standard deviations of the
 * expectation computed from the channel's own realisation (its lost time
 * and burst starts, by a twin channel of the same seed), the stationary
 * value within 5 of the Gilbert-Elliott chain's.
 */
#include <math.h>

#include "check.h"
#include "link_model.h"

#define MS UINT64_C(1000000) /* ns */

/* 10 Mbit/s, no delay, no limits, a perfect channel decided by overlap. */
static link_model_config plain_link(void)
{
	return (link_model_config){
		.rate_mbps = 10.0,
		.buffer_bytes = LINK_UNLIMITED,
		.buffer_packets = LINK_UNLIMITED,
		.aqm_threshold_bytes = LINK_UNLIMITED,
		.aqm_seed = 1,
		.delay_seed = 1,
		.channel = {.kind = SWF_CHANNEL_PERFECT, .seed = 1},
		.loss_rule = SWF_LOSS_OVERLAP,
		.queue_capacity = 1024,
	};
}

static link_model *model_of(const link_model_config *config)
{
	link_model *model;
	CHECK_OK(link_model_new(config, &model));
	return model;
}

static void check_near(const char *what, double value, double expected, double tolerance)
{
	printf("%s: %.5f (expected %.5f +- %.5f)\n", what, value, expected, tolerance);
	CHECK(fabs(value - expected) <= tolerance);
}

/* The due time of a packet that must be sent. */
static uint64_t sent(link_model *model, uint64_t now_ns, uint32_t len)
{
	uint64_t due = 0;
	CHECK(link_model_offer(model, now_ns, len, &due) == LINK_SENT);
	return due;
}

static void test_serialisation_and_delay(void)
{
	link_model_config config = plain_link();
	config.delay_ms = 250.0;
	link_model *model = model_of(&config);
	/* Three packets at once: back to back, 1.2 ms each. */
	CHECK(sent(model, 0, 1500) == 1200000u + 250 * MS);
	CHECK(sent(model, 0, 1500) == 2400000u + 250 * MS);
	CHECK(sent(model, 100, 1500) == 3600000u + 250 * MS);
	uint64_t start, end;
	link_model_last_serialisation(model, &start, &end);
	CHECK(start == 2400000u && end == 3600000u);
	CHECK(link_model_free_at_ns(model) == 3600000u);
	/* At 1.8 ms, 1.8 ms of serialisation are left: 2250 bytes. */
	CHECK(link_model_queue_bytes(model, link_model_free_at_ns(model), 1800000u) == 2250);
	CHECK(link_model_queue_bytes(model, link_model_free_at_ns(model), 5 * MS) == 0);
	/* An idle link starts at once. */
	CHECK(sent(model, 10 * MS, 100) == 10 * MS + 80000u + 250 * MS);
	link_model_free(model);

	config.rate_mbps = 0; /* unlimited: no serialisation time */
	model = model_of(&config);
	CHECK(sent(model, 7 * MS, 1500) == 257 * MS);
	CHECK(sent(model, 7 * MS, 1500) == 257 * MS);
	link_model_last_serialisation(model, &start, &end);
	CHECK(start == 7 * MS && end == 7 * MS);
	link_model_free(model);
}

static void test_drop_tail_buffer(void)
{
	link_model_config config = plain_link();
	config.buffer_bytes = 3000;
	link_model *model = model_of(&config);
	uint64_t due;
	sent(model, 0, 1500);
	sent(model, 0, 1500);
	CHECK(link_model_offer(model, 0, 1, &due) == LINK_DROP_BUFFER);
	/* At 0.6 ms half the first packet is on the wire: 750 bytes free. */
	CHECK(link_model_offer(model, 600000, 751, &due) == LINK_DROP_BUFFER);
	sent(model, 600000, 750);
	link_model_free(model);

	config = plain_link();
	config.buffer_packets = 2;
	model = model_of(&config);
	sent(model, 0, 1500);
	sent(model, 0, 1500);
	CHECK(link_model_offer(model, 1199999, 100, &due) == LINK_DROP_BUFFER);
	sent(model, 1200000, 100); /* the first has left */
	link_model_free(model);

	config = plain_link();
	config.queue_capacity = 3;
	model = model_of(&config);
	for (int i = 0; i < 3; i++)
		sent(model, 0, 1500);
	CHECK(link_model_offer(model, 0, 1500, &due) == LINK_DROP_OVERFLOW);
	link_model_free(model);
}

/* 25 % of the arrivals that find more than 3000 bytes waiting are dropped:
 * sd sqrt(0.25 * 0.75 / n), 0.43 % for 10^4 of them; none below. */
static void test_aqm_drops_its_share_above_the_threshold(void)
{
	link_model_config config = plain_link();
	config.aqm_threshold_bytes = 3000;
	config.aqm_drop_ratio = 0.25;
	config.aqm_seed = 7;
	link_model *model = model_of(&config);
	uint64_t due, above = 0, dropped = 0;
	for (int i = 0; i < 20000; i++) {
		/* 1.25 times the rate: 0.94 times it once a quarter is dropped, so
		 * the queue hovers around the threshold. */
		uint64_t now = (uint64_t)i * 960000u;
		bool full = link_model_queue_bytes(model, link_model_free_at_ns(model), now) > 3000;
		link_fate fate = link_model_offer(model, now, 1500, &due);
		CHECK(fate == LINK_SENT || (full && fate == LINK_DROP_AQM));
		above += full;
		dropped += fate == LINK_DROP_AQM;
	}
	CHECK(above > 5000 && 20000 - above > 1000); /* both kinds of arrival, many */
	check_near("aqm: share of the arrivals above the threshold dropped",
		   (double)dropped / (double)above, 0.25, 5 * sqrt(0.25 * 0.75 / (double)above));
	link_model_free(model);
}

/* A delay trace falling from 30 to 0 ms: packets wait for the one before. */
static void test_falling_delay_never_reorders(void)
{
	const link_trace_step steps[] = {{0, 30.0}, {10, 0.0}};
	link_model_config config = plain_link();
	config.rate_mbps = 0;
	config.delay_trace = (link_step_trace){steps, 2, 0};
	link_model *model = model_of(&config);
	CHECK(sent(model, 9 * MS, 100) == 39 * MS);
	CHECK(sent(model, 11 * MS, 100) == 39 * MS); /* not 11 ms */
	CHECK(sent(model, 40 * MS, 100) == 40 * MS);
	link_model_free(model);
}

/* Delay bins held for 2 ms steps, weights 1 : 3: the extra delay at a time
 * is the same whatever traffic came before (step k holds the k-th pair of
 * draws). A sparse link, a packet every 20 ms (wider than any delay, so
 * never held back), sees t + extra(t); a busy one, a packet every 0.5 ms,
 * the same unless the packet before is due later. */
static void test_delay_steps_depend_on_time_only(void)
{
	link_model_config config = plain_link();
	config.rate_mbps = 0;
	config.delay_bins[0] = (link_delay_bin){1, 0, 5};
	config.delay_bins[1] = (link_delay_bin){3, 10, 20};
	config.delay_bin_count = 2;
	config.delay_step_ms = 2.0;
	config.delay_seed = 9;
	link_model *busy = model_of(&config), *sparse = model_of(&config);
	uint64_t busy_due = 0, samples = 0, high = 0;
	for (uint64_t t = 0; t < 100000 * MS; t += MS / 2) {
		if (t % (20 * MS) == 0) {
			uint64_t due = sent(sparse, t, 100), extra = due - t;
			CHECK(extra <= 5 * MS || (extra >= 10 * MS && extra <= 20 * MS));
			samples++;
			high += extra >= 10 * MS;
			uint64_t expected = due > busy_due ? due : busy_due;
			CHECK((busy_due = sent(busy, t, 100)) == expected);
		} else {
			uint64_t due = sent(busy, t, 100);
			CHECK(due >= busy_due);
			busy_due = due;
		}
	}
	CHECK(samples == 5000);
	check_near("delay bins: share of the high range", (double)high / (double)samples, 0.75,
		   5 * sqrt(0.75 * 0.25 / 5000));
	link_model_free(busy);
	link_model_free(sparse);
}

/* The rate in force when serialisation starts: 4 Mbit/s for 10 ms, then
 * 12 Mbit/s. */
static void test_rate_trace(void)
{
	const link_trace_step steps[] = {{0, 4.0}, {10, 12.0}};
	link_model_config config = plain_link();
	config.rate_mbps = 0;
	config.rate_trace = (link_step_trace){steps, 2, 0};
	link_model *model = model_of(&config);
	CHECK(sent(model, 9 * MS, 1500) == 12 * MS);            /* 3 ms at 4 Mbit/s */
	CHECK(sent(model, 9 * MS, 1500) == 13 * MS);            /* 1 ms at 12 */
	CHECK(link_model_queue_bytes(model, 13 * MS, 12 * MS) == 1500); /* at the rate now */
	link_model_free(model);
}

/* Outage [10, 15.2) ms; 1500 bytes at 10 Mbit/s take 1.2 ms. */
static bool outage_loses(swf_loss_rule rule, uint64_t start_ns)
{
	link_model_config config = plain_link();
	config.channel = (swf_channel_config){.kind = SWF_CHANNEL_OUTAGE, .period_ms = 100.0,
					      .duration_ms = 5.2, .phase_ms = 10.0};
	config.loss_rule = rule;
	link_model *model = model_of(&config);
	uint64_t due, tx_start, tx_end;
	link_fate fate = link_model_offer(model, start_ns, 1500, &due);
	/* A lost packet occupied the link: its serialisation is known. */
	link_model_last_serialisation(model, &tx_start, &tx_end);
	CHECK(tx_start == start_ns && tx_end == start_ns + 1200000u);
	link_model_free(model);
	return fate == LINK_DROP_CHANNEL;
}

static void test_overlap_edges(void)
{
	CHECK(!outage_loses(SWF_LOSS_OVERLAP, 8800000));  /* ends where it starts */
	CHECK(outage_loses(SWF_LOSS_OVERLAP, 8800001));   /* 1 ns into it */
	CHECK(!outage_loses(SWF_LOSS_AT_START, 9999999)); /* at the start: before it */
	CHECK(outage_loses(SWF_LOSS_OVERLAP, 15199999));
	CHECK(outage_loses(SWF_LOSS_AT_START, 15199999));
	CHECK(!outage_loses(SWF_LOSS_OVERLAP, 15200000)); /* starts where it ends */
	CHECK(!outage_loses(SWF_LOSS_AT_START, 15200000));
}

/* Frames every 10 ms: packets leave at the frame after their serialisation;
 * a 2 ms outage at 101 ms meets frame [100, 110) on the air: by overlap it
 * is lost, at the start it is not, and the next frame is kept. */
static void test_frames(void)
{
	for (int rule = 0; rule < 2; rule++) {
		link_model_config config = plain_link();
		config.frame_ms = 10.0;
		config.delay_ms = 20.0;
		config.channel = (swf_channel_config){.kind = SWF_CHANNEL_OUTAGE, .period_ms = 1000.0,
						      .duration_ms = 2.0, .phase_ms = 101.0};
		config.loss_rule = rule == 0 ? SWF_LOSS_OVERLAP : SWF_LOSS_AT_START;
		link_model *model = model_of(&config);
		uint64_t due;
		CHECK(sent(model, 0, 1500) == 30 * MS); /* ends at 1.2: frame 10 ms */
		CHECK(sent(model, 5 * MS, 1500) == 30 * MS);
		CHECK(sent(model, 11 * MS, 1500) == 40 * MS);
		/* Ends at 90.6 and 98.8 ms: frame 100 ms, on the air until 110. */
		link_fate fate = link_model_offer(model, 89400000, 1500, &due);
		CHECK(fate == (rule == 0 ? LINK_DROP_CHANNEL : LINK_SENT));
		CHECK(link_model_offer(model, 97600000, 1500, &due) == fate); /* the same frame */
		CHECK(sent(model, 101 * MS, 1500) == 130 * MS);
		link_model_free(model);
	}
}

/* What a Gilbert-Elliott channel's realisation says a stream of packets
 * on the air for air_ns, at uniform times, loses: its lost time (bad
 * steps) plus, per burst start, the air time before it (bursts are at least
 * a step apart, longer than the air time). A twin of the same seed asked
 * at each step's start has the same steps. */
typedef struct realisation {
	double lost_ratio, starts_per_ns;
} realisation;

static realisation realised_steps(const swf_channel_config *channel, uint64_t steps)
{
	swf_channel *twin = check_channel_new(channel);
	uint64_t step_us = (uint64_t)llround(channel->step_ms * 1000), bad = 0, starts = 0;
	bool was_bad = false;
	for (uint64_t k = 0; k < steps; k++) {
		bool lost = swf_channel_lost(twin, k * step_us);
		bad += lost;
		starts += lost && !was_bad;
		was_bad = lost;
	}
	swf_channel_free(twin);
	return (realisation){(double)bad / (double)steps,
			     (double)starts / ((double)steps * (double)step_us * 1000)};
}

typedef struct stream_losses {
	uint64_t packets, lost;
} stream_losses;

/* 1500-byte packets at 10 Mbit/s (1.2 ms each), 1.2 ms + an exponential gap
 * of mean 1.2 ms apart (seeded): the link never queues, and their times
 * fall uniformly on the channel's lost time. */
static stream_losses random_stream(const swf_channel_config *channel, swf_loss_rule rule,
				   uint64_t duration_ns)
{
	link_model_config config = plain_link();
	config.channel = *channel;
	config.loss_rule = rule;
	link_model *model = model_of(&config);
	uint64_t state = 12345, due;
	stream_losses counts = {0, 0};
	for (uint64_t t = 0; t < duration_ns;) {
		counts.lost += link_model_offer(model, t, 1500, &due) == LINK_DROP_CHANNEL;
		counts.packets++;
		double u = ((double)(test_rand(&state) >> 11) + 0.5) / 9007199254740992.0;
		t += 1200000u + (uint64_t)(-log(u) * 1200000.0);
	}
	link_model_free(model);
	return counts;
}

static double binomial_sd(double p, uint64_t n)
{
	return sqrt(p * (1 - p) / (double)n);
}

/* The optical preset: p and q from 2.56 % of the time in bursts of mean
 * 16.7 ms (10 ms steps). By overlap a packet is also lost when its 1.2 ms
 * on the air reach into the next step and that one starts a burst:
 * f + (rate of burst starts) x 1.2 ms = 2.56 % + 0.18 %. */
static void test_optical_preset_loses_time_plus_burst_starts_times_air(void)
{
	double q = 10.0 / 16.7, f = 0.0256, p = q * f / (1 - f);
	swf_channel_config channel = {.kind = SWF_CHANNEL_GE_TIME, .seed = 5, .p = p, .q = q,
				      .step_ms = 10.0};
	uint64_t duration_ns = 10000ull * 1000 * MS; /* 10^6 steps, 4.2 million packets */
	realisation r = realised_steps(&channel, 1000000);
	stream_losses overlap = random_stream(&channel, SWF_LOSS_OVERLAP, duration_ns);
	stream_losses start = random_stream(&channel, SWF_LOSS_AT_START, duration_ns);
	double air_ns = 1.2e6;
	double expected = r.lost_ratio + r.starts_per_ns * air_ns;
	double measured = (double)overlap.lost / (double)overlap.packets;
	check_near("optical by overlap, against its realisation", measured, expected,
		   5 * binomial_sd(expected, overlap.packets));
	check_near("optical at the start, against its realisation",
		   (double)start.lost / (double)start.packets, r.lost_ratio,
		   5 * binomial_sd(r.lost_ratio, start.packets));
	/* The stationary chain: bad p / (p + q) of the steps, a burst starting
	 * in a step with probability (1 - bad) p. The estimate's sd over n
	 * steps: sqrt(bad (1 - bad) (1 + l) / (1 - l) / n), l = 1 - p - q. */
	double bad = p / (p + q), l = 1 - p - q;
	double stationary = bad + (1 - bad) * p * air_ns / (10.0 * MS);
	double chain_sd = sqrt(bad * (1 - bad) * (1 + l) / (1 - l) / 1e6);
	check_near("optical by overlap, against the chain", measured, stationary, 5 * chain_sd);
	CHECK(measured - (double)start.lost / (double)start.packets > 0.001);
}

/* The DVB preset, 15.2 ms every 258 ms: a packet is lost if it starts in
 * the 1.2 ms before an outage or during it, (15.2 + 1.2) / 258 of them. */
static void test_dvb_preset_loses_outage_plus_air_time(void)
{
	swf_channel_config channel = {.kind = SWF_CHANNEL_OUTAGE, .seed = 1, .period_ms = 258.0,
				      .duration_ms = 15.2};
	uint64_t duration_ns = 2000ull * 1000 * MS;
	stream_losses overlap = random_stream(&channel, SWF_LOSS_OVERLAP, duration_ns);
	stream_losses start = random_stream(&channel, SWF_LOSS_AT_START, duration_ns);
	double expected = (15.2 + 1.2) / 258, at_start = 15.2 / 258;
	check_near("dvb by overlap", (double)overlap.lost / (double)overlap.packets, expected,
		   5 * binomial_sd(expected, overlap.packets));
	check_near("dvb at the start", (double)start.lost / (double)start.packets, at_start,
		   5 * binomial_sd(at_start, start.packets));
}

static void check_refused(const link_model_config *config, const char *field)
{
	const char *refused = link_model_config_check(config);
	CHECK(refused != NULL && strcmp(refused, field) == 0);
	link_model *model = NULL;
	CHECK(link_model_new(config, &model) == SWF_E_INVALID && model == NULL);
}

static void test_invalid_configs_are_named(void)
{
	const link_trace_step backwards[] = {{0, 1.0}, {5, 2.0}, {5, 3.0}};
	link_model_config config = plain_link();
	CHECK(link_model_config_check(&config) == NULL);
	config.rate_mbps = -1;
	check_refused(&config, "rate_mbps");
	config = plain_link();
	config.rate_trace = (link_step_trace){backwards, 3, 0};
	check_refused(&config, "rate_trace");
	config = plain_link();
	config.frame_ms = 0.0001;
	check_refused(&config, "frame_ms");
	config = plain_link();
	config.aqm_threshold_bytes = 100;
	config.aqm_drop_ratio = 1.5;
	check_refused(&config, "aqm_drop_ratio");
	config.rate_mbps = 0;
	check_refused(&config, "aqm_threshold_bytes");
	config = plain_link();
	config.delay_bin_count = 1;
	config.delay_bins[0] = (link_delay_bin){1, 5, 4};
	config.delay_step_ms = 1;
	check_refused(&config, "delay_bins");
	config.delay_bins[0] = (link_delay_bin){1, 4, 5};
	config.delay_step_ms = 0;
	check_refused(&config, "delay_step_ms");
	config = plain_link();
	config.channel.kind = SWF_CHANNEL_BERNOULLI;
	config.channel.loss = 2;
	check_refused(&config, "channel");
	config = plain_link();
	config.loss_rule = (swf_loss_rule)5;
	check_refused(&config, "loss_rule");
	config = plain_link();
	config.queue_capacity = 0;
	check_refused(&config, "queue_capacity");
}

int main(void)
{
	test_serialisation_and_delay();
	test_drop_tail_buffer();
	test_aqm_drops_its_share_above_the_threshold();
	test_falling_delay_never_reorders();
	test_delay_steps_depend_on_time_only();
	test_rate_trace();
	test_overlap_edges();
	test_frames();
	test_optical_preset_loses_time_plus_burst_starts_times_air();
	test_dvb_preset_loses_outage_plus_air_time();
	test_invalid_configs_are_named();
	printf("link model: all checks passed\n");
	return 0;
}
