/*
 * link_model.c - one direction of satlink's link (see link_model.h).
 *
 * The model keeps the link's clock (free_at_ns: when it finishes what it
 * took) and the packets it has not finished serialising, lost ones
 * included: they are the AQM's and the buffer's backlog. A packet's
 * serialisation starts at max(arrival, free_at_ns) and lasts len x the
 * time per byte at the rate in force at its start.
 */
#include "link_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RATE_MBPS 1e6
#define MAX_DELAY_MS 1e5
#define MAX_FRAME_MS 1e4
#define MAX_TRACE_MS 1e12

/* A packet the link has taken and not finished serialising. */
typedef struct serialising {
	uint64_t start_ns, end_ns;
	uint32_t len;
} serialising;

struct link_model {
	double ns_per_byte; /* 0: unlimited rate (unless a rate trace) */
	link_step_trace rate_trace, delay_trace; /* steps owned by the model */
	uint64_t delay_ns;
	uint64_t frame_ns; /* 0: no frames */
	uint64_t buffer_bytes, buffer_packets;
	/* The AQM: a draw below aqm_drop_below (ratio x 2^32) drops. */
	uint64_t aqm_threshold_bytes;
	uint64_t aqm_drop_below;
	swf_prng aqm_prng;
	/* The extra delay from bins: cumulative weights; step k of
	 * delay_step_ns holds the value of the k-th pair of draws. */
	link_delay_bin delay_bins[LINK_MAX_DELAY_BINS];
	double delay_cumulative[LINK_MAX_DELAY_BINS];
	size_t delay_bin_count;
	uint64_t delay_step_ns, delay_next_step, delay_extra_ns;
	swf_prng delay_prng;
	swf_channel *channel;
	swf_loss_rule loss_rule;

	uint64_t latest_ns; /* the latest arrival seen */
	uint64_t free_at_ns;
	uint64_t last_due_ns; /* packets never overtake one another */
	uint64_t last_tx_start_ns, last_tx_end_ns; /* the last packet taken */
	/* The frame of the last packet and the channel's decision for it. */
	uint64_t frame_index;
	bool frame_lost;
	/* The packets serialising, a ring of queue_capacity entries. */
	serialising *queued;
	uint64_t queue_capacity, queued_head, queued_tail, queued_bytes;
};

/* ---------------------------------------------------------------------- */
/* The configuration                                                      */

static bool within(double x, double min, double max)
{
	return x >= min && x <= max; /* false for NaN */
}

/* A trace's steps start at t_ms 0 and go forward, each value in
 * (min, max] or [min, max], within its period if it repeats. */
static bool trace_ok(const link_step_trace *trace, double min, bool min_inclusive, double max)
{
	if (trace->steps == NULL)
		return true;
	if (trace->count == 0 || !within(trace->period_ms, 0, MAX_TRACE_MS))
		return false;
	for (size_t i = 0; i < trace->count; i++) {
		double t_ms = trace->steps[i].t_ms, value = trace->steps[i].value;
		if (i == 0 ? t_ms != 0 : !(t_ms > trace->steps[i - 1].t_ms && t_ms <= MAX_TRACE_MS))
			return false;
		if (!within(value, min, max) || (!min_inclusive && value == min))
			return false;
	}
	return trace->period_ms == 0 || trace->period_ms > trace->steps[trace->count - 1].t_ms;
}

const char *link_model_config_check(const link_model_config *config)
{
	bool rate = config->rate_mbps > 0 || config->rate_trace.steps != NULL;
	if (!within(config->rate_mbps, 0, MAX_RATE_MBPS))
		return "rate_mbps";
	if (!trace_ok(&config->rate_trace, 0, false, MAX_RATE_MBPS))
		return "rate_trace";
	if (!within(config->delay_ms, 0, MAX_DELAY_MS))
		return "delay_ms";
	if (!(config->frame_ms == 0 || within(config->frame_ms, 0.001, MAX_FRAME_MS)))
		return "frame_ms";
	if (config->buffer_bytes == 0)
		return "buffer_bytes";
	if (config->buffer_packets == 0)
		return "buffer_packets";
	if (config->aqm_threshold_bytes != LINK_UNLIMITED && !rate)
		return "aqm_threshold_bytes"; /* nothing queues without a rate */
	if (config->aqm_threshold_bytes != LINK_UNLIMITED && !within(config->aqm_drop_ratio, 0, 1))
		return "aqm_drop_ratio";
	if (config->delay_bin_count > LINK_MAX_DELAY_BINS ||
	    (config->delay_bin_count > 0 && config->delay_trace.steps != NULL))
		return "delay_bins";
	for (size_t i = 0; i < config->delay_bin_count; i++) {
		const link_delay_bin *bin = &config->delay_bins[i];
		if (!(bin->weight > 0 && isfinite(bin->weight)) ||
		    !within(bin->low_ms, 0, MAX_DELAY_MS) || !within(bin->high_ms, bin->low_ms, MAX_DELAY_MS))
			return "delay_bins";
	}
	if (config->delay_bin_count > 0 && !within(config->delay_step_ms, 0.001, 1e9))
		return "delay_step_ms";
	if (!trace_ok(&config->delay_trace, 0, true, MAX_DELAY_MS))
		return "delay_trace";
	if (swf_channel_config_check(&config->channel))
		return "channel";
	if (config->loss_rule != SWF_LOSS_AT_START && config->loss_rule != SWF_LOSS_OVERLAP)
		return "loss_rule";
	if (config->queue_capacity == 0 || config->queue_capacity > (UINT64_C(1) << 32))
		return "queue_capacity";
	return NULL;
}

static bool copy_trace(link_step_trace *to, const link_step_trace *from)
{
	*to = *from;
	if (from->steps == NULL)
		return true;
	link_trace_step *steps = malloc(from->count * sizeof *steps);
	if (steps == NULL)
		return false;
	memcpy(steps, from->steps, from->count * sizeof *steps);
	to->steps = steps;
	return true;
}

swf_status link_model_new(const link_model_config *config, link_model **out)
{
	if (link_model_config_check(config))
		return SWF_E_INVALID;
	link_model *m = calloc(1, sizeof *m);
	if (m == NULL)
		return SWF_E_NOMEM;
	m->queued = calloc(config->queue_capacity, sizeof *m->queued);
	if (m->queued == NULL || !copy_trace(&m->rate_trace, &config->rate_trace) ||
	    !copy_trace(&m->delay_trace, &config->delay_trace) ||
	    swf_channel_new(&config->channel, &m->channel) != SWF_OK) {
		link_model_free(m);
		return SWF_E_NOMEM;
	}
	m->queue_capacity = config->queue_capacity;
	m->ns_per_byte = config->rate_mbps > 0 ? 8e3 / config->rate_mbps : 0;
	m->delay_ns = (uint64_t)llround(config->delay_ms * 1e6);
	m->frame_ns = (uint64_t)llround(config->frame_ms * 1e6);
	m->frame_index = UINT64_MAX; /* no frame decided yet */
	m->buffer_bytes = config->buffer_bytes;
	m->buffer_packets = config->buffer_packets;
	m->aqm_threshold_bytes = config->aqm_threshold_bytes;
	if (m->aqm_threshold_bytes != LINK_UNLIMITED)
		m->aqm_drop_below = (uint64_t)llround(config->aqm_drop_ratio * 4294967296.0);
	swf_prng_init(&m->aqm_prng, config->aqm_seed);
	m->delay_bin_count = config->delay_bin_count;
	double total_weight = 0;
	for (size_t i = 0; i < config->delay_bin_count; i++) {
		m->delay_bins[i] = config->delay_bins[i];
		m->delay_cumulative[i] = total_weight += config->delay_bins[i].weight;
	}
	m->delay_step_ns = (uint64_t)llround(config->delay_step_ms * 1e6);
	swf_prng_init(&m->delay_prng, config->delay_seed);
	m->loss_rule = config->loss_rule;
	*out = m;
	return SWF_OK;
}

void link_model_free(link_model *m)
{
	if (m == NULL)
		return;
	swf_channel_free(m->channel);
	free((void *)m->rate_trace.steps);
	free((void *)m->delay_trace.steps);
	free(m->queued);
	free(m);
}

/* ---------------------------------------------------------------------- */
/* Time-varying values                                                    */

/* step_value is a step trace's value at t_ms. */
static double step_value(const link_step_trace *trace, double t_ms)
{
	if (trace->period_ms > 0)
		t_ms = fmod(t_ms, trace->period_ms);
	size_t low = 0, high = trace->count; /* the answer is in [low, high) */
	while (high - low > 1) {
		size_t middle = low + (high - low) / 2;
		if (trace->steps[middle].t_ms <= t_ms)
			low = middle;
		else
			high = middle;
	}
	return trace->steps[low].value;
}

/* ns_per_byte_at is the serialisation time per byte at t_ns; 0: unlimited. */
static double ns_per_byte_at(const link_model *m, uint64_t t_ns)
{
	if (m->rate_trace.steps == NULL)
		return m->ns_per_byte;
	return 8e3 / step_value(&m->rate_trace, t_ns / 1e6);
}

static double draw_unit(swf_prng *prng)
{
	return swf_prng_next(prng) / 4294967296.0;
}

/* extra_delay_ns is the variable part of the delay at t_ns. */
static uint64_t extra_delay_ns(link_model *m, uint64_t t_ns)
{
	if (m->delay_trace.steps != NULL)
		return (uint64_t)llround(step_value(&m->delay_trace, t_ns / 1e6) * 1e6);
	if (m->delay_bin_count == 0)
		return 0;
	for (uint64_t step = t_ns / m->delay_step_ns; m->delay_next_step <= step; m->delay_next_step++) {
		double pick = draw_unit(&m->delay_prng) * m->delay_cumulative[m->delay_bin_count - 1];
		double within_bin = draw_unit(&m->delay_prng);
		size_t bin = 0;
		while (bin + 1 < m->delay_bin_count && m->delay_cumulative[bin] <= pick)
			bin++;
		const link_delay_bin *b = &m->delay_bins[bin];
		m->delay_extra_ns =
			(uint64_t)llround((b->low_ms + within_bin * (b->high_ms - b->low_ms)) * 1e6);
	}
	return m->delay_extra_ns;
}

/* ---------------------------------------------------------------------- */
/* A packet's way through                                                 */

/* channel_lost asks the channel about something on the air during
 * [start_ns, end_ns): the microseconds it touches, by overlap, or the one
 * it starts in. */
static bool channel_lost(link_model *m, uint64_t start_ns, uint64_t end_ns)
{
	uint64_t start_us = start_ns / 1000;
	if (m->loss_rule == SWF_LOSS_AT_START)
		return swf_channel_lost(m->channel, start_us);
	return swf_channel_lost_during(m->channel, start_us, (end_ns + 999) / 1000);
}

/* depart applies the frames, the channel and the delay to a packet
 * serialised from tx_start to tx_end; *due_ns for LINK_SENT. */
static link_fate depart(link_model *m, uint64_t tx_start, uint64_t tx_end, uint64_t *due_ns)
{
	m->last_tx_start_ns = tx_start;
	m->last_tx_end_ns = tx_end;
	bool lost;
	if (m->frame_ns == 0) {
		lost = channel_lost(m, tx_start, tx_end);
	} else {
		/* A packet whose serialisation ends at t leaves with frame
		 * ceil(t / frame_ns), on the air from its start for a frame. */
		uint64_t frame = (tx_end + m->frame_ns - 1) / m->frame_ns;
		if (frame != m->frame_index) {
			m->frame_index = frame;
			m->frame_lost = channel_lost(m, frame * m->frame_ns, (frame + 1) * m->frame_ns);
		}
		lost = m->frame_lost;
		tx_end = frame * m->frame_ns;
	}
	if (lost)
		return LINK_DROP_CHANNEL;
	uint64_t due = tx_end + m->delay_ns + extra_delay_ns(m, tx_end);
	/* FIFO: when the delay falls, a packet waits for the one before it. */
	if (due < m->last_due_ns)
		due = m->last_due_ns;
	m->last_due_ns = due;
	*due_ns = due;
	return LINK_SENT;
}

/* backlog_bytes is what the link has taken and not serialised at now: the
 * queued bytes but the part of the packet in serialisation already sent. */
static double backlog_bytes(const link_model *m, uint64_t now)
{
	if (m->queued_head == m->queued_tail)
		return 0;
	const serialising *p = &m->queued[m->queued_head % m->queue_capacity];
	double sent = p->start_ns < now ? (double)p->len * (double)(now - p->start_ns) /
						  (double)(p->end_ns - p->start_ns)
					: 0;
	return (double)m->queued_bytes - sent;
}

link_fate link_model_offer(link_model *m, uint64_t now_ns, uint32_t len, uint64_t *due_ns)
{
	if (now_ns < m->latest_ns)
		now_ns = m->latest_ns;
	m->latest_ns = now_ns;
	if (m->ns_per_byte == 0 && m->rate_trace.steps == NULL)
		return depart(m, now_ns, now_ns, due_ns);
	while (m->queued_head != m->queued_tail &&
	       m->queued[m->queued_head % m->queue_capacity].end_ns <= now_ns)
		m->queued_bytes -= m->queued[m->queued_head++ % m->queue_capacity].len;
	uint64_t queued_packets = m->queued_tail - m->queued_head;
	double backlog = backlog_bytes(m, now_ns);
	if (backlog > (double)m->aqm_threshold_bytes &&
	    swf_prng_next(&m->aqm_prng) < m->aqm_drop_below)
		return LINK_DROP_AQM;
	if (backlog + len > (double)m->buffer_bytes || queued_packets >= m->buffer_packets)
		return LINK_DROP_BUFFER;
	if (queued_packets == m->queue_capacity)
		return LINK_DROP_OVERFLOW;
	uint64_t tx_start = m->free_at_ns > now_ns ? m->free_at_ns : now_ns;
	uint64_t tx_end = tx_start + (uint64_t)llround(len * ns_per_byte_at(m, tx_start));
	m->free_at_ns = tx_end;
	m->queued[m->queued_tail++ % m->queue_capacity] = (serialising){tx_start, tx_end, len};
	m->queued_bytes += len;
	return depart(m, tx_start, tx_end, due_ns);
}

void link_model_last_serialisation(const link_model *m, uint64_t *start_ns, uint64_t *end_ns)
{
	*start_ns = m->last_tx_start_ns;
	*end_ns = m->last_tx_end_ns;
}

uint64_t link_model_free_at_ns(const link_model *m)
{
	return m->free_at_ns;
}

uint64_t link_model_queue_bytes(const link_model *m, uint64_t free_at_ns, uint64_t now_ns)
{
	double ns_per_byte = ns_per_byte_at(m, now_ns);
	if (free_at_ns <= now_ns || ns_per_byte == 0)
		return 0;
	return (uint64_t)((double)(free_at_ns - now_ns) / ns_per_byte);
}
