/*
 * fuzz.c - satlink's link model (codec/tools/link_model.c) under arbitrary
 * configurations and traffic.
 *
 * The first HEADER_BYTES bytes choose a configuration (missing bytes read
 * as 0): the rate (none, three constants or a trace), the buffer, the AQM,
 * frames, the delay and its variation (bins or a trace), the channel (every
 * model) and its loss rule, and a ring as small as one packet. Then each
 * 3-byte record offers a packet: 16 bits of time since the previous offer
 * (in 250 ns units, up to 16 ms) and its length (1 to 1531 bytes). Whatever
 * the bytes, no read or write goes out of bounds (the sanitizers watch),
 * every fate is one the configuration allows (no AQM drop without an AQM,
 * no channel loss on a perfect channel, no queue drop without a rate), a
 * sent packet is due no earlier than its arrival plus the fixed delay and
 * no earlier than the packet sent before it, a packet the link took (sent
 * or lost on the air) is serialised from its arrival on, within the link's
 * clock (with a rate), and due no earlier than the end of its serialisation plus the
 * delay, and the link's clock never goes back.
 */
#include <stdlib.h>
#include <string.h>

#include "link_model.h"

#define HEADER_BYTES 16u
#define RECORD_BYTES 3u

static const link_trace_step RATE_STEPS[] = {{0, 2.0}, {3, 40.0}, {7, 0.5}};
static const link_trace_step DELAY_STEPS[] = {{0, 30.0}, {5, 0.0}, {9, 12.5}};
static const swf_loss_interval INTERVALS[] = {{1.0, 2.5}, {2.5, 4.0}, {20.0, 20.001}};

static void configure(const uint8_t h[HEADER_BYTES], link_model_config *c)
{
	static const double rates[] = {0, 1.0, 10.0, 144.0};
	*c = (link_model_config){
		.rate_mbps = rates[h[0] & 3],
		.delay_ms = h[1] / 4.0,
		.buffer_bytes = LINK_UNLIMITED,
		.buffer_packets = LINK_UNLIMITED,
		.aqm_threshold_bytes = LINK_UNLIMITED,
		.aqm_seed = h[2],
		.delay_seed = h[3],
		.loss_rule = h[4] & 1 ? SWF_LOSS_AT_START : SWF_LOSS_OVERLAP,
		.queue_capacity = 1 + (h[5] & 63u),
		.channel = {.kind = (swf_channel_kind)(h[6] % 6), .seed = h[7]},
	};
	if (h[0] & 4)
		c->rate_trace = (link_step_trace){RATE_STEPS, 3, h[0] & 8 ? 10.0 : 0};
	bool rate = c->rate_mbps > 0 || c->rate_trace.steps != NULL;
	if ((h[8] & 3) == 1)
		c->buffer_bytes = 1 + h[9] * 97u;
	else if ((h[8] & 3) == 2)
		c->buffer_packets = 1 + (h[9] & 31u);
	if (h[8] & 4 && rate) {
		c->aqm_threshold_bytes = h[10] * 50u;
		c->aqm_drop_ratio = h[11] / 255.0;
	}
	if (h[8] & 8)
		c->frame_ms = 0.001 + h[12] / 20.0;
	if (h[8] & 16) {
		c->delay_bins[0] = (link_delay_bin){1 + h[13], 0, h[14] / 8.0};
		c->delay_bins[1] = (link_delay_bin){1, h[14] / 8.0, h[14] / 2.0};
		c->delay_bin_count = 2;
		c->delay_step_ms = 1.0 + h[15] / 16.0;
	} else if (h[8] & 32) {
		c->delay_trace = (link_step_trace){DELAY_STEPS, 3, h[8] & 64 ? 12.0 : 0};
	}
	double a = h[13] / 255.0, b = h[14] / 255.0;
	swf_channel_config *ch = &c->channel;
	switch (ch->kind) {
	case SWF_CHANNEL_PERFECT:
		break;
	case SWF_CHANNEL_BERNOULLI:
		ch->loss = a;
		break;
	case SWF_CHANNEL_GE_PACKET:
	case SWF_CHANNEL_GE_TIME:
		ch->p = a;
		ch->q = b;
		ch->loss_bad = 1.0;
		ch->step_ms = 1.0 + h[15] / 8.0;
		break;
	case SWF_CHANNEL_OUTAGE:
		ch->period_ms = 1.0 + h[15];
		ch->duration_ms = a * ch->period_ms / 2;
		ch->jitter_ms = b * ch->period_ms / 2;
		ch->phase_ms = h[12] / 3.0;
		break;
	case SWF_CHANNEL_TRACE:
		ch->intervals = INTERVALS;
		ch->interval_count = 1 + h[15] % 3;
		ch->trace_period_ms = h[15] & 4 ? 25.0 : 0;
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t header[HEADER_BYTES] = {0};
	memcpy(header, data, size < HEADER_BYTES ? size : HEADER_BYTES);
	link_model_config config;
	configure(header, &config);
	link_model *model;
	if (link_model_new(&config, &model) != SWF_OK)
		abort(); /* every configuration built here is valid */

	bool rate = config.rate_mbps > 0 || config.rate_trace.steps != NULL;
	uint64_t delay_ns = (uint64_t)(config.delay_ms * 1e6 + 0.5);
	uint64_t now = 0, last_due = 0, free_at = 0;
	for (size_t at = HEADER_BYTES; at + RECORD_BYTES <= size; at += RECORD_BYTES) {
		now += ((uint64_t)data[at] << 8 | data[at + 1]) * 250u;
		uint32_t len = 1 + data[at + 2] * 6u;
		uint64_t due = 0;
		link_fate fate = link_model_offer(model, now, len, &due);
		switch (fate) {
		case LINK_SENT:
			if (due < now + delay_ns || due < last_due)
				abort();
			last_due = due;
			break;
		case LINK_DROP_AQM:
			if (config.aqm_threshold_bytes == LINK_UNLIMITED)
				abort();
			break;
		case LINK_DROP_BUFFER:
		case LINK_DROP_OVERFLOW:
			if (!rate)
				abort();
			break;
		case LINK_DROP_CHANNEL:
			if (config.channel.kind == SWF_CHANNEL_PERFECT)
				abort();
			break;
		default:
			abort();
		}
		if (fate == LINK_SENT || fate == LINK_DROP_CHANNEL) {
			uint64_t tx_start, tx_end;
			link_model_last_serialisation(model, &tx_start, &tx_end);
			if (tx_start < now || tx_end < tx_start ||
			    (rate && tx_end > link_model_free_at_ns(model)) ||
			    (fate == LINK_SENT && due < tx_end + delay_ns))
				abort();
		}
		if (link_model_free_at_ns(model) < free_at)
			abort();
		free_at = link_model_free_at_ns(model);
		(void)link_model_queue_bytes(model, free_at, now);
	}
	link_model_free(model);
	return 0;
}
