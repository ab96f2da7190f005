/*
 * link_capture.h - satlink's capture of one direction: every packet that
 * arrived, its first bytes as an IP packet (LINKTYPE_RAW), timestamped at
 * its arrival, with its story in the comment:
 *
 *   fate=delivered seq=41 arrival_ns=2001234 tx_start_ns=2001234
 *        tx_end_ns=3201234 due_ns=253201234 departure_ns=253201300
 *
 * fate is delivered (written into the far TUN), write-error (the write
 * failed), buffer-drop (the drop-tail buffer was full), aqm-drop (the AQM's
 * early drop), channel-loss (lost on the air), overflow (the ring was
 * full) or in-flight (queued or propagating when satlink stopped). seq
 * numbers the direction's arrivals from 0; the times are ns from satlink's
 * start (the ready line's start_ns): arrival, then for a packet the link
 * took its serialisation [tx_start_ns, tx_end_ns), for one it sent due_ns,
 * when it is due at the far end, and for one written departure_ns, when it
 * was written. So drops_buffer = buffer-drop + aqm-drop, drops_aqm =
 * aqm-drop, drops_channel = channel-loss, drops_overflow = overflow,
 * packets_out = delivered, write_errors = write-error, and in_flight_packets
 * at the summary = in-flight.
 *
 * The reader thread records a packet on arrival (a copy of its first
 * snap_bytes, no system call); the writer thread completes a sent packet's
 * record at its departure; the capture's own thread writes the file
 * (capture.h).
 */
#ifndef LINK_CAPTURE_H
#define LINK_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "capture.h"
#include "link_model.h"

#define LINK_CAPTURE_SNAP_BYTES 128u
#define LINK_CAPTURE_MAX_BYTES (UINT64_C(1) << 30)

/* A packet's story as far as it is known at its arrival. */
typedef struct packet_story {
	uint64_t seq;
	uint64_t arrival_ns;  /* ns from satlink's start, as the other times */
	link_fate fate;       /* the model's (or LINK_DROP_OVERFLOW: the ring was full) */
	uint64_t tx_start_ns; /* LINK_SENT and LINK_DROP_CHANNEL */
	uint64_t tx_end_ns;
	uint64_t due_ns; /* LINK_SENT */
} packet_story;

/* link_capture_open opens the capture of direction `name` ("ab") into
 * path, for satlink started at start_ns (CLOCK_MONOTONIC), with room for
 * queue_packets records; NULL with errno set as capture_open does. */
capture *link_capture_open(const char *name, const char *path, uint32_t snap_bytes,
			   uint64_t max_bytes, uint64_t start_ns, uint64_t queue_packets);

/* link_capture_arrival records a packet of len bytes that arrived at
 * start_ns + story->arrival_ns. For a packet sent (LINK_SENT) it returns
 * the record to complete with link_capture_departure, else NULL (also when
 * the capture did not take it). */
capture_record *link_capture_arrival(capture *c, const packet_story *story, const uint8_t *packet,
				     uint32_t len, uint64_t start_ns);

/* link_capture_departure completes a sent packet's record: written (or
 * not: a write error) at departure_ns (from satlink's start). */
void link_capture_departure(capture_record *record, uint64_t departure_ns, bool written);

#endif /* LINK_CAPTURE_H */
