/*
 * swf-channel - what a channel model does, computed by libswf: its
 * statistics (swf_channel_measure) as one JSON object, or the intervals of
 * time it loses, as a loss trace.
 *
 * The channel is given with satlink's --channel syntax, so that what this
 * prints is what satlink's channel of the same specification (and seed)
 * does: the fraction of the time lost, the bursts, and the losses of a
 * constant-rate packet stream sent through it, by either of satlink's loss
 * rules; or the lost intervals themselves, which satlink's trace channel
 * replays.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static const char usage[] =
	"Usage: swf-channel stats --channel SPEC [--duration-s S] [--rate-mbps R]\n"
	"                         [--packet-bytes B] [--loss-rule RULE]\n"
	"                         [--link-rate-mbps L]\n"
	"       swf-channel intervals --channel SPEC [--duration-s S]\n"
	"\n"
	"stats runs the channel model SPEC (satlink's --channel syntax, see satlink\n"
	"--help) for S seconds (default 60, at most 86400) with a stream of B-byte\n"
	"packets (default 1400) at R Mbit/s (default 10): packet i is sent at\n"
	"floor(i * B * 8 / R) us and decided by RULE as satlink's --loss-rule:\n"
	"start (default here), at its send time, or overlap, lost if its\n"
	"ceil(B * 8 / L) us on the air overlap lost time, L being the rate of the\n"
	"link it crosses (default R: packets back to back; at least R).\n"
	"Prints one JSON object:\n"
	"  model, seed, duration_s, rate_mbps, packet_bytes, loss_rule,\n"
	"  link_rate_mbps    what was run\n"
	"  time_based        whether the model decides by time (perfect, ge-time,\n"
	"                    outage, trace) or per packet (bernoulli, ge-packet)\n"
	"  lost_ms, time_lost_ratio   time during which a packet sent is lost\n"
	"                    (null for a per-packet model)\n"
	"  packets, packets_lost, packet_loss_ratio   the stream\n"
	"  bursts            maximal runs of loss: unit (\"ms\" of time, or \"packets\"\n"
	"                    of the stream for a per-packet model), count, min, mean,\n"
	"                    max, and histogram: bin_width, counts (bin i holds\n"
	"                    [i * bin_width, (i + 1) * bin_width) ms, or i + 1\n"
	"                    packets; the last bin also every longer burst)\n"
	"\n"
	"intervals runs the time-based channel model SPEC (perfect, ge-time,\n"
	"outage, trace) for S seconds (default 60, at most 86400) and prints the\n"
	"time it loses: a line \"start_ms end_ms\" per maximal lost interval\n"
	"[start_ms, end_ms), in order, to the microsecond in the fewest digits; an\n"
	"interval still lost at S ends at S. This is a loss trace: satlink's\n"
	"trace:file=FILE,trace_period_ms=<S * 1000> replays the channel's first S\n"
	"seconds, over and over.\n";

typedef enum tool_command {
	COMMAND_STATS,
	COMMAND_INTERVALS,
} tool_command;

/* %.17g: every double printed exactly, so the figures compare equal across
 * builds; JSON has no NaN, so a figure that is not defined is null. */
static void print_number(const char *key, double value, const char *after)
{
	if (value != value)
		printf("\"%s\":null%s", key, after);
	else
		printf("\"%s\":%.17g%s", key, value, after);
}

static void print_stats(const swf_channel_config *channel, const swf_stream *stream,
			const swf_channel_stats *stats)
{
	printf("{\"model\":\"%s\",\"seed\":%" PRIu32 ",", channel_kind_name(channel->kind),
	       channel->seed);
	print_number("duration_s", stream->duration_ms / 1000.0, ",");
	print_number("rate_mbps", stream->rate_mbps, ",");
	printf("\"packet_bytes\":%" PRIu32 ",\"loss_rule\":\"%s\",", stream->packet_bytes,
	       stream->loss_rule == SWF_LOSS_OVERLAP ? "overlap" : "start");
	print_number("link_rate_mbps",
		     stream->link_rate_mbps > 0 ? stream->link_rate_mbps : stream->rate_mbps, ",");
	printf("\"time_based\":%s,", stats->time_based ? "true" : "false");
	print_number("lost_ms", stats->time_based ? (double)stats->lost_us / 1000.0 : 0.0 / 0.0,
		     ",");
	print_number("time_lost_ratio", stats->time_lost_ratio, ",");
	printf("\"packets\":%" PRIu64 ",\"packets_lost\":%" PRIu64 ",", stats->packets,
	       stats->packets_lost);
	print_number("packet_loss_ratio", stats->packet_loss_ratio, ",");
	printf("\"bursts\":{\"unit\":\"%s\",\"count\":%" PRIu64 ",",
	       stats->time_based ? "ms" : "packets", stats->bursts);
	print_number("min", stats->burst_min, ",");
	print_number("mean", stats->burst_mean, ",");
	print_number("max", stats->burst_max, ",");
	printf("\"histogram\":{");
	print_number("bin_width", stats->time_based ? SWF_CHANNEL_BURST_BIN_MS : 1.0, ",");
	printf("\"counts\":[");
	for (size_t bin = 0; bin < SWF_CHANNEL_BURST_BINS; bin++)
		printf("%s%" PRIu64, bin ? "," : "", stats->burst_histogram[bin]);
	printf("]}}}\n");
}

/* print_ms writes us microseconds as milliseconds, exactly and in the
 * fewest digits ("200", "15.5", "0.001"): a trace file's reader
 * (trace:file=) gets the same microsecond back. */
static void print_ms(uint64_t us)
{
	printf("%" PRIu64, us / 1000);
	unsigned fraction = (unsigned)(us % 1000), digits = 3;
	if (fraction == 0)
		return;
	for (; fraction % 10 == 0; digits--)
		fraction /= 10;
	printf(".%0*u", (int)digits, fraction);
}

static void print_interval(uint64_t start_us, uint64_t end_us)
{
	print_ms(start_us);
	putchar(' ');
	print_ms(end_us);
	putchar('\n');
}

/* print_intervals walks a time-based channel over [0, duration_us) from one
 * change of its decision to the next, as swf_channel_measure walks it (so
 * the intervals add up to its lost_ms), and prints each maximal run of lost
 * stretches as one interval. */
static void print_intervals(const swf_channel_config *config, uint64_t duration_us)
{
	swf_channel *channel;
	swf_status status = swf_channel_new(config, &channel);
	if (status != SWF_OK)
		fail("create the channel: %s", swf_status_string(status));
	bool in_loss = false;
	uint64_t start_us = 0;
	for (uint64_t t_us = 0; t_us < duration_us;) {
		bool lost = swf_channel_lost(channel, t_us);
		if (lost && !in_loss)
			start_us = t_us;
		else if (!lost && in_loss)
			print_interval(start_us, t_us);
		in_loss = lost;
		uint64_t change_us = swf_channel_decision_end_us(channel);
		t_us = change_us < duration_us ? change_us : duration_us;
	}
	if (in_loss)
		print_interval(start_us, duration_us);
	swf_channel_free(channel);
	if (fflush(stdout) != 0 || ferror(stdout))
		fail_errno("write the intervals to stdout");
}

int main(int argc, char **argv)
{
	tool_name = "swf-channel";
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(usage, stdout);
		return 0;
	}
	tool_command command;
	if (argc >= 2 && strcmp(argv[1], "stats") == 0)
		command = COMMAND_STATS;
	else if (argc >= 2 && strcmp(argv[1], "intervals") == 0)
		command = COMMAND_INTERVALS;
	else
		usage_fail("the first argument must be the command \"stats\" or \"intervals\" (see "
			   "--help)");

	swf_channel_config channel;
	bool have_channel = false;
	swf_stream stream = {.duration_ms = 60e3, .rate_mbps = 10.0, .packet_bytes = 1400};
	for (int i = 2; i < argc; i++) {
		const char *option = argv[i];
		if (strcmp(option, "--help") == 0 || strcmp(option, "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		}
		if (i + 1 == argc)
			usage_fail("%s needs a value (see --help)", option);
		const char *value = argv[++i];
		bool for_stats = command == COMMAND_STATS;
		if (strcmp(option, "--channel") == 0) {
			if (have_channel)
				free((void *)channel.intervals);
			parse_channel(option, value, &channel);
			have_channel = true;
		} else if (strcmp(option, "--duration-s") == 0) {
			stream.duration_ms = 1000.0 * parse_double(option, value, 1e-6, true, 86400);
		} else if (for_stats && strcmp(option, "--rate-mbps") == 0) {
			stream.rate_mbps = parse_double(option, value, 0, false, 1e6);
		} else if (for_stats && strcmp(option, "--packet-bytes") == 0) {
			stream.packet_bytes = (uint32_t)parse_uint(option, value, 1, 65535);
		} else if (for_stats && strcmp(option, "--loss-rule") == 0) {
			if (strcmp(value, "overlap") != 0 && strcmp(value, "start") != 0)
				usage_fail("--loss-rule must be overlap or start, got \"%s\"", value);
			stream.loss_rule = value[0] == 'o' ? SWF_LOSS_OVERLAP : SWF_LOSS_AT_START;
		} else if (for_stats && strcmp(option, "--link-rate-mbps") == 0) {
			stream.link_rate_mbps = parse_double(option, value, 0, false, 1e6);
		} else {
			usage_fail("unknown option %s for %s (see --help)", option, argv[1]);
		}
	}
	if (!have_channel)
		usage_fail("--channel is required (see --help)");

	if (command == COMMAND_INTERVALS) {
		if (!swf_channel_time_based(channel.kind))
			usage_fail("--channel: the %s model decides packet by packet and loses no "
				   "time, so it has no lost intervals (swf-channel stats counts its "
				   "losses in packets)", channel_kind_name(channel.kind));
		/* The nearest microsecond, halves up: channel.c's rule for a time,
		 * so that stats over the same duration walks the same time. */
		print_intervals(&channel, (uint64_t)llround(stream.duration_ms * 1000.0));
		free((void *)channel.intervals);
		return 0;
	}

	if (stream.link_rate_mbps > 0 && stream.link_rate_mbps < stream.rate_mbps)
		usage_fail("--link-rate-mbps %g is below the stream's --rate-mbps %g: the link would "
			   "queue the stream", stream.link_rate_mbps, stream.rate_mbps);
	swf_channel_stats stats;
	swf_status status = swf_channel_measure(&channel, &stream, &stats);
	if (status != SWF_OK)
		fail("measure the channel: %s", swf_status_string(status));
	print_stats(&channel, &stream, &stats);
	free((void *)channel.intervals);
	return 0;
}
