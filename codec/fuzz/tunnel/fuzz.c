/*
 * fuzz.c - swf-tunnel's receiving path under arbitrary datagrams.
 *
 * The input is a sequence of records, each a 16-bit big-endian length and
 * that many bytes: one UDP datagram as the tunnel receives it from the wire.
 * They go through tunnel_parse and then through the tunnel's receiver (the
 * decoder, loss tracking and stream proof swf-tunnel runs), with 64-byte
 * symbols and a window of 8 so that short inputs reach decoding. Every
 * input runs three times: without a key, then with one, the harness signing
 * each record unless the top bit of its length marks it forged (the low 15
 * bits are the length), then without a key delivering in order (a hold
 * time of 5 datagrams, 1 us apart). Whatever the bytes, no read or write
 * goes out of bounds (the sanitizers watch), every packet delivered inward
 * is one whole IP packet, a forged record delivers nothing, the counters
 * account for every datagram, the observer hears one event per count of
 * each counter and names the ESI of every give-up (the receiver's view of
 * the decoder's window agrees with the decoder), and in order nothing
 * stays held after a flush.
 */
#include <stdlib.h>
#include <string.h>

#include "tunnel_proto.h"

#define SYMBOL_BYTES 64u
#define WINDOW 8u
#define FORGED 0x8000u

#define HOLD_NS 5000u

static void check_delivered(void *context, const uint8_t *packet, size_t len)
{
	size_t *delivered = context;
	if (!tunnel_inner_packet_ok(packet, len))
		abort();
	(*delivered)++;
}

/* Events by fate. */
static uint64_t events[TUNNEL_FATE_UNAUTHENTICATED + 1];

static void count_event(void *context, const tunnel_event *event)
{
	(void)context;
	if (event->fate == TUNNEL_FATE_GIVEN_UP && !event->esi_known)
		abort(); /* the receiver's view of the window went wrong */
	if ((event->datagram == NULL) !=
	    (event->fate == TUNNEL_FATE_REBUILT || event->fate == TUNNEL_FATE_GIVEN_UP ||
	     (event->fate == TUNNEL_FATE_MALFORMED && event->esi_known)))
		abort();
	events[event->fate]++;
}

static void run(const uint8_t *data, size_t size, tunnel_auth *signer, tunnel_auth *verifier,
		tunnel_delivery delivery)
{
	static tunnel_receiver receiver;
	static uint8_t signed_record[0x7FFF + TUNNEL_TAG_BYTES];
	tunnel_receiver_config config = {.symbol_bytes = SYMBOL_BYTES,
					 .window = WINDOW,
					 .delivery = delivery,
					 .hold_ns = HOLD_NS,
					 .auth = verifier,
					 .observe = count_event};
	memset(events, 0, sizeof events);
	if (tunnel_receiver_init(&receiver, &config) != SWF_OK)
		abort();
	size_t delivered = 0, datagrams = 0;
	while (size >= 2) {
		unsigned header = (unsigned)data[0] << 8 | data[1];
		size_t len = header & ~FORGED;
		data += 2;
		size -= 2;
		if (len > size)
			len = size;
		const uint8_t *datagram = data;
		size_t datagram_len = len;
		if (signer != NULL && !(header & FORGED)) {
			memcpy(signed_record, data, len);
			tunnel_auth_sign(signer, signed_record, len);
			datagram = signed_record;
			datagram_len = len + TUNNEL_TAG_BYTES;
		}
		size_t before = delivered;
		tunnel_receiver_input(&receiver, datagram, datagram_len, 1000 * (uint64_t)datagrams,
				      check_delivered, &delivered);
		if (signer != NULL && header & FORGED && delivered != before)
			abort();
		data += len;
		size -= len;
		datagrams++;
	}
	tunnel_receiver_flush(&receiver, 1000 * (uint64_t)datagrams, check_delivered, &delivered);
	const tunnel_rx_counters *c = &receiver.counters;
	if (delivery == TUNNEL_DELIVERY_IN_ORDER ? receiver.reorder.held_count != 0 ||
							   delivered > c->plain + c->sources + c->recovered
						 : c->plain + c->sources + c->recovered != delivered)
		abort();
	if (c->plain + c->sources + c->repairs + c->malformed + c->rejected + c->unauthenticated +
		    (receiver.held_len != 0) <
	    datagrams)
		abort();
	const uint64_t counted[] = {
		[TUNNEL_FATE_PLAIN] = c->plain,
		[TUNNEL_FATE_SOURCE] = c->sources,
		[TUNNEL_FATE_REPAIR] = c->repairs,
		[TUNNEL_FATE_REBUILT] = c->recovered,
		[TUNNEL_FATE_GIVEN_UP] = c->unrecovered,
		[TUNNEL_FATE_MALFORMED] = c->malformed,
		[TUNNEL_FATE_REJECTED] = c->rejected,
		[TUNNEL_FATE_UNAUTHENTICATED] = c->unauthenticated,
	};
	if (memcmp(counted, events, sizeof events) != 0)
		abort();
	tunnel_receiver_free(&receiver);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tunnel_packet parsed;
	if (tunnel_parse(data, size, SYMBOL_BYTES, &parsed) == NULL &&
	    (parsed.payload < data || parsed.payload + parsed.payload_len > data + size))
		abort();

	static const uint8_t key[TUNNEL_KEY_BYTES] = {1, 2, 3};
	static const uint8_t sender[6] = {10, 0, 0, 1, 0x1b, 0x58}, receiver[6] = {10, 0, 0, 2, 0x1b, 0x58};
	static tunnel_auth *signer, *verifier;
	if (signer == NULL) {
		signer = tunnel_auth_new(key, sender, receiver);
		verifier = tunnel_auth_new(key, sender, receiver);
		if (signer == NULL || verifier == NULL)
			abort();
	}
	run(data, size, NULL, NULL, TUNNEL_DELIVERY_IMMEDIATE);
	run(data, size, signer, verifier, TUNNEL_DELIVERY_IMMEDIATE);
	run(data, size, NULL, NULL, TUNNEL_DELIVERY_IN_ORDER);
	return 0;
}
