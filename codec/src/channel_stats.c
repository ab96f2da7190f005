/*
 * channel_stats.c - swf_channel_stats: a channel model run over a duration,
 * measured.
 *
 * A time-based model (channel_internal.h) is walked from one change of its
 * decision to the next (swf_channel_decision_end_us), asking it about the
 * start of each stretch: the stretches it loses add up to the lost time, and
 * adjacent lost stretches make one burst. The stream's packets are asked
 * about by a second channel of the same config, which loses the same time:
 * a time-based model's draws do not depend on the times it is asked about.
 * A per-packet model has no loss in time, only the stream's packets, whose
 * runs of losses are its bursts.
 *
 * Everything but the final ratios and means is integer arithmetic on whole
 * microseconds and packet counts, and packet times are one binary64 product
 * and quotient each, so every build gives the same figures.
 */
#include <math.h>

#include "channel_internal.h"

#define MAX_TIME_MS 1e12 /* as channel.c */
#define MAX_RATE_MBPS 1e6

const char *swf_stream_check(const swf_stream *stream)
{
	if (!(stream->duration_ms > 0 && stream->duration_ms <= MAX_TIME_MS) || swf_us_from_ms(stream->duration_ms) < 1)
		return "duration_ms";
	if (!(stream->rate_mbps > 0 && stream->rate_mbps <= MAX_RATE_MBPS))
		return "rate_mbps";
	if (stream->packet_bytes < 1)
		return "packet_bytes";
	if (stream->loss_rule != SWF_LOSS_AT_START && stream->loss_rule != SWF_LOSS_OVERLAP)
		return "loss_rule";
	if (!(stream->link_rate_mbps == 0 || (stream->link_rate_mbps >= stream->rate_mbps &&
					      stream->link_rate_mbps <= MAX_RATE_MBPS)))
		return "link_rate_mbps";
	return NULL;
}

/* Bursts in whole units (microseconds or packets) as they end. */
typedef struct burst_tally {
	uint64_t count, min, max, total;
	uint64_t histogram[SWF_CHANNEL_BURST_BINS];
	uint64_t bin_first, bin_width; /* bin i starts at bin_first + i * bin_width units */
} burst_tally;

static void tally_burst(burst_tally *tally, uint64_t length)
{
	if (tally->count == 0 || length < tally->min)
		tally->min = length;
	if (length > tally->max)
		tally->max = length;
	tally->count++;
	tally->total += length;
	uint64_t bin = (length - tally->bin_first) / tally->bin_width;
	tally->histogram[bin < SWF_CHANNEL_BURST_BINS ? bin : SWF_CHANNEL_BURST_BINS - 1]++;
}

/* A run of losses: open while start is set. */
typedef struct loss_run {
	bool open;
	uint64_t start;
} loss_run;

/* Follows one decision at position `at` (a time or a packet index): a loss
 * opens a run, a kept one closes it into a burst. */
static void follow(loss_run *run, burst_tally *tally, bool lost, uint64_t at)
{
	if (lost && !run->open)
		*run = (loss_run){true, at};
	else if (!lost && run->open) {
		tally_burst(tally, at - run->start);
		run->open = false;
	}
}

/* The stream: packet index, its send time and how long it is on the air. */
typedef struct stream_cursor {
	double bits;
	double rate_mbps;
	uint64_t index, t_us;
	uint64_t air_us; /* 0: decided at its send time */
} stream_cursor;

static uint64_t packet_time_us(const stream_cursor *cursor, uint64_t index)
{
	return (uint64_t)((double)index * cursor->bits / cursor->rate_mbps);
}

static void next_packet(stream_cursor *cursor)
{
	cursor->t_us = packet_time_us(cursor, ++cursor->index);
}

static bool packet_lost(swf_channel *channel, const stream_cursor *cursor)
{
	if (cursor->air_us == 0)
		return swf_channel_lost(channel, cursor->t_us);
	return swf_channel_lost_during(channel, cursor->t_us, cursor->t_us + cursor->air_us);
}

swf_status swf_channel_measure(const swf_channel_config *config, const swf_stream *stream,
			       swf_channel_stats *stats)
{
	if (!config || !stream || !stats || swf_channel_config_check(config) ||
	    swf_stream_check(stream))
		return SWF_E_INVALID;
	swf_channel *channel;
	swf_status status = swf_channel_new(config, &channel);
	if (status != SWF_OK)
		return status;

	bool time_based = swf_channel_time_based(config->kind);
	uint64_t duration_us = swf_us_from_ms(stream->duration_ms);
	uint64_t packets_lost = 0, lost_us = 0;
	burst_tally bursts = {.bin_first = time_based ? 0 : 1,
			      .bin_width = time_based ? swf_us_from_ms(SWF_CHANNEL_BURST_BIN_MS) : 1};
	loss_run run = {false, 0};
	double bits = 8.0 * stream->packet_bytes;
	double link_rate_mbps = stream->link_rate_mbps > 0 ? stream->link_rate_mbps : stream->rate_mbps;
	stream_cursor packet = {bits, stream->rate_mbps, 0, 0,
				stream->loss_rule == SWF_LOSS_OVERLAP ? (uint64_t)ceil(bits / link_rate_mbps)
								      : 0};

	if (time_based) {
		/* The packets have their own channel: one decided by overlap looks
		 * ahead of the walk. The draws depend on time alone, so both
		 * channels lose the same time. */
		swf_channel *packets_channel;
		status = swf_channel_new(config, &packets_channel);
		if (status != SWF_OK) {
			swf_channel_free(channel);
			return status;
		}
		for (uint64_t t_us = 0; t_us < duration_us;) {
			bool lost = swf_channel_lost(channel, t_us);
			uint64_t end_us = swf_channel_decision_end_us(channel);
			end_us = end_us < duration_us ? end_us : duration_us;
			follow(&run, &bursts, lost, t_us);
			lost_us += lost ? end_us - t_us : 0;
			t_us = end_us;
		}
		follow(&run, &bursts, false, duration_us);
		for (; packet.t_us < duration_us; next_packet(&packet))
			packets_lost += packet_lost(packets_channel, &packet);
		swf_channel_free(packets_channel);
	} else {
		for (; packet.t_us < duration_us; next_packet(&packet)) {
			bool lost = packet_lost(channel, &packet);
			packets_lost += lost;
			follow(&run, &bursts, lost, packet.index);
		}
		follow(&run, &bursts, false, packet.index);
	}
	swf_channel_free(channel);

	/* Bursts in ms for time, in packets otherwise. */
	double unit = time_based ? 1000.0 : 1.0;
	*stats = (swf_channel_stats){
		.time_based = time_based,
		.duration_us = duration_us,
		.lost_us = lost_us,
		.time_lost_ratio = time_based ? (double)lost_us / (double)duration_us : NAN,
		.packets = packet.index,
		.packets_lost = packets_lost,
		.packet_loss_ratio =
			packet.index ? (double)packets_lost / (double)packet.index : 0.0,
		.bursts = bursts.count,
		.burst_min = (double)bursts.min / unit,
		.burst_mean = bursts.count ? (double)bursts.total / (double)bursts.count / unit : 0.0,
		.burst_max = (double)bursts.max / unit,
	};
	for (size_t bin = 0; bin < SWF_CHANNEL_BURST_BINS; bin++)
		stats->burst_histogram[bin] = bursts.histogram[bin];
	return SWF_OK;
}
