/* tunnel_proto.c - swf-tunnel's wire format and receiving state machine. */
#include "tunnel_proto.h"

#include <stdlib.h>
#include <string.h>

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

bool tunnel_inner_packet_ok(const uint8_t *packet, size_t len)
{
	if (len >= 20 && packet[0] >> 4 == 4)
		return ((size_t)packet[2] << 8 | packet[3]) == len && (packet[0] & 0x0F) >= 5;
	if (len >= 40 && packet[0] >> 4 == 6)
		return ((size_t)packet[4] << 8 | packet[5]) + 40 == len;
	return false;
}

const char *tunnel_parse(const uint8_t *buf, size_t len, uint32_t symbol_bytes,
			 tunnel_packet *out)
{
	if (len < TUNNEL_HEADER_BYTES)
		return "The datagram is shorter than the tunnel header.";
	memset(out, 0, sizeof *out);
	out->type = (enum tunnel_type)buf[0];
	out->session = get32(buf + 1);
	switch (buf[0]) {
	case TUNNEL_PLAIN:
		out->payload = buf + TUNNEL_HEADER_BYTES;
		out->payload_len = len - TUNNEL_HEADER_BYTES;
		break;
	case TUNNEL_SOURCE:
		if (len < TUNNEL_SOURCE_HEADER_BYTES)
			return "The source packet is shorter than its header.";
		out->esi = get32(buf + TUNNEL_HEADER_BYTES);
		out->payload = buf + TUNNEL_SOURCE_HEADER_BYTES;
		out->payload_len = len - TUNNEL_SOURCE_HEADER_BYTES;
		if (out->payload_len + TUNNEL_LENGTH_BYTES > symbol_bytes)
			return "The source packet does not fit the symbol size.";
		break;
	case TUNNEL_REPAIR:
		if (len != TUNNEL_REPAIR_HEADER_BYTES + symbol_bytes)
			return "The repair packet does not carry one symbol.";
		if (swf_repair_id_read(buf + TUNNEL_HEADER_BYTES, len - TUNNEL_HEADER_BYTES,
				       &out->repair_id) != SWF_OK)
			return "The repair payload ID is malformed.";
		out->payload = buf + TUNNEL_REPAIR_HEADER_BYTES;
		out->payload_len = symbol_bytes;
		return NULL;
	default:
		return "The tunnel packet type is unknown.";
	}
	if (!tunnel_inner_packet_ok(out->payload, out->payload_len))
		return "The inner packet is not one whole IP packet.";
	return NULL;
}

void tunnel_write_header(uint8_t *out, enum tunnel_type type, uint32_t session)
{
	out[0] = (uint8_t)type;
	out[1] = (uint8_t)(session >> 24);
	out[2] = (uint8_t)(session >> 16);
	out[3] = (uint8_t)(session >> 8);
	out[4] = (uint8_t)session;
}

static swf_status new_decoder(tunnel_receiver *r)
{
	swf_decoder_config config = {.symbol_bytes = r->symbol_bytes, .max_window = r->window};
	return swf_decoder_new(&config, &r->decoder);
}

swf_status tunnel_receiver_init(tunnel_receiver *r, uint32_t symbol_bytes, uint16_t window,
				histogram *decoding_delay)
{
	memset(r, 0, sizeof *r);
	r->symbol_bytes = symbol_bytes;
	r->window = window;
	r->decoding_delay = decoding_delay;
	r->symbol = malloc(symbol_bytes);
	if (r->symbol == NULL)
		return SWF_E_NOMEM;
	swf_status status = new_decoder(r);
	if (status != SWF_OK) {
		free(r->symbol);
		r->symbol = NULL;
	}
	return status;
}

void tunnel_receiver_free(tunnel_receiver *r)
{
	swf_decoder_free(r->decoder);
	free(r->symbol);
	r->decoder = NULL;
	r->symbol = NULL;
}

/* start_session switches to the sender session `session` with a fresh
 * decoder; false if the decoder cannot be allocated. */
static bool start_session(tunnel_receiver *r, uint32_t session)
{
	swf_decoder *old = r->decoder;
	if (new_decoder(r) != SWF_OK) {
		r->decoder = old;
		return false;
	}
	swf_decoder_free(old);
	memset(&r->decoder_stats, 0, sizeof r->decoder_stats);
	r->started = true;
	r->esi_started = false;
	r->session = session;
	r->counters.sessions++;
	return true;
}

static void mark_missing(tunnel_receiver *r, uint32_t from, uint32_t to, uint64_t now_ns)
{
	uint32_t count = to - from;
	r->counters.lost += count;
	if (count > TUNNEL_LOSS_TRACK)
		from = to - TUNNEL_LOSS_TRACK;
	for (uint32_t esi = from; esi != to; esi++) {
		r->missing_esi[esi % TUNNEL_LOSS_TRACK] = esi;
		r->missing_since_ns[esi % TUNNEL_LOSS_TRACK] = now_ns;
	}
}

static void deliver_rebuilt(tunnel_receiver *r, uint64_t now_ns, tunnel_deliver_fn deliver,
			    void *context)
{
	uint32_t esi;
	const uint8_t *symbol;
	while (swf_decoder_next_rebuilt(r->decoder, &esi, &symbol)) {
		size_t len = (size_t)symbol[0] << 8 | symbol[1];
		const uint8_t *packet = symbol + TUNNEL_LENGTH_BYTES;
		/* A symbol rebuilt from forged repairs holds garbage: never
		 * deliver what is not one IP packet. */
		if (len + TUNNEL_LENGTH_BYTES > r->symbol_bytes ||
		    !tunnel_inner_packet_ok(packet, len)) {
			r->counters.malformed++;
			continue;
		}
		r->counters.recovered++;
		uint32_t slot = esi % TUNNEL_LOSS_TRACK;
		if (r->decoding_delay != NULL && r->missing_esi[slot] == esi &&
		    r->missing_since_ns[slot] != 0) {
			histogram_add(r->decoding_delay, now_ns - r->missing_since_ns[slot]);
			r->missing_since_ns[slot] = 0;
		}
		deliver(context, packet, len);
	}
}

/* track_esis updates the loss count for an accepted symbol: `end` is one
 * past the newest ESI the symbol proves was sent, and a source's own ESI is
 * not missing. A source that fills a gap counted before is taken back. */
static void track_esis(tunnel_receiver *r, const tunnel_packet *packet, uint32_t end,
		       bool new_source, uint64_t now_ns)
{
	if (!r->esi_started) {
		r->esi_started = true;
		r->next_esi = end;
		return;
	}
	if ((int32_t)(end - r->next_esi) > 0) {
		uint32_t missing_end = packet->type == TUNNEL_SOURCE ? end - 1 : end;
		if ((int32_t)(missing_end - r->next_esi) > 0)
			mark_missing(r, r->next_esi, missing_end, now_ns);
		r->next_esi = end;
	} else if (new_source && r->counters.lost > 0) {
		r->counters.lost--;
		r->missing_since_ns[packet->esi % TUNNEL_LOSS_TRACK] = 0;
	}
}

void tunnel_receiver_input(tunnel_receiver *r, const uint8_t *buf, size_t len, uint64_t now_ns,
			   tunnel_deliver_fn deliver, void *context)
{
	tunnel_packet packet;
	if (tunnel_parse(buf, len, r->symbol_bytes, &packet) != NULL) {
		r->counters.malformed++;
		return;
	}
	if (packet.type == TUNNEL_PLAIN) {
		r->counters.plain++;
		deliver(context, packet.payload, packet.payload_len);
		return;
	}
	if (packet.type == TUNNEL_SOURCE) {
		/* A whole IP packet goes on at once, whatever the decoder makes
		 * of its ESI. */
		r->counters.sources++;
		deliver(context, packet.payload, packet.payload_len);
	}
	if ((!r->started || packet.session != r->session) && !start_session(r, packet.session)) {
		r->counters.malformed++;
		return;
	}
	swf_status status;
	uint32_t end;
	if (packet.type == TUNNEL_SOURCE) {
		size_t inner = packet.payload_len;
		r->symbol[0] = (uint8_t)(inner >> 8);
		r->symbol[1] = (uint8_t)inner;
		memcpy(r->symbol + TUNNEL_LENGTH_BYTES, packet.payload, inner);
		memset(r->symbol + TUNNEL_LENGTH_BYTES + inner, 0,
		       r->symbol_bytes - TUNNEL_LENGTH_BYTES - inner);
		status = swf_decoder_add_source(r->decoder, packet.esi, r->symbol,
						r->symbol_bytes);
		end = packet.esi + 1;
	} else {
		status = swf_decoder_add_repair(r->decoder, &packet.repair_id, packet.payload,
						packet.payload_len);
		end = packet.repair_id.first_esi + packet.repair_id.nss;
	}
	if (status != SWF_OK) {
		r->counters.malformed++;
		return;
	}
	if (packet.type == TUNNEL_REPAIR)
		r->counters.repairs++;

	/* Only this code feeds the decoder: its stats after the previous
	 * symbol are still those before this one. The call walks the window,
	 * so once per datagram it is. */
	swf_decoder_stats after;
	swf_decoder_get_stats(r->decoder, &after);
	track_esis(r, &packet, end, after.sources > r->decoder_stats.sources, now_ns);
	r->counters.unrecovered += after.given_up - r->decoder_stats.given_up;
	r->decoder_stats = after;
	deliver_rebuilt(r, now_ns, deliver, context);
}
