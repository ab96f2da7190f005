/*
 * fuzz.c - swf-tunnel's receiving path under arbitrary datagrams.
 *
 * The input is a sequence of records, each a 16-bit big-endian length and
 * that many bytes: one UDP datagram as the tunnel receives it from the wire.
 * They go through tunnel_parse and then through the tunnel's receiver (the
 * decoder and loss tracking swf-tunnel runs), with 64-byte symbols and a
 * window of 8 so that short inputs reach decoding. Whatever the bytes, no
 * read or write goes out of bounds (the sanitizers watch), every packet
 * delivered inward is one whole IP packet, and the counters stay consistent.
 */
#include <stdlib.h>

#include "tunnel_proto.h"

#define SYMBOL_BYTES 64u
#define WINDOW 8u

static void check_delivered(void *context, const uint8_t *packet, size_t len)
{
	size_t *delivered = context;
	if (!tunnel_inner_packet_ok(packet, len))
		abort();
	(*delivered)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tunnel_packet parsed;
	if (tunnel_parse(data, size, SYMBOL_BYTES, &parsed) == NULL &&
	    (parsed.payload < data || parsed.payload + parsed.payload_len > data + size))
		abort();

	static tunnel_receiver receiver;
	if (tunnel_receiver_init(&receiver, SYMBOL_BYTES, WINDOW, NULL) != SWF_OK)
		return 0;
	size_t delivered = 0, datagrams = 0;
	while (size >= 2) {
		size_t len = (size_t)data[0] << 8 | data[1];
		data += 2;
		size -= 2;
		if (len > size)
			len = size;
		tunnel_receiver_input(&receiver, data, len, 1000 * (uint64_t)datagrams, check_delivered,
				      &delivered);
		data += len;
		size -= len;
		datagrams++;
	}
	const tunnel_rx_counters *c = &receiver.counters;
	if (c->plain + c->sources + c->recovered != delivered ||
	    c->plain + c->sources + c->repairs + c->malformed < datagrams)
		abort();
	tunnel_receiver_free(&receiver);
	return 0;
}
