/*
 * tunnel_proto.h - swf-tunnel's wire format and receiving state machine,
 * free of I/O so that the fuzzer drives exactly what the tool runs.
 *
 * Each UDP datagram between the endpoints carries one tunnel packet:
 *
 *   0        1                                5
 *  +--------+--------+--------+--------+--------+----------------------------
 *  |  type  |            session (32 bits)     | then, by type:
 *  +--------+--------+--------+--------+--------+----------------------------
 *   type 1, plain:  the inner IP packet (a flow the tunnel does not protect)
 *   type 2, source: Source FEC Payload ID (4 bytes: ESI), the inner IP packet
 *   type 3, repair: Repair FEC Payload ID (8 bytes), a repair symbol of
 *                   exactly symbol_bytes bytes
 *
 * A source symbol is the inner packet prefixed by its length (16 bits, big
 * endian) and zero-padded to symbol_bytes; the padding is not sent. The
 * session is the sender's start-up identity: a new session (a restarted
 * peer) resets the receiver's decoder.
 */
#ifndef TUNNEL_PROTO_H
#define TUNNEL_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "histogram.h"
#include "swf.h"

enum tunnel_type { TUNNEL_PLAIN = 1, TUNNEL_SOURCE = 2, TUNNEL_REPAIR = 3 };

#define TUNNEL_HEADER_BYTES 5u
#define TUNNEL_SOURCE_HEADER_BYTES (TUNNEL_HEADER_BYTES + SWF_SOURCE_ID_BYTES)
#define TUNNEL_REPAIR_HEADER_BYTES (TUNNEL_HEADER_BYTES + SWF_REPAIR_ID_BYTES)
#define TUNNEL_LENGTH_BYTES 2u /* the length prefix of a source symbol */

typedef struct tunnel_packet {
	enum tunnel_type type;
	uint32_t session;
	uint32_t esi;            /* TUNNEL_SOURCE */
	swf_repair_id repair_id; /* TUNNEL_REPAIR */
	const uint8_t *payload;  /* the inner packet, or the repair symbol */
	size_t payload_len;
} tunnel_packet;

/* tunnel_parse parses the datagram buf[0..len) for a tunnel whose symbols
 * are symbol_bytes long. It returns NULL and fills *out (payload points into
 * buf), or a sentence saying why the datagram is malformed. A plain or
 * source payload must be one whole IPv4 or IPv6 packet (its header's length
 * matches), at most symbol_bytes - 2 bytes for a source. */
const char *tunnel_parse(const uint8_t *buf, size_t len, uint32_t symbol_bytes,
			 tunnel_packet *out);

/* tunnel_inner_packet_ok says whether packet[0..len) is one whole IPv4 or
 * IPv6 packet by its header's length field. */
bool tunnel_inner_packet_ok(const uint8_t *packet, size_t len);

/* tunnel_write_header writes the 5-byte header of every type into out. */
void tunnel_write_header(uint8_t *out, enum tunnel_type type, uint32_t session);

/* Counters of the receiving side. */
typedef struct tunnel_rx_counters {
	uint64_t plain;       /* unprotected packets delivered */
	uint64_t sources;     /* source packets delivered on arrival */
	uint64_t repairs;     /* repair packets accepted */
	uint64_t lost;        /* ESIs missing from the stream (gaps), late ones taken back */
	uint64_t recovered;   /* lost packets rebuilt and delivered */
	uint64_t unrecovered; /* ESIs the decoder gave up on */
	uint64_t malformed;   /* datagrams that did not parse or the decoder refused */
	uint64_t sessions;    /* sender sessions seen (a restart counts one more) */
} tunnel_rx_counters;

typedef void (*tunnel_deliver_fn)(void *context, const uint8_t *packet, size_t len);

/* Loss detection times are kept for this many ESIs behind the newest. */
#define TUNNEL_LOSS_TRACK 4096u

typedef struct tunnel_receiver {
	uint32_t symbol_bytes;
	uint16_t window;
	swf_decoder *decoder;
	swf_decoder_stats decoder_stats; /* as of the last symbol given to it */
	bool started;     /* a session is running */
	uint32_t session;
	bool esi_started;  /* the session has accepted a symbol */
	uint32_t next_esi; /* one past the newest ESI seen */
	uint8_t *symbol;   /* scratch: symbol_bytes */
	/* When each missing ESI was found missing, by ESI % TUNNEL_LOSS_TRACK. */
	uint32_t missing_esi[TUNNEL_LOSS_TRACK];
	uint64_t missing_since_ns[TUNNEL_LOSS_TRACK];
	tunnel_rx_counters counters;
	histogram *decoding_delay; /* NULL, or gets rebuild time - time found missing */
} tunnel_receiver;

/* tunnel_receiver_init prepares r for symbols of symbol_bytes and repair
 * windows up to `window` sources; decoding_delay may be NULL. Returns a
 * libswf status. */
swf_status tunnel_receiver_init(tunnel_receiver *r, uint32_t symbol_bytes, uint16_t window,
				histogram *decoding_delay);
void tunnel_receiver_free(tunnel_receiver *r);

/* tunnel_receiver_input takes one datagram received at now_ns, and calls
 * deliver for every inner packet it yields: a plain or source packet at
 * once, then the packets its arrival allowed the decoder to rebuild. Any
 * input is safe: what does not parse is counted and dropped. */
void tunnel_receiver_input(tunnel_receiver *r, const uint8_t *buf, size_t len, uint64_t now_ns,
			   tunnel_deliver_fn deliver, void *context);

#endif /* TUNNEL_PROTO_H */
