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
 *  and, when the endpoints share a key, a 16-byte tag: HMAC-SHA-256 over
 *  the sender's and the receiver's IPv4 address and port then the packet,
 *  truncated to 128 bits (RFC 4868's HMAC-SHA-256-128).
 *
 * A source symbol is the inner packet prefixed by its length (16 bits, big
 * endian) and zero-padded to symbol_bytes; the padding is not sent. The
 * session is the sender's start-up identity.
 *
 * The receiver believes no single datagram that breaks its current stream
 * (the session and the ESIs around the newest one): a new session, or ESIs
 * more than a window away, is held until a second datagram agrees with it
 * (codec/README.md, "swf-tunnel: what the receiver believes").
 *
 * It delivers a stream's inner packets at once (sources on arrival, rebuilt
 * ones as they decode) or in ESI order (tunnel_reorder.h), and tells an
 * observer what became of every datagram and of every ESI the decoder
 * rebuilt or gave up (swf-tunnel's capture).
 */
#ifndef TUNNEL_PROTO_H
#define TUNNEL_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "histogram.h"
#include "swf.h"
#include "tunnel_reorder.h"

enum tunnel_type { TUNNEL_PLAIN = 1, TUNNEL_SOURCE = 2, TUNNEL_REPAIR = 3 };

#define TUNNEL_HEADER_BYTES 5u
#define TUNNEL_SOURCE_HEADER_BYTES (TUNNEL_HEADER_BYTES + SWF_SOURCE_ID_BYTES)
#define TUNNEL_REPAIR_HEADER_BYTES (TUNNEL_HEADER_BYTES + SWF_REPAIR_ID_BYTES)
#define TUNNEL_LENGTH_BYTES 2u /* the length prefix of a source symbol */
#define TUNNEL_KEY_BYTES 32u
#define TUNNEL_TAG_BYTES 16u
/* What the tag binds besides the packet: the sender's then the receiver's
 * IPv4 address and UDP port, as on the wire, so that a packet reflected
 * back to its sender does not verify. */
#define TUNNEL_ADDRESSES_BYTES 12u

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

/* Packet authentication with a shared key: one per thread (it keeps the
 * HMAC state). */
typedef struct tunnel_auth tunnel_auth;

/* tunnel_auth_new prepares to sign packets from `sender` to `receiver`
 * (each a 6-byte IPv4 address and UDP port in network order) or to verify
 * packets that came that way. NULL if out of memory. */
tunnel_auth *tunnel_auth_new(const uint8_t key[TUNNEL_KEY_BYTES], const uint8_t sender[6],
			     const uint8_t receiver[6]);
void tunnel_auth_free(tunnel_auth *auth);

/* tunnel_auth_sign writes the tag of packet[0..len) at packet + len. */
void tunnel_auth_sign(tunnel_auth *auth, uint8_t *packet, size_t len);

/* tunnel_auth_verify says whether datagram[0..len) ends in the tag of what
 * precedes it. */
bool tunnel_auth_verify(tunnel_auth *auth, const uint8_t *datagram, size_t len);

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
	uint64_t rejected;    /* well-formed datagrams not believed: held, and no
			       * second datagram agreed with them */
	uint64_t unauthenticated; /* datagrams whose tag did not verify (with a key) */
} tunnel_rx_counters;

/* What became of a datagram, or of an ESI: one event per count of the
 * counter of the same name. */
typedef enum tunnel_fate {
	TUNNEL_FATE_PLAIN = 0,       /* plain: delivered */
	TUNNEL_FATE_SOURCE,          /* sources: delivered (in order: released in turn) */
	TUNNEL_FATE_REPAIR,          /* repairs: taken by the decoder */
	TUNNEL_FATE_REBUILT,         /* recovered: an ESI's packet rebuilt and delivered */
	TUNNEL_FATE_GIVEN_UP,        /* unrecovered: an ESI the decoder gave up */
	TUNNEL_FATE_MALFORMED,       /* malformed: a datagram, or a rebuilt symbol */
	TUNNEL_FATE_REJECTED,        /* rejected: a held datagram nothing agreed with */
	TUNNEL_FATE_UNAUTHENTICATED, /* unauthenticated: its tag did not verify */
} tunnel_fate;

typedef struct tunnel_event {
	tunnel_fate fate;
	/* When the datagram arrived (a held one: when it was held); for an
	 * ESI's event, when it was decided. */
	uint64_t arrival_ns;
	const uint8_t *datagram; /* as received, tag included; NULL for an ESI's event */
	size_t datagram_len;
	const tunnel_packet *packet; /* the datagram parsed, or NULL */
	/* REBUILT, GIVEN_UP and a MALFORMED rebuilt symbol: the ESI (esi_known
	 * false for a give-up the receiver could not place, which the fuzzer
	 * proves never happens). */
	bool esi_known;
	uint32_t esi;
	const uint8_t *inner; /* REBUILT: the inner packet; a malformed rebuilt symbol */
	size_t inner_len;
	const char *reason; /* MALFORMED: why, a sentence */
} tunnel_event;

typedef void (*tunnel_observe_fn)(void *context, const tunnel_event *event);

typedef enum tunnel_delivery {
	TUNNEL_DELIVERY_IMMEDIATE = 0, /* sources on arrival, rebuilt ones as they decode */
	TUNNEL_DELIVERY_IN_ORDER,      /* in ESI order (tunnel_reorder.h) */
} tunnel_delivery;

typedef struct tunnel_receiver_config {
	uint32_t symbol_bytes;
	uint16_t window; /* the largest repair window accepted */
	tunnel_delivery delivery;
	uint64_t hold_ns;          /* in order: the hold time (> 0) */
	histogram *decoding_delay; /* NULL, or gets rebuild time - time found missing */
	histogram *hold_delay;     /* NULL, or gets the time each packet was held */
	tunnel_auth *auth;         /* NULL: datagrams carry no tag; else still the caller's */
	tunnel_observe_fn observe; /* NULL: none */
	void *observe_context;
} tunnel_receiver_config;

/* Loss detection times are kept for this many ESIs behind the newest. */
#define TUNNEL_LOSS_TRACK 4096u

typedef struct tunnel_receiver {
	tunnel_receiver_config config;
	uint32_t window_capacity; /* the decoder's: ESIs kept behind the newest */
	swf_decoder *decoder;
	swf_decoder_stats decoder_stats; /* as of the last symbol given to it */
	bool started;      /* a stream is running: its session and next_esi */
	uint32_t session;
	uint32_t next_esi; /* one past the newest ESI seen */
	uint8_t *symbol;   /* scratch: symbol_bytes */
	/* The datagram that broke the stream, waiting for a second one to agree
	 * (held_len 0: none), as received (its tag included). */
	uint8_t *held;
	size_t held_len;
	uint32_t held_session, held_end;
	uint64_t held_arrival_ns;
	/* The decoder's window as the symbols it took place it: which ESIs it
	 * knows, and so which it gives up as they leave (codec/src/decoder.c). */
	bool window_started;
	uint32_t window_newest, window_first;
	uint32_t *known_esi; /* by ESI % window_capacity, valid where known[] */
	uint8_t *known;
	uint32_t *given_up; /* scratch: the ESIs one symbol made the decoder give up */
	/* When each missing ESI was found missing, by ESI % TUNNEL_LOSS_TRACK. */
	uint32_t missing_esi[TUNNEL_LOSS_TRACK];
	uint64_t missing_since_ns[TUNNEL_LOSS_TRACK];
	tunnel_rx_counters counters;
	tunnel_reorder reorder; /* in order */
} tunnel_receiver;

/* tunnel_receiver_init prepares r as config says (with auth, only
 * datagrams with a valid tag count). Returns a libswf status. */
swf_status tunnel_receiver_init(tunnel_receiver *r, const tunnel_receiver_config *config);
void tunnel_receiver_free(tunnel_receiver *r);

/* tunnel_receiver_input takes one datagram received at now_ns, and calls
 * deliver for every inner packet it yields: a plain or source packet at
 * once (or, held, once a second datagram proved it), then the packets its
 * arrival allowed the decoder to rebuild; in order, a stream's packets as
 * their turn comes. Any input is safe: what does not verify, parse or
 * convince is counted and dropped. */
void tunnel_receiver_input(tunnel_receiver *r, const uint8_t *buf, size_t len, uint64_t now_ns,
			   tunnel_deliver_fn deliver, void *context);

/* tunnel_receiver_deadline_ns is when tunnel_receiver_tick has packets to
 * release (in order, held for the hold time), or 0 for never. */
uint64_t tunnel_receiver_deadline_ns(const tunnel_receiver *r);

/* tunnel_receiver_tick releases what the hold time frees at now_ns. */
void tunnel_receiver_tick(tunnel_receiver *r, uint64_t now_ns, tunnel_deliver_fn deliver,
			  void *context);

/* tunnel_receiver_flush releases every packet held for order. */
void tunnel_receiver_flush(tunnel_receiver *r, uint64_t now_ns, tunnel_deliver_fn deliver,
			   void *context);

#endif /* TUNNEL_PROTO_H */
