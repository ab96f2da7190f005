/*
 * capture.h - a pcapng capture written off the forwarding path.
 *
 * One producer thread (a tool's reader, say) reserves a record, fills it
 * and commits it; the capture's own writer thread turns the records into
 * pcapng blocks (pcapng.h) and writes them through a buffer, at a lowered
 * priority. The producer never waits, locks or makes a system call: when
 * the bounded queue is full, the record is not taken and is counted as
 * dropped. A record may be committed pending, to be completed by another
 * thread (satlink's writer adds the departure time): records are written
 * in commit order, so the writer thread waits for a pending record before
 * writing it and those behind it, and at capture_finish writes the ones
 * still pending as they are.
 *
 * The file is a valid pcapng from the start (section header, then one
 * interface description per interface) and never grows past max_bytes:
 * when the next block would take it past (less the room kept for the last
 * blocks), the capture stops, and the file ends with a line on the events
 * interface ("capture stopped: ...", also its comment) and an Interface
 * Statistics Block; the records committed after are counted, not written.
 * A failed write stops the capture the same way, its error kept for the
 * stats. Timestamps are UTC (CLOCK_REALTIME's offset from CLOCK_MONOTONIC,
 * read when the capture opens, applied to the records' monotonic times).
 */
#ifndef CAPTURE_H
#define CAPTURE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CAPTURE_MAX_INTERFACES 3
#define CAPTURE_INFO_BYTES 64
/* The longest comment or event line a describe function may write. */
#define CAPTURE_TEXT_BYTES 256
/* A record's interface: the events interface the capture adds after the
 * caller's, for what is not a packet (described as a line of text). */
#define CAPTURE_EVENTS 255

typedef struct capture_record {
	_Atomic bool pending; /* committed, to be completed by capture_complete */
	uint8_t interface;    /* an index into the config's interfaces, or CAPTURE_EVENTS */
	uint32_t wire_len;    /* the packet's length */
	uint32_t data_len;    /* bytes of it in data, at most snap_bytes */
	uint64_t time_ns;     /* CLOCK_MONOTONIC: the block's timestamp */
	/* What the caller's describe function reads, in the caller's layout. */
	_Alignas(8) unsigned char info[CAPTURE_INFO_BYTES];
	uint8_t *data; /* the capture's, snap_bytes long */
} capture_record;

/* describe writes a record's comment (an event's line) into text, at most
 * CAPTURE_TEXT_BYTES with its NUL; it runs on the writer thread. */
typedef void (*capture_describe_fn)(const capture_record *record, char *text);

typedef struct capture_interface {
	const char *name, *description;
	uint16_t linktype; /* PCAPNG_LINKTYPE_RAW for IP packets */
} capture_interface;

typedef struct capture_config {
	const char *path;
	const char *application, *comment; /* the section header's */
	capture_interface interfaces[CAPTURE_MAX_INTERFACES];
	size_t interface_count;          /* >= 1; "events" is added after them */
	const char *events_description; /* the events interface's */
	uint32_t snap_bytes;             /* >= 1 */
	uint64_t max_bytes;              /* the file's cap, >= capture_min_bytes */
	uint32_t queue_records;          /* >= 1, rounded up to a power of two */
	capture_describe_fn describe;
} capture_config;

typedef struct capture_stats {
	uint64_t records;  /* written to the file */
	uint64_t bytes;    /* the file's size */
	uint64_t dropped;  /* not taken: the queue was full */
	uint64_t after_stop; /* not written: the capture had stopped (queued then, or offered after) */
	bool stopped;      /* at the cap, or by a write error */
	char error[128];   /* the write error ("" if none) */
} capture_stats;

typedef struct capture capture;

/* capture_min_bytes is the smallest max_bytes for config: the header
 * blocks and the room kept for the last blocks. */
uint64_t capture_min_bytes(const capture_config *config);

/* capture_open creates (truncates) config->path and writes the header
 * blocks; NULL with errno set if it cannot (EINVAL: max_bytes below
 * capture_min_bytes). The config's strings need not outlive the call. */
capture *capture_open(const capture_config *config);

/* capture_start starts the writer thread; false if it cannot. */
bool capture_start(capture *c);

/* capture_reserve returns the next free record for the producer to fill,
 * or NULL (counted) if the queue is full or the capture has stopped. Its
 * data holds snap_bytes; pending is false. */
capture_record *capture_reserve(capture *c);

/* capture_record_packet sets a reserved record's packet: prefix then
 * packet (prefix NULL for none), its first snap_bytes copied. */
void capture_record_packet(const capture *c, capture_record *record, const uint8_t *prefix,
			   uint32_t prefix_len, const uint8_t *packet, uint32_t len);

/* capture_commit hands the reserved record to the writer thread. */
void capture_commit(capture *c);

/* capture_complete marks a pending record complete; its other fields must
 * be written before. Any thread may call it, once per pending record,
 * before capture_finish. */
void capture_complete(capture_record *record);

/* capture_stats reads the counters; any thread. */
void capture_stats_read(const capture *c, capture_stats *stats);

/* capture_print_stats writes the stats as a JSON object, null for c NULL:
 * {"records":…,"bytes":…,"queue_full":…,"after_stop":…,"stopped":…,
 * "error":null or the sentence}. */
void capture_print_stats(FILE *out, const capture *c);

/* capture_finish writes every committed record (pending ones as they are)
 * and the closing Interface Statistics Blocks, stops the writer thread and
 * closes the file. The producer and completers must be done. */
void capture_finish(capture *c);

/* capture_free releases c (finished or never started). */
void capture_free(capture *c);

#endif /* CAPTURE_H */
