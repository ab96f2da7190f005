/* link_capture.c - satlink's capture of one direction, packet by packet. */
#include "link_capture.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pcapng.h"

/* What a record's info holds: the story, and the departure once known. */
typedef struct record_info {
	packet_story story;
	uint64_t departure_ns;
	bool written;
} record_info;

_Static_assert(sizeof(record_info) <= CAPTURE_INFO_BYTES, "a story fits a record");

/* The queue's data stays within this many bytes: a large snap length
 * gets fewer records (and drops what does not fit). */
#define QUEUE_MAX_BYTES (64u << 20)
/* Records beyond the packets in flight: what arrives while the capture's
 * thread sleeps between passes. */
#define QUEUE_SLACK_RECORDS 8192u

static const char *fate_name(const record_info *info, bool pending)
{
	if (pending)
		return "in-flight";
	switch (info->story.fate) {
	case LINK_SENT:
		return info->written ? "delivered" : "write-error";
	case LINK_DROP_AQM:
		return "aqm-drop";
	case LINK_DROP_BUFFER:
		return "buffer-drop";
	case LINK_DROP_OVERFLOW:
		return "overflow";
	case LINK_DROP_CHANNEL:
		return "channel-loss";
	}
	return "unknown";
}

static void describe(const capture_record *record, char *text)
{
	const record_info *info = (const record_info *)record->info;
	const packet_story *s = &info->story;
	bool pending = atomic_load_explicit(&record->pending, memory_order_acquire);
	int len = snprintf(text, CAPTURE_TEXT_BYTES, "fate=%s seq=%" PRIu64 " arrival_ns=%" PRIu64,
			   fate_name(info, pending), s->seq, s->arrival_ns);
	if (s->fate == LINK_SENT || s->fate == LINK_DROP_CHANNEL)
		len += snprintf(text + len, CAPTURE_TEXT_BYTES - (size_t)len,
				" tx_start_ns=%" PRIu64 " tx_end_ns=%" PRIu64, s->tx_start_ns,
				s->tx_end_ns);
	if (s->fate == LINK_SENT)
		len += snprintf(text + len, CAPTURE_TEXT_BYTES - (size_t)len, " due_ns=%" PRIu64,
				s->due_ns);
	if (s->fate == LINK_SENT && !pending)
		snprintf(text + len, CAPTURE_TEXT_BYTES - (size_t)len, " departure_ns=%" PRIu64,
			 info->departure_ns);
}

capture *link_capture_open(const char *name, const char *path, uint32_t snap_bytes,
			   uint64_t max_bytes, uint64_t start_ns, uint64_t queue_packets)
{
	char comment[512], description[128];
	snprintf(comment, sizeof comment,
		 "satlink, direction %s: every packet that arrived, at its arrival time, with its "
		 "fate (delivered, write-error, buffer-drop, aqm-drop, channel-loss, overflow, "
		 "in-flight) and times in its comment, in ns from satlink's start "
		 "(CLOCK_MONOTONIC %" PRIu64 " ns, the ready line's start_ns)",
		 name, start_ns);
	snprintf(description, sizeof description, "satlink %s: the packets that arrived", name);
	uint64_t records = queue_packets + QUEUE_SLACK_RECORDS;
	uint64_t fitting = QUEUE_MAX_BYTES / (snap_bytes + sizeof(capture_record));
	capture_config config = {
		.path = path,
		.application = "satlink (satlab)",
		.comment = comment,
		.interfaces = {{name, description, PCAPNG_LINKTYPE_RAW}},
		.interface_count = 1,
		.events_description = "notes: the end of the capture",
		.snap_bytes = snap_bytes,
		.max_bytes = max_bytes,
		.queue_records = (uint32_t)(records < fitting ? records : fitting),
		.describe = describe,
	};
	return capture_open(&config);
}

capture_record *link_capture_arrival(capture *c, const packet_story *story, const uint8_t *packet,
				     uint32_t len, uint64_t start_ns)
{
	capture_record *record = capture_reserve(c);
	if (record == NULL)
		return NULL;
	record->interface = 0;
	capture_record_packet(c, record, NULL, 0, packet, len);
	record->time_ns = start_ns + story->arrival_ns;
	record_info *info = (record_info *)record->info;
	info->story = *story;
	bool sent = story->fate == LINK_SENT;
	atomic_store_explicit(&record->pending, sent, memory_order_relaxed);
	capture_commit(c);
	return sent ? record : NULL;
}

void link_capture_departure(capture_record *record, uint64_t departure_ns, bool written)
{
	record_info *info = (record_info *)record->info;
	info->departure_ns = departure_ns;
	info->written = written;
	capture_complete(record);
}
