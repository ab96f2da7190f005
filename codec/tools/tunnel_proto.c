/* tunnel_proto.c - swf-tunnel's wire format and receiving state machine. */
#include "tunnel_proto.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
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

struct tunnel_auth {
	EVP_MAC_CTX *hmac; /* keyed: each tag restarts it with its key */
	uint8_t addresses[TUNNEL_ADDRESSES_BYTES];
};

tunnel_auth *tunnel_auth_new(const uint8_t key[TUNNEL_KEY_BYTES], const uint8_t sender[6],
			     const uint8_t receiver[6])
{
	tunnel_auth *auth = calloc(1, sizeof *auth);
	EVP_MAC *hmac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0),
		OSSL_PARAM_construct_end(),
	};
	if (auth != NULL && hmac != NULL)
		auth->hmac = EVP_MAC_CTX_new(hmac);
	EVP_MAC_free(hmac); /* the context keeps its own reference */
	if (auth == NULL || auth->hmac == NULL ||
	    !EVP_MAC_init(auth->hmac, key, TUNNEL_KEY_BYTES, params)) {
		tunnel_auth_free(auth);
		return NULL;
	}
	memcpy(auth->addresses, sender, 6);
	memcpy(auth->addresses + 6, receiver, 6);
	return auth;
}

void tunnel_auth_free(tunnel_auth *auth)
{
	if (auth != NULL)
		EVP_MAC_CTX_free(auth->hmac);
	free(auth);
}

/* full_tag computes the untruncated HMAC of the addresses and packet;
 * false only if OpenSSL fails. */
static bool full_tag(tunnel_auth *auth, const uint8_t *packet, size_t len, uint8_t tag[32])
{
	size_t tag_len;
	/* Without a key, EVP_MAC_init restarts the HMAC with the one it has. */
	return EVP_MAC_init(auth->hmac, NULL, 0, NULL) &&
	       EVP_MAC_update(auth->hmac, auth->addresses, TUNNEL_ADDRESSES_BYTES) &&
	       EVP_MAC_update(auth->hmac, packet, len) && EVP_MAC_final(auth->hmac, tag, &tag_len, 32) &&
	       tag_len == 32;
}

void tunnel_auth_sign(tunnel_auth *auth, uint8_t *packet, size_t len)
{
	uint8_t tag[32] = {0};
	/* A failure leaves a tag of zeros, which the peer refuses: counted there. */
	full_tag(auth, packet, len, tag);
	memcpy(packet + len, tag, TUNNEL_TAG_BYTES);
}

bool tunnel_auth_verify(tunnel_auth *auth, const uint8_t *datagram, size_t len)
{
	uint8_t tag[32];
	return len >= TUNNEL_TAG_BYTES &&
	       full_tag(auth, datagram, len - TUNNEL_TAG_BYTES, tag) &&
	       CRYPTO_memcmp(tag, datagram + len - TUNNEL_TAG_BYTES, TUNNEL_TAG_BYTES) == 0;
}

/* window_capacity_of is the decoder's window capacity for a window: twice
 * it, rounded up to a power of two (as swf_decoder_new rounds it). */
static uint32_t window_capacity_of(uint16_t window)
{
	uint32_t capacity = 1;
	while (capacity < 2u * window)
		capacity *= 2;
	return capacity;
}

static swf_status new_decoder(tunnel_receiver *r)
{
	swf_decoder_config config = {.symbol_bytes = r->config.symbol_bytes,
				     .max_window = r->config.window,
				     .window_capacity = r->window_capacity};
	return swf_decoder_new(&config, &r->decoder);
}

swf_status tunnel_receiver_init(tunnel_receiver *r, const tunnel_receiver_config *config)
{
	memset(r, 0, sizeof *r);
	r->config = *config;
	r->window_capacity = window_capacity_of(config->window);
	uint32_t symbol_bytes = config->symbol_bytes;
	r->symbol = malloc(symbol_bytes);
	/* A repair is the longest packet that can be held. */
	r->held = malloc(TUNNEL_REPAIR_HEADER_BYTES + symbol_bytes + TUNNEL_TAG_BYTES);
	r->known_esi = calloc(r->window_capacity, sizeof *r->known_esi);
	r->known = calloc(r->window_capacity, 1);
	r->given_up = calloc(r->window_capacity, sizeof *r->given_up);
	bool ok = r->symbol != NULL && r->held != NULL && r->known_esi != NULL &&
		  r->known != NULL && r->given_up != NULL;
	if (ok && config->delivery == TUNNEL_DELIVERY_IN_ORDER)
		ok = tunnel_reorder_init(&r->reorder, r->window_capacity,
					 symbol_bytes - TUNNEL_LENGTH_BYTES, config->hold_ns,
					 config->hold_delay);
	swf_status status = ok ? new_decoder(r) : SWF_E_NOMEM;
	if (status != SWF_OK)
		tunnel_receiver_free(r);
	return status;
}

void tunnel_receiver_free(tunnel_receiver *r)
{
	swf_decoder_free(r->decoder);
	tunnel_reorder_free(&r->reorder);
	free(r->symbol);
	free(r->held);
	free(r->known_esi);
	free(r->known);
	free(r->given_up);
	r->decoder = NULL;
	r->symbol = r->held = r->known = NULL;
	r->known_esi = r->given_up = NULL;
}

/* ---------------------------------------------------------------------- */
/* Events and delivery                                                    */

static void observe(const tunnel_receiver *r, const tunnel_event *event)
{
	if (r->config.observe != NULL)
		r->config.observe(r->config.observe_context, event);
}

/* A datagram as it arrived, and parsed (packet NULL if it did not parse). */
typedef struct arrival {
	const uint8_t *datagram;
	size_t len; /* its tag included */
	uint64_t arrival_ns;
	const tunnel_packet *packet;
} arrival;

static void observe_datagram(const tunnel_receiver *r, tunnel_fate fate, const arrival *a,
			     const char *reason)
{
	tunnel_event event = {.fate = fate, .arrival_ns = a->arrival_ns, .datagram = a->datagram,
			      .datagram_len = a->len, .packet = a->packet, .reason = reason};
	observe(r, &event);
}

static void observe_esi(const tunnel_receiver *r, tunnel_fate fate, uint64_t now_ns, bool esi_known,
			uint32_t esi, const uint8_t *inner, size_t inner_len, const char *reason)
{
	tunnel_event event = {.fate = fate, .arrival_ns = now_ns, .esi_known = esi_known,
			      .esi = esi, .inner = inner, .inner_len = inner_len, .reason = reason};
	observe(r, &event);
}

/* deliver_stream delivers a stream packet of ESI esi as the delivery mode
 * says. */
static void deliver_stream(tunnel_receiver *r, uint32_t esi, const uint8_t *packet, size_t len,
			   uint64_t now_ns, tunnel_deliver_fn deliver, void *context)
{
	if (r->config.delivery == TUNNEL_DELIVERY_IN_ORDER)
		tunnel_reorder_offer(&r->reorder, esi, packet, len, now_ns, deliver, context);
	else
		deliver(context, packet, len);
}

/* ---------------------------------------------------------------------- */
/* The decoder's window                                                   */

static bool window_knows(const tunnel_receiver *r, uint32_t esi)
{
	uint32_t slot = esi & (r->window_capacity - 1);
	return r->known[slot] && r->known_esi[slot] == esi;
}

static void window_learn(tunnel_receiver *r, uint32_t esi)
{
	uint32_t slot = esi & (r->window_capacity - 1);
	r->known[slot] = 1;
	r->known_esi[slot] = esi;
}

/* window_place follows the decoder placing a symbol it took over ESIs
 * [lo, hi] (its place() in decoder.c): the window slides to hi, giving up
 * each unknown ESI of the stream (from `first`) that leaves it, and `first`
 * moves back to lo for a symbol inside it. Returns how many ESIs it gave
 * up, listed in r->given_up; *stale says whether lo had left the window. */
static uint32_t window_place(tunnel_receiver *r, uint32_t lo, uint32_t hi, bool *stale)
{
	uint32_t cap = r->window_capacity, given_up = 0;
	*stale = false;
	if (!r->window_started) {
		r->window_started = true;
		r->window_newest = hi;
		r->window_first = lo;
		return 0;
	}
	uint32_t ahead = hi - r->window_newest;
	if ((int32_t)ahead > 0) {
		uint32_t steps = ahead < cap ? ahead : cap;
		for (uint32_t n = 1; n <= steps; n++) {
			uint32_t esi = r->window_newest - cap + n;
			if (window_knows(r, esi))
				r->known[esi & (cap - 1)] = 0;
			else if ((int32_t)(esi - r->window_first) >= 0)
				r->given_up[given_up++] = esi;
		}
		r->window_newest = hi;
		if (r->window_newest - r->window_first >= cap)
			r->window_first = r->window_newest - cap + 1;
	}
	if (r->window_newest - lo >= cap)
		*stale = true;
	else if ((int32_t)(lo - r->window_first) < 0)
		r->window_first = lo;
	return given_up;
}

/* give_up reports the ESIs the decoder gave up with the last symbol: its
 * count, named by window_place (the fuzzer proves the two agree), and in
 * order moves the release point past the window. */
static void give_up(tunnel_receiver *r, uint32_t placed, uint64_t count, uint64_t now_ns,
		    tunnel_deliver_fn deliver, void *context)
{
	r->counters.unrecovered += count;
	for (uint64_t i = 0; i < count; i++)
		observe_esi(r, TUNNEL_FATE_GIVEN_UP, now_ns, i < placed,
			    i < placed ? r->given_up[i] : 0, NULL, 0, NULL);
	if (r->config.delivery == TUNNEL_DELIVERY_IN_ORDER && r->window_started)
		tunnel_reorder_pass(&r->reorder, r->window_newest - r->window_capacity + 1, now_ns,
				    deliver, context);
}

/* ---------------------------------------------------------------------- */
/* The stream                                                             */

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
		window_learn(r, esi);
		size_t len = (size_t)symbol[0] << 8 | symbol[1];
		const uint8_t *packet = symbol + TUNNEL_LENGTH_BYTES;
		/* A symbol rebuilt from forged repairs holds garbage: never
		 * deliver what is not one IP packet. */
		if (len + TUNNEL_LENGTH_BYTES > r->config.symbol_bytes ||
		    !tunnel_inner_packet_ok(packet, len)) {
			r->counters.malformed++;
			observe_esi(r, TUNNEL_FATE_MALFORMED, now_ns, true, esi, symbol,
				    r->config.symbol_bytes,
				    "The rebuilt symbol is not one whole IP packet.");
			continue;
		}
		r->counters.recovered++;
		uint32_t slot = esi % TUNNEL_LOSS_TRACK;
		if (r->config.decoding_delay != NULL && r->missing_esi[slot] == esi &&
		    r->missing_since_ns[slot] != 0) {
			histogram_add(r->config.decoding_delay, now_ns - r->missing_since_ns[slot]);
			r->missing_since_ns[slot] = 0;
		}
		observe_esi(r, TUNNEL_FATE_REBUILT, now_ns, true, esi, packet, len, NULL);
		deliver_stream(r, esi, packet, len, now_ns, deliver, context);
	}
}

/* start_stream makes (session, ESIs from `start`) the current stream,
 * with a fresh decoder: nothing in the old one is within a window of it.
 * In the same session, the ESIs it jumped over are lost (an outage). What
 * was held for order goes first. False if the decoder cannot be
 * allocated. */
static bool start_stream(tunnel_receiver *r, uint32_t session, uint32_t start, uint64_t now_ns,
			 tunnel_deliver_fn deliver, void *context)
{
	swf_decoder *old = r->decoder;
	if (new_decoder(r) != SWF_OK) {
		r->decoder = old;
		return false;
	}
	swf_decoder_free(old);
	memset(&r->decoder_stats, 0, sizeof r->decoder_stats);
	r->window_started = false;
	memset(r->known, 0, r->window_capacity);
	if (r->config.delivery == TUNNEL_DELIVERY_IN_ORDER) {
		tunnel_reorder_flush(&r->reorder, now_ns, deliver, context);
		tunnel_reorder_restart(&r->reorder, start);
	}
	if (!r->started || session != r->session)
		r->counters.sessions++;
	else if ((int32_t)(start - r->next_esi) > 0)
		mark_missing(r, r->next_esi, start, now_ns);
	r->started = true;
	r->session = session;
	r->next_esi = start;
	return true;
}

/* track_esis updates the loss count for an accepted symbol: `end` is one
 * past the newest ESI the symbol proves was sent, and a source's own ESI is
 * not missing. A source that fills a gap counted before is taken back. */
static void track_esis(tunnel_receiver *r, const tunnel_packet *packet, uint32_t end,
		       bool new_source, uint64_t now_ns)
{
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

/* stream_end is one past the newest ESI a stream packet shows was sent. */
static uint32_t stream_end(const tunnel_packet *packet)
{
	return packet->type == TUNNEL_SOURCE ? packet->esi + 1
					     : packet->repair_id.first_esi + packet->repair_id.nss;
}

/* near says whether ESI ends a and b are within a window of each other:
 * one stream could have sent both with nothing but losses in between that
 * FEC could bridge. */
static bool near(const tunnel_receiver *r, uint32_t a, uint32_t b)
{
	int32_t distance = (int32_t)(a - b);
	return distance > -(int32_t)r->config.window && distance <= (int32_t)r->config.window;
}

/* take gives a packet of the current stream to the decoder, and delivers
 * it (a source) and what it lets the decoder rebuild. */
static void take(tunnel_receiver *r, const arrival *a, uint64_t now_ns, tunnel_deliver_fn deliver,
		 void *context)
{
	const tunnel_packet *packet = a->packet;
	uint32_t symbol_bytes = r->config.symbol_bytes;
	swf_status status;
	if (packet->type == TUNNEL_SOURCE) {
		/* A whole IP packet goes on at once, whatever the decoder makes
		 * of its ESI. */
		r->counters.sources++;
		observe_datagram(r, TUNNEL_FATE_SOURCE, a, NULL);
		deliver_stream(r, packet->esi, packet->payload, packet->payload_len, now_ns, deliver,
			       context);
		size_t inner = packet->payload_len;
		r->symbol[0] = (uint8_t)(inner >> 8);
		r->symbol[1] = (uint8_t)inner;
		memcpy(r->symbol + TUNNEL_LENGTH_BYTES, packet->payload, inner);
		memset(r->symbol + TUNNEL_LENGTH_BYTES + inner, 0,
		       symbol_bytes - TUNNEL_LENGTH_BYTES - inner);
		status = swf_decoder_add_source(r->decoder, packet->esi, r->symbol, symbol_bytes);
	} else {
		status = swf_decoder_add_repair(r->decoder, &packet->repair_id, packet->payload,
						packet->payload_len);
	}
	if (status != SWF_OK) {
		r->counters.malformed++;
		observe_datagram(r, TUNNEL_FATE_MALFORMED, a, "The decoder refused the symbol.");
		return;
	}
	bool stale;
	uint32_t end = stream_end(packet);
	uint32_t placed = window_place(r, packet->type == TUNNEL_SOURCE ? packet->esi
									 : packet->repair_id.first_esi,
				       end - 1, &stale);
	if (packet->type == TUNNEL_SOURCE && !stale)
		window_learn(r, packet->esi);
	if (packet->type == TUNNEL_REPAIR) {
		r->counters.repairs++;
		observe_datagram(r, TUNNEL_FATE_REPAIR, a, NULL);
	}

	/* Only this code feeds the decoder: its stats after the previous
	 * symbol are still those before this one. The call walks the window,
	 * so once per datagram it is. */
	swf_decoder_stats after;
	swf_decoder_get_stats(r->decoder, &after);
	track_esis(r, packet, end, after.sources > r->decoder_stats.sources, now_ns);
	give_up(r, placed, after.given_up - r->decoder_stats.given_up, now_ns, deliver, context);
	r->decoder_stats = after;
	deliver_rebuilt(r, now_ns, deliver, context);
}

/* drop_held forgets the held datagram: nothing agreed with it. */
static void drop_held(tunnel_receiver *r)
{
	if (r->held_len == 0)
		return;
	r->counters.rejected++;
	tunnel_packet held;
	size_t tag_bytes = r->config.auth != NULL ? TUNNEL_TAG_BYTES : 0;
	tunnel_parse(r->held, r->held_len - tag_bytes, r->config.symbol_bytes, &held);
	arrival a = {r->held, r->held_len, r->held_arrival_ns, &held};
	observe_datagram(r, TUNNEL_FATE_REJECTED, &a, NULL);
	r->held_len = 0;
}

void tunnel_receiver_input(tunnel_receiver *r, const uint8_t *buf, size_t len, uint64_t now_ns,
			   tunnel_deliver_fn deliver, void *context)
{
	tunnel_receiver_tick(r, now_ns, deliver, context);
	arrival a = {buf, len, now_ns, NULL};
	size_t tag_bytes = 0;
	if (r->config.auth != NULL) {
		if (!tunnel_auth_verify(r->config.auth, buf, len)) {
			r->counters.unauthenticated++;
			observe_datagram(r, TUNNEL_FATE_UNAUTHENTICATED, &a, NULL);
			return;
		}
		tag_bytes = TUNNEL_TAG_BYTES;
	}
	tunnel_packet packet;
	const char *malformed = tunnel_parse(buf, len - tag_bytes, r->config.symbol_bytes, &packet);
	if (malformed != NULL) {
		r->counters.malformed++;
		observe_datagram(r, TUNNEL_FATE_MALFORMED, &a, malformed);
		return;
	}
	a.packet = &packet;
	if (packet.type == TUNNEL_PLAIN) {
		r->counters.plain++;
		observe_datagram(r, TUNNEL_FATE_PLAIN, &a, NULL);
		deliver(context, packet.payload, packet.payload_len);
		return;
	}
	uint32_t end = stream_end(&packet);
	if (!r->started || packet.session != r->session || !near(r, end, r->next_esi)) {
		/* It starts a stream, or breaks the current one: believed only
		 * once a second datagram of the same session agrees with it and
		 * nothing of the current stream came in between (the first
		 * datagrams, a restarted peer, an outage longer than a window). */
		if (r->held_len == 0 || packet.session != r->held_session ||
		    !near(r, end, r->held_end)) {
			drop_held(r);
			memcpy(r->held, buf, len);
			r->held_len = len;
			r->held_session = packet.session;
			r->held_end = end;
			r->held_arrival_ns = now_ns;
			return;
		}
		tunnel_packet held;
		tunnel_parse(r->held, r->held_len - tag_bytes, r->config.symbol_bytes,
			     &held); /* it parsed before */
		arrival held_arrival = {r->held, r->held_len, r->held_arrival_ns, &held};
		r->held_len = 0;
		/* The stream starts at the held source's ESI, or past the held
		 * repair's window (which of its sources came before is unknown). */
		if (!start_stream(r, held.session, held.type == TUNNEL_SOURCE ? held.esi : r->held_end,
				  now_ns, deliver, context)) {
			r->counters.malformed += 2;
			observe_datagram(r, TUNNEL_FATE_MALFORMED, &held_arrival,
					 "No memory for a new decoder.");
			observe_datagram(r, TUNNEL_FATE_MALFORMED, &a, "No memory for a new decoder.");
			return;
		}
		take(r, &held_arrival, now_ns, deliver, context);
	}
	drop_held(r);
	take(r, &a, now_ns, deliver, context);
}

uint64_t tunnel_receiver_deadline_ns(const tunnel_receiver *r)
{
	return r->config.delivery == TUNNEL_DELIVERY_IN_ORDER ? tunnel_reorder_deadline_ns(&r->reorder)
							      : 0;
}

void tunnel_receiver_tick(tunnel_receiver *r, uint64_t now_ns, tunnel_deliver_fn deliver,
			  void *context)
{
	if (r->config.delivery == TUNNEL_DELIVERY_IN_ORDER)
		tunnel_reorder_expire(&r->reorder, now_ns, deliver, context);
}

void tunnel_receiver_flush(tunnel_receiver *r, uint64_t now_ns, tunnel_deliver_fn deliver,
			   void *context)
{
	if (r->config.delivery == TUNNEL_DELIVERY_IN_ORDER)
		tunnel_reorder_flush(&r->reorder, now_ns, deliver, context);
}
