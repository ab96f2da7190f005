/*
 * channel.c - the channel models of swf.h.
 *
 * Every model turns its parameters into integers once, in swf_channel_new,
 * and decides each packet with integer arithmetic on TinyMT32 outputs: no
 * floating point on the per-packet path, so the native and the WebAssembly
 * builds decide alike. tests/vectors/channel_reference.py implements the
 * same rules independently; a change here is a change there.
 *
 * The rules:
 *
 * Times. A duration of x milliseconds (a double) becomes whole microseconds:
 * the binary64 product y = x * 1000.0, then the nearest integer, halves up
 * (floor(y), plus 1 if y - floor(y) >= 0.5).
 *
 * Valid configs. swf_channel_config_check looks only at the fields the kind
 * reads, in the order of the struct. Probabilities lie in [0, 1]; times are
 * finite, in [0, 1e12] ms; step_ms, period_ms and a non-zero trace_period_ms
 * are at least 1 us; intervals have start < end and each starts at or after
 * the end of the one before; a repeating trace ends within its period;
 * duration_us <= period_us and duration_us + jitter_us <= period_us, with
 * jitter_us < 2^32. All comparisons of times are made in microseconds.
 *
 * Probabilities. A probability x becomes the threshold floor(x * 2^32), an
 * integer in [0, 2^32] (exact: scaling by a power of two rounds nothing). An
 * event of probability x happens when the next TinyMT32 output u (a uint32)
 * is below the threshold: never for x = 0, always for x = 1.
 *
 * Send times. A packet's time is max(t_us, the latest t_us seen before).
 *
 * Overlap (swf_channel_lost_during, [start_us, end_us)). A per-packet model
 * decides at start_us, as swf_channel_lost. A time-based model is asked at
 * start_us, then, while the answer is "kept", at each later time its
 * decision changes (the next step, the outage's start or end, a trace
 * interval's edge) before end_us; the packet is lost if one answer is. An
 * empty interval is asked at start_us only. Asking at a change makes the
 * draws that time would make anyway (the next steps' transitions, the next
 * outage's jitter), in the same order.
 *
 * Draws, per model, from the one generator seeded by config->seed:
 * - PERFECT: none; nothing is lost.
 * - BERNOULLI: one draw per packet; lost when u < T(loss).
 * - GE_PACKET: two draws per packet, always, in this order: first the loss in
 *   the current state (u1 < T(loss_good) or T(loss_bad)), then the transition
 *   (good turns bad when u2 < T(p); bad turns good when u2 < T(q)). The first
 *   packet is decided in the good state.
 * - GE_TIME: a packet at t belongs to step floor(t / step_us). Step 0 is good;
 *   each later step draws one u when it is entered, with the transition rule
 *   above, so a gap of n steps between packets makes n draws in step order.
 *   A packet is lost when its step is bad.
 * - OUTAGE: outage n covers [start_n, start_n + duration_us), where
 *   start_n = phase_us + n * period_us + j_n and
 *   j_n = floor(u * jitter_us / 2^32): one draw per outage, in order of n,
 *   made when outage n - 1 has ended (j_0 at creation), even when jitter_us
 *   is 0. duration_us + jitter_us <= period_us keeps outages apart and in
 *   order.
 * - TRACE: lost when start_us <= t' < end_us for some interval, where t' is t,
 *   or t mod trace_period_us when the trace repeats. No draws.
 */
#include "swf.h"

#include <stdlib.h>

#include "channel_internal.h"
#include "tinymt32.h"

#define MAX_TIME_MS 1e12 /* about 31 years, and 1e15 us is exact in a double */

typedef struct interval_us {
	uint64_t start, end;
} interval_us;

struct swf_channel {
	swf_channel_kind kind;
	swf_tinymt32 prng;
	uint64_t latest_us; /* the latest send time seen */

	/* Thresholds, as the rule above: an event when u < threshold. */
	uint64_t loss, to_bad, to_good, loss_good, loss_bad;

	/* GE_PACKET and GE_TIME */
	bool bad;
	uint64_t step_us, step; /* GE_TIME: the step the state belongs to */

	/* OUTAGE */
	uint64_t period_us, duration_us, jitter_us;
	uint64_t cycle_start_us;  /* phase_us + n * period_us */
	uint64_t outage_start_us; /* start_n */

	/* TRACE */
	interval_us *intervals;
	size_t interval_count;
	uint64_t trace_period_us; /* 0: no repetition */
};

static uint64_t to_threshold(double probability)
{
	return (uint64_t)(probability * 4294967296.0);
}

/* False for NaN, as every comparison with NaN is. */
static bool is_probability(double x)
{
	return x >= 0.0 && x <= 1.0;
}

static bool is_time_ms(double x)
{
	return x >= 0.0 && x <= MAX_TIME_MS;
}

static bool is_positive_time_ms(double x)
{
	return is_time_ms(x) && swf_us_from_ms(x) >= 1;
}

static const char *check_trace(const swf_channel_config *config)
{
	if (config->interval_count > 0 && !config->intervals)
		return "intervals";
	uint64_t end_us = 0;
	for (size_t i = 0; i < config->interval_count; i++) {
		const swf_loss_interval *interval = &config->intervals[i];
		if (!is_time_ms(interval->start_ms) || !is_time_ms(interval->end_ms) ||
		    swf_us_from_ms(interval->start_ms) < end_us ||
		    swf_us_from_ms(interval->start_ms) >= swf_us_from_ms(interval->end_ms))
			return "intervals";
		end_us = swf_us_from_ms(interval->end_ms);
	}
	if (!is_time_ms(config->trace_period_ms))
		return "trace_period_ms";
	if (config->trace_period_ms > 0 && (!is_positive_time_ms(config->trace_period_ms) ||
					    swf_us_from_ms(config->trace_period_ms) < end_us))
		return "trace_period_ms";
	return NULL;
}

/* The rules are under "Valid configs" at the top of this file. */
const char *swf_channel_config_check(const swf_channel_config *config)
{
	switch (config->kind) {
	case SWF_CHANNEL_PERFECT:
		return NULL;
	case SWF_CHANNEL_BERNOULLI:
		return is_probability(config->loss) ? NULL : "loss";
	case SWF_CHANNEL_GE_PACKET:
	case SWF_CHANNEL_GE_TIME:
		if (!is_probability(config->p))
			return "p";
		if (!is_probability(config->q))
			return "q";
		if (config->kind == SWF_CHANNEL_GE_TIME)
			return is_positive_time_ms(config->step_ms) ? NULL : "step_ms";
		if (!is_probability(config->loss_good))
			return "loss_good";
		if (!is_probability(config->loss_bad))
			return "loss_bad";
		return NULL;
	case SWF_CHANNEL_OUTAGE:
		if (!is_positive_time_ms(config->period_ms))
			return "period_ms";
		if (!is_time_ms(config->duration_ms) ||
		    swf_us_from_ms(config->duration_ms) > swf_us_from_ms(config->period_ms))
			return "duration_ms";
		if (!is_time_ms(config->phase_ms))
			return "phase_ms";
		/* The jitter's bound also keeps u * jitter_us within 64 bits. */
		if (!is_time_ms(config->jitter_ms) ||
		    swf_us_from_ms(config->jitter_ms) >
			    swf_us_from_ms(config->period_ms) - swf_us_from_ms(config->duration_ms) ||
		    swf_us_from_ms(config->jitter_ms) > UINT32_MAX)
			return "jitter_ms";
		return NULL;
	case SWF_CHANNEL_TRACE:
		return check_trace(config);
	}
	return "kind";
}

static bool draw_below(swf_channel *channel, uint64_t threshold)
{
	return swf_tinymt32_next(&channel->prng) < threshold;
}

static void gilbert_elliott_transition(swf_channel *channel)
{
	channel->bad = channel->bad ? !draw_below(channel, channel->to_good)
				    : draw_below(channel, channel->to_bad);
}

static uint64_t draw_outage_start(swf_channel *channel)
{
	uint64_t jitter_us = (uint64_t)swf_tinymt32_next(&channel->prng) * channel->jitter_us >> 32;
	return channel->cycle_start_us + jitter_us;
}

swf_status swf_channel_new(const swf_channel_config *config, swf_channel **out)
{
	if (!out || swf_channel_config_check(config))
		return SWF_E_INVALID;
	swf_channel *channel = calloc(1, sizeof(*channel));
	if (!channel)
		return SWF_E_NOMEM;
	channel->kind = config->kind;
	swf_tinymt32_init(&channel->prng, config->seed);
	switch (config->kind) {
	case SWF_CHANNEL_PERFECT:
		break;
	case SWF_CHANNEL_BERNOULLI:
		channel->loss = to_threshold(config->loss);
		break;
	case SWF_CHANNEL_GE_PACKET:
		channel->to_bad = to_threshold(config->p);
		channel->to_good = to_threshold(config->q);
		channel->loss_good = to_threshold(config->loss_good);
		channel->loss_bad = to_threshold(config->loss_bad);
		break;
	case SWF_CHANNEL_GE_TIME:
		channel->to_bad = to_threshold(config->p);
		channel->to_good = to_threshold(config->q);
		channel->step_us = swf_us_from_ms(config->step_ms);
		break;
	case SWF_CHANNEL_OUTAGE:
		channel->period_us = swf_us_from_ms(config->period_ms);
		channel->duration_us = swf_us_from_ms(config->duration_ms);
		channel->jitter_us = swf_us_from_ms(config->jitter_ms);
		channel->cycle_start_us = swf_us_from_ms(config->phase_ms);
		channel->outage_start_us = draw_outage_start(channel);
		break;
	case SWF_CHANNEL_TRACE:
		channel->intervals = malloc(config->interval_count * sizeof(interval_us));
		if (!channel->intervals && config->interval_count > 0) {
			free(channel);
			return SWF_E_NOMEM;
		}
		for (size_t i = 0; i < config->interval_count; i++) {
			channel->intervals[i].start = swf_us_from_ms(config->intervals[i].start_ms);
			channel->intervals[i].end = swf_us_from_ms(config->intervals[i].end_ms);
		}
		channel->interval_count = config->interval_count;
		if (config->trace_period_ms > 0)
			channel->trace_period_us = swf_us_from_ms(config->trace_period_ms);
		break;
	}
	*out = channel;
	return SWF_OK;
}

void swf_channel_free(swf_channel *channel)
{
	if (!channel)
		return;
	free(channel->intervals);
	free(channel);
}

static bool ge_packet_lost(swf_channel *channel)
{
	bool lost = draw_below(channel, channel->bad ? channel->loss_bad : channel->loss_good);
	gilbert_elliott_transition(channel);
	return lost;
}

static bool ge_time_lost(swf_channel *channel, uint64_t t_us)
{
	uint64_t step = t_us / channel->step_us;
	for (; channel->step < step; channel->step++)
		gilbert_elliott_transition(channel);
	return channel->bad;
}

static bool outage_lost(swf_channel *channel, uint64_t t_us)
{
	while (t_us >= channel->outage_start_us + channel->duration_us) {
		channel->cycle_start_us += channel->period_us;
		channel->outage_start_us = draw_outage_start(channel);
	}
	return t_us >= channel->outage_start_us;
}

/* How many intervals start at or before offset_us (a binary search). */
static size_t trace_started(const swf_channel *channel, uint64_t offset_us)
{
	size_t low = 0, high = channel->interval_count; /* intervals[low..high) */
	while (low < high) {
		size_t mid = low + (high - low) / 2;
		if (channel->intervals[mid].start <= offset_us)
			low = mid + 1;
		else
			high = mid;
	}
	return low;
}

static bool trace_lost(const swf_channel *channel, uint64_t t_us)
{
	uint64_t offset_us = channel->trace_period_us ? t_us % channel->trace_period_us : t_us;
	size_t started = trace_started(channel, offset_us);
	return started > 0 && offset_us < channel->intervals[started - 1].end;
}

bool swf_channel_lost(swf_channel *channel, uint64_t t_us)
{
	if (t_us < channel->latest_us)
		t_us = channel->latest_us;
	channel->latest_us = t_us;
	switch (channel->kind) {
	case SWF_CHANNEL_PERFECT:
		return false;
	case SWF_CHANNEL_BERNOULLI:
		return draw_below(channel, channel->loss);
	case SWF_CHANNEL_GE_PACKET:
		return ge_packet_lost(channel);
	case SWF_CHANNEL_GE_TIME:
		return ge_time_lost(channel, t_us);
	case SWF_CHANNEL_OUTAGE:
		return outage_lost(channel, t_us);
	case SWF_CHANNEL_TRACE:
		return trace_lost(channel, t_us);
	}
	return false;
}

bool swf_channel_lost_during(swf_channel *channel, uint64_t start_us, uint64_t end_us)
{
	bool lost = swf_channel_lost(channel, start_us);
	if (!swf_channel_time_based(channel->kind))
		return lost;
	while (!lost) {
		uint64_t change_us = swf_channel_decision_end_us(channel);
		if (change_us >= end_us)
			break;
		lost = swf_channel_lost(channel, change_us);
	}
	return lost;
}

bool swf_channel_time_based(swf_channel_kind kind)
{
	return kind != SWF_CHANNEL_BERNOULLI && kind != SWF_CHANNEL_GE_PACKET;
}

/* The first interval boundary after offset_us, or UINT64_MAX if none. */
static uint64_t trace_boundary_after(const swf_channel *channel, uint64_t offset_us)
{
	size_t started = trace_started(channel, offset_us);
	if (started > 0 && offset_us < channel->intervals[started - 1].end)
		return channel->intervals[started - 1].end;
	return started < channel->interval_count ? channel->intervals[started].start : UINT64_MAX;
}

uint64_t swf_channel_decision_end_us(const swf_channel *channel)
{
	uint64_t t_us = channel->latest_us;
	switch (channel->kind) {
	case SWF_CHANNEL_GE_TIME:
		return (t_us / channel->step_us + 1) * channel->step_us;
	case SWF_CHANNEL_OUTAGE:
		/* outage_lost left t_us before the end of outage n */
		return t_us < channel->outage_start_us ? channel->outage_start_us
						       : channel->outage_start_us + channel->duration_us;
	case SWF_CHANNEL_TRACE: {
		if (!channel->trace_period_us)
			return trace_boundary_after(channel, t_us);
		uint64_t offset_us = t_us % channel->trace_period_us;
		uint64_t boundary = trace_boundary_after(channel, offset_us);
		/* Past the last boundary, the next period starts over. */
		return t_us - offset_us +
		       (boundary < channel->trace_period_us ? boundary : channel->trace_period_us);
	}
	default:
		return UINT64_MAX;
	}
}
