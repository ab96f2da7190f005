/*
 * tunnel_capture.h - swf-tunnel's capture of one direction (capture.h),
 * LINKTYPE_RAW: each outer datagram as an IPv4/UDP packet between the
 * endpoints' addresses (the headers made up, as the kernel would have sent
 * them: DF set, TTL 64, no UDP checksum; the datagram as on the wire, its
 * tag included), its story in the comment, on the interface "outer":
 *
 *   tx:  fate=sent type=source session=0x5e1f00d2 esi=1234
 *        fate=sent type=repair session=0x5e1f00d2 first_esi=1135 nss=100
 *             repair_key=4321 dt=15 [flush=1]
 *        fate=send-error type=plain session=0x5e1f00d2
 *   rx:  fate=source|repair|plain|rejected|malformed|unauthenticated, the
 *        same keys as far as the datagram parsed, and reason="..." for a
 *        malformed one
 *
 * and, received only, on the interface "rebuilt", each inner packet the
 * decoder rebuilt (fate=rebuilt esi=1236), and on the events interface a
 * line for each ESI the decoder gave up (fate=given-up esi=1237) and each
 * rebuilt symbol that was no IP packet (fate=malformed esi=...). A rejected
 * datagram is written when it is rejected, timestamped at its arrival.
 * Each fate counts as the counter of its name: tx sources, repairs
 * (flush_repairs those with flush=1), plain, send_errors (send-error); rx
 * plain, sources, repairs, recovered (rebuilt), unrecovered (given-up),
 * malformed, rejected, unauthenticated.
 */
#ifndef TUNNEL_CAPTURE_H
#define TUNNEL_CAPTURE_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture.h"
#include "tunnel_proto.h"

#define TUNNEL_CAPTURE_SNAP_BYTES 128u
#define TUNNEL_CAPTURE_MAX_BYTES (UINT64_C(1) << 30)
/* Records the queue holds: what arrives while the capture's thread sleeps
 * between passes, at a few Gbit/s. */
#define TUNNEL_CAPTURE_QUEUE_RECORDS 65536u

typedef struct tunnel_capture {
	capture *capture;
	uint8_t outer_header[28]; /* IPv4 and UDP, lengths and checksum to fill */
} tunnel_capture;

/* tunnel_capture_open opens the capture of the datagrams swf-tunnel sends
 * (received false: from local to remote) or receives (from remote to
 * local); false with errno set as capture_open does. */
bool tunnel_capture_open(tunnel_capture *tc, bool received, const char *path,
			 uint32_t snap_bytes, uint64_t max_bytes, const struct sockaddr_in *local,
			 const struct sockaddr_in *remote);

/* tunnel_capture_sent records a datagram sent at now_ns (monotonic), its
 * tag included; ok false if the send failed; flush for a flush repair. */
void tunnel_capture_sent(tunnel_capture *tc, const uint8_t *datagram, size_t len, bool ok,
			 bool flush, uint64_t now_ns);

/* tunnel_capture_observe is a tunnel_observe_fn (context: the
 * tunnel_capture) recording what the receiver says of each datagram and
 * ESI. */
void tunnel_capture_observe(void *context, const tunnel_event *event);

#endif /* TUNNEL_CAPTURE_H */
