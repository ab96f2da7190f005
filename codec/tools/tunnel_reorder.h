/*
 * tunnel_reorder.h - swf-tunnel's in-order delivery (--delivery in-order),
 * free of I/O and clocks: the inner packets of a stream leave in ESI order.
 *
 * The release point is the oldest ESI not yet released. A packet offered at
 * the release point leaves at once, with the held packets right after it; a
 * packet after a gap is held (copied) until the gap is resolved: rebuilt
 * and offered, given up by the decoder (tunnel_reorder_pass), or held past
 * the hold time (tunnel_reorder_expire passes every gap before the packet
 * held longest). A packet behind the release point (a late source, a
 * symbol rebuilt after its gap was passed) leaves at once: nothing that
 * arrived is dropped for being late. A packet offered twice while held
 * leaves once.
 *
 * At most `capacity` ESIs are spanned (a power of two, the decoder's
 * window capacity): a packet that far past the release point first passes
 * the gaps it would overrun.
 */
#ifndef TUNNEL_REORDER_H
#define TUNNEL_REORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "histogram.h"

typedef void (*tunnel_deliver_fn)(void *context, const uint8_t *packet, size_t len);

typedef struct tunnel_reorder_counters {
	uint64_t held;          /* packets released after a hold */
	uint64_t hold_timeouts; /* gaps (ESIs) passed over at the hold time */
} tunnel_reorder_counters;

typedef struct tunnel_reorder {
	uint32_t mask; /* capacity - 1 */
	size_t packet_bytes;
	uint64_t hold_ns;
	uint32_t next_esi; /* the release point */
	uint64_t held_count;
	uint64_t oldest_hold_ns; /* when the packet held longest was held (held_count > 0) */
	uint8_t *data;           /* capacity packets */
	uint32_t *esi;
	uint32_t *len; /* 0: the slot holds nothing */
	uint64_t *since_ns;
	tunnel_reorder_counters counters;
	histogram *hold_delay; /* NULL, or gets each held packet's time held */
} tunnel_reorder;

/* tunnel_reorder_init prepares t for packets of up to packet_bytes, a span
 * of capacity ESIs (a power of two) and a hold time of hold_ns (> 0);
 * hold_delay may be NULL. False if out of memory. */
bool tunnel_reorder_init(tunnel_reorder *t, uint32_t capacity, size_t packet_bytes,
			 uint64_t hold_ns, histogram *hold_delay);
void tunnel_reorder_free(tunnel_reorder *t);

/* tunnel_reorder_restart sets the release point of a new stream at
 * first_esi; nothing may be held (flush first). */
void tunnel_reorder_restart(tunnel_reorder *t, uint32_t first_esi);

/* tunnel_reorder_offer gives the packet of ESI esi (len <= packet_bytes)
 * at now_ns: delivered now, with what it releases, or held. */
void tunnel_reorder_offer(tunnel_reorder *t, uint32_t esi, const uint8_t *packet, size_t len,
			  uint64_t now_ns, tunnel_deliver_fn deliver, void *context);

/* tunnel_reorder_pass moves the release point to at least esi: every ESI
 * before it is resolved (the decoder let it go), so the held ones among
 * them are released, in order, and the missing ones passed over. */
void tunnel_reorder_pass(tunnel_reorder *t, uint32_t esi, uint64_t now_ns,
			 tunnel_deliver_fn deliver, void *context);

/* tunnel_reorder_deadline_ns is when the packet held longest reaches the
 * hold time, or 0 if none is held. */
uint64_t tunnel_reorder_deadline_ns(const tunnel_reorder *t);

/* tunnel_reorder_expire passes the gaps before each packet held for the
 * hold time or longer at now_ns. */
void tunnel_reorder_expire(tunnel_reorder *t, uint64_t now_ns, tunnel_deliver_fn deliver,
			   void *context);

/* tunnel_reorder_flush releases everything held, in ESI order. */
void tunnel_reorder_flush(tunnel_reorder *t, uint64_t now_ns, tunnel_deliver_fn deliver,
			  void *context);

#endif /* TUNNEL_REORDER_H */
