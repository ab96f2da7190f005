/*
 * residual.c - the residual loss of S(k,z) over a channel, by Monte-Carlo:
 * the encoder, the channel and the decoder of this library, composed packet
 * by packet as a sender, a link and a receiver would be (swf.h says what is
 * counted and when).
 *
 * The receiver's view is a ring of `delivered` flags, one per source from the
 * oldest unsettled one to the newest sent. `missing` counts the sources of
 * the next repair's window (the last z sent) the receiver lacks, so that
 * whether a repair can help is known without a scan.
 */
#include "swf.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "channel_internal.h"

#define SYMBOL_BYTES 4u
#define MAX_TIME_MS 1e12 /* channel.c's bound on times */

struct swf_residual {
	swf_encoder *encoder;
	swf_decoder *decoder;
	swf_channel *channel;
	uint32_t k, z;
	double packet_ms;
	uint64_t first_packet;
	uint32_t settle_after; /* a source is settled once this many sources follow it */

	uint8_t *delivered; /* per source, by ESI & mask: received or rebuilt */
	uint32_t mask;
	uint32_t missing;   /* sources of the last z sent that the receiver lacks */
	uint32_t since_repair;
	uint64_t sent, settled; /* sources */
	swf_residual_counts totals; /* since creation, sources and lost excepted */
};

const char *swf_residual_config_check(const swf_residual_config *config)
{
	if (config->k == 0)
		return "k";
	if (config->z == 0 || config->z > SWF_MAX_WINDOW)
		return "z";
	if (!(config->packet_ms >= 0.0 && config->packet_ms <= MAX_TIME_MS))
		return "packet_ms";
	return swf_channel_config_check(&config->channel);
}

swf_status swf_residual_new(const swf_residual_config *config, swf_residual **out)
{
	if (swf_residual_config_check(config))
		return SWF_E_INVALID;
	swf_residual *r = calloc(1, sizeof(*r));
	if (!r)
		return SWF_E_NOMEM;
	r->k = config->k;
	r->z = config->z;
	r->packet_ms = config->packet_ms;
	r->first_packet = config->first_packet;
	/* A power of two, so that the decoder keeps exactly this many ESIs. */
	uint32_t window_capacity = swf_round_up_pow2(2u * config->z);
	r->settle_after = window_capacity;
	r->mask = 2 * window_capacity - 1; /* holds the unsettled sources and the newest */

	swf_encoder_config encoder = {.symbol_bytes = SYMBOL_BYTES, .k = config->k, .z = config->z, .dt = SWF_MAX_DT};
	swf_decoder_config decoder = {.symbol_bytes = SYMBOL_BYTES, .max_window = config->z,
				      .window_capacity = window_capacity};
	r->delivered = calloc(r->mask + 1, 1);
	swf_status status = r->delivered ? SWF_OK : SWF_E_NOMEM;
	if (status == SWF_OK)
		status = swf_encoder_new(&encoder, &r->encoder);
	if (status == SWF_OK)
		status = swf_decoder_new(&decoder, &r->decoder);
	if (status == SWF_OK)
		status = swf_channel_new(&config->channel, &r->channel);
	if (status != SWF_OK) {
		swf_residual_free(r);
		return status;
	}
	*out = r;
	return SWF_OK;
}

void swf_residual_free(swf_residual *r)
{
	if (!r)
		return;
	swf_encoder_free(r->encoder);
	swf_decoder_free(r->decoder);
	swf_channel_free(r->channel);
	free(r->delivered);
	free(r);
}

static void esi_symbol(uint32_t esi, uint8_t symbol[SYMBOL_BYTES])
{
	for (unsigned i = 0; i < SYMBOL_BYTES; i++)
		symbol[i] = (uint8_t)(esi >> (8 * i));
}

/* The channel's verdict on the next packet on the wire. */
static bool lose_next_packet(swf_residual *r)
{
	double sent_ms = (double)(r->first_packet + r->totals.packets) * r->packet_ms;
	bool lost = swf_channel_lost(r->channel, swf_us_from_ms(sent_ms));
	r->totals.packets++;
	r->totals.packets_lost += lost;
	return lost;
}

/* Marks the sources the decoder rebuilt as delivered, checking their bytes. */
static void take_rebuilt(swf_residual *r)
{
	uint32_t esi;
	const uint8_t *symbol;
	uint8_t sent[SYMBOL_BYTES];
	while (swf_decoder_next_rebuilt(r->decoder, &esi, &symbol)) {
		esi_symbol(esi, sent);
		if (memcmp(symbol, sent, SYMBOL_BYTES) != 0) {
			r->totals.rebuilt_wrong++;
			continue;
		}
		r->totals.rebuilt++;
		r->delivered[esi & r->mask] = 1;
		if ((uint32_t)r->sent - esi <= r->z) /* in the last z sent */
			r->missing--;
	}
}

static swf_status send_repair(swf_residual *r)
{
	if (lose_next_packet(r) || r->missing == 0)
		return SWF_OK;
	uint8_t symbol[SYMBOL_BYTES];
	swf_repair_id id;
	swf_status status = swf_encoder_build_repair(r->encoder, symbol, &id);
	if (status == SWF_OK)
		status = swf_decoder_add_repair(r->decoder, &id, symbol, SYMBOL_BYTES);
	take_rebuilt(r);
	return status;
}

static swf_status send_source(swf_residual *r)
{
	uint32_t esi = (uint32_t)r->sent;
	uint8_t symbol[SYMBOL_BYTES];
	esi_symbol(esi, symbol);
	/* The schedule is counted here: the encoder's own count restarts only
	 * when a repair is built, and most are not. */
	uint32_t encoded_esi;
	bool encoder_repair_due;
	swf_status status = swf_encoder_add_source(r->encoder, symbol, SYMBOL_BYTES, &encoded_esi,
						   &encoder_repair_due);
	if (status != SWF_OK)
		return status;
	r->sent++;
	/* The source z back leaves the next repair's window. */
	if (r->sent > r->z && !r->delivered[(esi - r->z) & r->mask])
		r->missing--;
	bool lost = lose_next_packet(r);
	r->delivered[esi & r->mask] = !lost;
	if (lost) {
		r->missing++;
	} else {
		status = swf_decoder_add_source(r->decoder, esi, symbol, SYMBOL_BYTES);
		take_rebuilt(r);
	}
	if (++r->since_repair == r->k) {
		r->since_repair = 0;
		if (status == SWF_OK)
			status = send_repair(r);
	}
	return status;
}

swf_status swf_residual_advance(swf_residual *r, uint64_t sources, swf_residual_counts *counts)
{
	/* The last packet this call sends, and when: the sources up to the last
	 * one counted and settle_after more, each k followed by a repair. */
	uint64_t last_sources = r->settled + sources + r->settle_after;
	uint64_t last_packet = r->first_packet + last_sources + last_sources / r->k;
	if ((double)last_packet * r->packet_ms > MAX_TIME_MS)
		return SWF_E_RANGE;

	swf_residual_counts before = r->totals;
	uint64_t lost = 0;
	uint64_t target = r->settled + sources;
	while (r->settled < target) {
		swf_status status = send_source(r);
		if (status != SWF_OK)
			return status;
		if (r->sent - r->settled > r->settle_after) {
			lost += !r->delivered[r->settled & r->mask];
			r->settled++;
		}
	}
	*counts = (swf_residual_counts){
		.sources = sources,
		.lost = lost,
		.packets = r->totals.packets - before.packets,
		.packets_lost = r->totals.packets_lost - before.packets_lost,
		.rebuilt = r->totals.rebuilt - before.rebuilt,
		.rebuilt_wrong = r->totals.rebuilt_wrong - before.rebuilt_wrong,
	};
	return SWF_OK;
}
