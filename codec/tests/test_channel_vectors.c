/*
 * test_channel_vectors.c - proves that the C channel models decide exactly as
 * the independent Python reference (tests/vectors/channel_reference.py) does:
 * for every case file in tests/vectors/channel, a channel built from the
 * case's config loses exactly the packets the case lists, packet by packet
 * (asked at each send time, or by overlap of each packet's time on the air
 * where the case gives one).
 * And that swf_channel_measure gives exactly the figures of the independent
 * reference (tests/vectors/channel_stats_reference.py) for every case file in
 * tests/vectors/channel/stats. The WebAssembly build checks the same files,
 * so both builds decide and measure alike.
 */
#include <math.h>
#include <stddef.h>

#include "check.h"
#include "json.h"

static const struct {
	const char *name;
	swf_channel_kind kind;
} KINDS[] = {
	{"perfect", SWF_CHANNEL_PERFECT},   {"bernoulli", SWF_CHANNEL_BERNOULLI},
	{"ge_packet", SWF_CHANNEL_GE_PACKET}, {"ge_time", SWF_CHANNEL_GE_TIME},
	{"outage", SWF_CHANNEL_OUTAGE},     {"trace", SWF_CHANNEL_TRACE},
};

/* The double fields of swf_channel_config, by name. */
static const struct {
	const char *name;
	size_t offset;
} NUMBER_PARAMS[] = {
#define PARAM(field) {#field, offsetof(swf_channel_config, field)}
	PARAM(loss),	   PARAM(p),	       PARAM(q),	 PARAM(loss_good),
	PARAM(loss_bad),   PARAM(step_ms),     PARAM(period_ms), PARAM(duration_ms),
	PARAM(phase_ms),   PARAM(jitter_ms),   PARAM(trace_period_ms),
#undef PARAM
};

typedef struct totals {
	size_t cases;
	size_t decisions;
} totals;

static void require(int ok, const char *path, const char *what)
{
	if (!ok) {
		fprintf(stderr, "%s: %s\n", path, what);
		exit(1);
	}
}

static uint64_t read_uint(const char *path, const json_value *value, const char *what,
			  double max)
{
	double x = json_number(value); /* NaN for a non-number fails every comparison */
	if (!(x >= 0 && x <= max && x == (double)(uint64_t)x)) {
		fprintf(stderr, "%s: %s must be an integer in [0, %.0f]\n", path, what, max);
		exit(1);
	}
	return (uint64_t)x;
}

static double read_number(const char *path, const json_value *value, const char *what)
{
	if (json_type(value) != JSON_NUMBER) {
		fprintf(stderr, "%s: params.%s must be a number\n", path, what);
		exit(1);
	}
	return json_number(value);
}

static swf_channel_kind read_kind(const char *path, const json_value *value)
{
	const char *name = json_string(value);
	for (size_t i = 0; name && i < sizeof(KINDS) / sizeof(KINDS[0]); i++)
		if (strcmp(name, KINDS[i].name) == 0)
			return KINDS[i].kind;
	require(0, path, "kind must be one of perfect, bernoulli, ge_packet, ge_time, outage, trace");
	return SWF_CHANNEL_PERFECT;
}

/* Fills the intervals of config from params.intervals; the caller frees them. */
static swf_loss_interval *read_intervals(const char *path, const json_value *array)
{
	require(json_type(array) == JSON_ARRAY, path, "params.intervals must be an array");
	size_t count = json_length(array);
	swf_loss_interval *intervals = calloc(count ? count : 1, sizeof(*intervals));
	CHECK(intervals);
	for (size_t i = 0; i < count; i++) {
		const json_value *interval = json_at(array, i);
		require(json_length(interval) == 2, path,
			"each of params.intervals must hold exactly start_ms and end_ms");
		intervals[i].start_ms = read_number(path, json_get(interval, "start_ms"), "start_ms");
		intervals[i].end_ms = read_number(path, json_get(interval, "end_ms"), "end_ms");
	}
	return intervals;
}

/* Sets the config fields the params name; an unknown name fails the case. */
static void read_params(const char *path, const json_value *params, swf_channel_config *config)
{
	require(json_type(params) == JSON_OBJECT, path, "params must be an object");
	for (size_t i = 0; i < json_length(params); i++) {
		const char *name = json_key(params, i);
		const json_value *value = json_at(params, i);
		if (strcmp(name, "intervals") == 0) {
			config->intervals = read_intervals(path, value);
			config->interval_count = json_length(value);
			continue;
		}
		size_t p = 0;
		while (p < sizeof(NUMBER_PARAMS) / sizeof(NUMBER_PARAMS[0]) &&
		       strcmp(name, NUMBER_PARAMS[p].name) != 0)
			p++;
		if (p == sizeof(NUMBER_PARAMS) / sizeof(NUMBER_PARAMS[0])) {
			fprintf(stderr, "%s: params.%s is no field of swf_channel_config\n", path, name);
			exit(1);
		}
		*(double *)((char *)config + NUMBER_PARAMS[p].offset) = read_number(path, value, name);
	}
}

static json_value *read_case(const char *path)
{
	char error[512];
	json_value *root = json_parse_file(path, error, sizeof(error));
	if (!root) {
		fprintf(stderr, "%s\n", error);
		exit(1);
	}
	return root;
}

/* The case's kind, seed and params; its intervals are the caller's to free. */
static swf_channel_config read_config(const char *path, const json_value *root)
{
	swf_channel_config config = {0};
	config.kind = read_kind(path, json_get(root, "kind"));
	config.seed = (uint32_t)read_uint(path, json_get(root, "seed"), "seed", UINT32_MAX);
	read_params(path, json_get(root, "params"), &config);
	const char *invalid = swf_channel_config_check(&config);
	if (invalid) {
		fprintf(stderr, "%s: swf_channel_config_check rejects field %s\n", path, invalid);
		exit(1);
	}
	return config;
}

static void check_case(const char *path, void *ctx)
{
	json_value *root = read_case(path);

	swf_channel_config config = read_config(path, root);
	uint64_t interval_us = read_uint(path, json_get(root, "interval_us"), "interval_us", 1e12);
	uint64_t packets = read_uint(path, json_get(root, "packets"), "packets", 1e9);
	/* Cases with air_us are decided by overlap: packet i on the air during
	 * [i * interval_us, + air_us). */
	const json_value *air = json_get(root, "air_us");
	uint64_t air_us = air ? read_uint(path, air, "air_us", 1e12) : 0;
	const json_value *lost = json_get(root, "lost");
	require(json_type(lost) == JSON_ARRAY, path, "lost must be an array");

	swf_channel *channel;
	CHECK_OK(swf_channel_new(&config, &channel));

	size_t next_lost = 0; /* index into lost of the next packet expected lost */
	uint64_t mismatches = 0;
	for (uint64_t i = 0; i < packets; i++) {
		bool expected = false;
		if (next_lost < json_length(lost)) {
			uint64_t index = read_uint(path, json_at(lost, next_lost), "each lost index",
						   (double)packets - 1);
			require(index >= i, path, "lost must list indices in increasing order");
			expected = index == i;
		}
		next_lost += expected;
		bool decided = air ? swf_channel_lost_during(channel, i * interval_us,
							     i * interval_us + air_us)
				   : swf_channel_lost(channel, i * interval_us);
		if (decided != expected && mismatches++ < 5)
			fprintf(stderr, "%s: packet %llu (t_us %llu): expected %s, the channel %s it\n",
				path, (unsigned long long)i, (unsigned long long)(i * interval_us),
				expected ? "lost" : "kept", decided ? "lost" : "kept");
	}
	if (mismatches) {
		fprintf(stderr, "%s: %llu of %llu decisions differ from the reference\n", path,
			(unsigned long long)mismatches, (unsigned long long)packets);
		exit(1);
	}

	totals *sums = ctx;
	sums->cases++;
	sums->decisions += packets;
	printf("%s: %llu decisions match (%zu lost)\n", path, (unsigned long long)packets,
	       json_length(lost));
	swf_channel_free(channel);
	free((void *)config.intervals);
	json_free(root);
}

/* One figure: equal to the reference's, a JSON null standing for NaN. */
static bool same_figure(const char *path, const json_value *expected, const char *name,
			double measured)
{
	const json_value *value = json_get(expected, name);
	bool same = json_type(value) == JSON_NULL ? isnan(measured)
						  : json_number(value) == measured;
	if (!same)
		fprintf(stderr, "%s: %s is %.17g, the reference says %.17g\n", path, name, measured,
			json_number(value));
	return same;
}

static void check_stats_case(const char *path, void *ctx)
{
	json_value *root = read_case(path);
	swf_channel_config config = read_config(path, root);
	const json_value *stream_json = json_get(root, "stream");
	swf_stream stream = {
		.duration_ms = read_number(path, json_get(stream_json, "duration_ms"), "duration_ms"),
		.rate_mbps = read_number(path, json_get(stream_json, "rate_mbps"), "rate_mbps"),
		.packet_bytes = (uint32_t)read_uint(path, json_get(stream_json, "packet_bytes"),
						    "stream.packet_bytes", UINT32_MAX),
	};
	/* Optional: the loss rule ("start" or "overlap") and the link's rate. */
	const json_value *rule = json_get(stream_json, "loss_rule");
	if (rule) {
		const char *name = json_string(rule);
		require(name && (strcmp(name, "start") == 0 || strcmp(name, "overlap") == 0), path,
			"stream.loss_rule must be \"start\" or \"overlap\"");
		stream.loss_rule = strcmp(name, "overlap") == 0 ? SWF_LOSS_OVERLAP : SWF_LOSS_AT_START;
	}
	const json_value *link_rate = json_get(stream_json, "link_rate_mbps");
	if (link_rate)
		stream.link_rate_mbps = read_number(path, link_rate, "link_rate_mbps");
	const json_value *expected = json_get(root, "stats");
	swf_channel_stats stats;
	CHECK_OK(swf_channel_measure(&config, &stream, &stats));

	const json_value *histogram = json_get(expected, "burst_histogram");
	require(json_length(histogram) == SWF_CHANNEL_BURST_BINS, path,
		"stats.burst_histogram must have SWF_CHANNEL_BURST_BINS counts");
	bool same = (json_type(json_get(expected, "time_based")) == JSON_TRUE) == stats.time_based;
	same &= same_figure(path, expected, "duration_us", (double)stats.duration_us);
	same &= same_figure(path, expected, "lost_us", (double)stats.lost_us);
	same &= same_figure(path, expected, "time_lost_ratio", stats.time_lost_ratio);
	same &= same_figure(path, expected, "packets", (double)stats.packets);
	same &= same_figure(path, expected, "packets_lost", (double)stats.packets_lost);
	same &= same_figure(path, expected, "packet_loss_ratio", stats.packet_loss_ratio);
	same &= same_figure(path, expected, "bursts", (double)stats.bursts);
	same &= same_figure(path, expected, "burst_min", stats.burst_min);
	same &= same_figure(path, expected, "burst_mean", stats.burst_mean);
	same &= same_figure(path, expected, "burst_max", stats.burst_max);
	for (size_t bin = 0; bin < SWF_CHANNEL_BURST_BINS; bin++)
		same &= json_number(json_at(histogram, bin)) == (double)stats.burst_histogram[bin];
	require(same, path, "swf_channel_measure differs from the reference (see above)");

	(*(size_t *)ctx)++;
	printf("%s: every figure matches (%llu packets, %llu bursts)\n", path,
	       (unsigned long long)stats.packets, (unsigned long long)stats.bursts);
	free((void *)config.intervals);
	json_free(root);
}

int main(void)
{
	totals sums = {0, 0};
	size_t files = json_for_each_file(SWF_VECTORS_DIR "/channel", ".json", check_case, &sums);
	if (files == 0) {
		fprintf(stderr, "no channel vectors in %s/channel: run tests/vectors/gen_channel.py\n",
			SWF_VECTORS_DIR);
		return 1;
	}
	CHECK(sums.cases == files);
	printf("%zu cases, %zu decisions, all as the reference\n", sums.cases, sums.decisions);

	size_t stats_cases = 0;
	files = json_for_each_file(SWF_VECTORS_DIR "/channel/stats", ".json", check_stats_case,
				   &stats_cases);
	if (files == 0) {
		fprintf(stderr, "no channel statistics vectors in %s/channel/stats: run "
			"tests/vectors/gen_channel.py\n", SWF_VECTORS_DIR);
		return 1;
	}
	CHECK(stats_cases == files);
	printf("%zu statistics cases, all as the reference\n", stats_cases);
	return 0;
}
