/*
 * test_capture.c - proves the capture writer (codec/tools/capture.c and its
 * pcapng blocks) without a device: the file is a sequence of well-formed
 * pcapng blocks (each length a multiple of 4, repeated at its end; options
 * padded to 32 bits, ended by opt_endofopt) opening with a section header
 * and one interface per packet interface plus the events interface; records
 * come out in commit order, their comments and bytes as given; a pending
 * record waits for its completion and is written as it is at finish; a
 * full queue drops records and counts them, and the closing statistics
 * block says how many were received, dropped and written; at its cap the
 * capture stops within the cap, ends with the "capture stopped" line and
 * its statistics, and counts what came after.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#include "capture.h"
#include "check.h"
#include "pcapng.h"

/* ---------------------------------------------------------------------- */
/* A reader of what the writer wrote                                      */

#define MAX_BLOCKS 64

typedef struct option {
	uint16_t code, len;
	const uint8_t *value;
} option;

typedef struct block {
	uint32_t type, len;
	const uint8_t *body; /* after type and length */
	size_t body_len;     /* without the trailing length */
	option options[16];
	size_t option_count;
	/* EPB */
	uint32_t interface, data_len, wire_len;
	const uint8_t *data;
	uint64_t timestamp;
} block;

static uint32_t u32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static uint16_t u16(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}

/* parse_options reads options from p to end, which must end exactly
 * after opt_endofopt. */
static void parse_options(block *b, const uint8_t *p, const uint8_t *end)
{
	for (;;) {
		CHECK(p + 4 <= end);
		option o = {u16(p), u16(p + 2), p + 4};
		p += 4;
		if (o.code == 0) {
			CHECK(o.len == 0 && p == end);
			return;
		}
		CHECK(p + ((o.len + 3u) & ~3u) <= end);
		for (uint16_t i = o.len; i % 4; i++)
			CHECK(p[i] == 0); /* padding */
		p += (o.len + 3u) & ~3u;
		CHECK(b->option_count < 16);
		b->options[b->option_count++] = o;
	}
}

static size_t parse_file(const uint8_t *file, size_t size, block *blocks)
{
	size_t count = 0;
	for (size_t at = 0; at < size; count++) {
		CHECK(count < MAX_BLOCKS && at + 12 <= size);
		block *b = &blocks[count];
		*b = (block){.type = u32(file + at), .len = u32(file + at + 4)};
		CHECK(b->len % 4 == 0 && b->len >= 12 && at + b->len <= size);
		CHECK(u32(file + at + b->len - 4) == b->len);
		b->body = file + at + 8;
		b->body_len = b->len - 12;
		const uint8_t *end = b->body + b->body_len;
		switch (b->type) {
		case PCAPNG_BLOCK_SECTION:
			CHECK(u32(b->body) == 0x1A2B3C4Du && u16(b->body + 4) == 1);
			parse_options(b, b->body + 16, end);
			break;
		case PCAPNG_BLOCK_INTERFACE:
			parse_options(b, b->body + 8, end);
			break;
		case PCAPNG_BLOCK_PACKET:
			b->interface = u32(b->body);
			b->timestamp = (uint64_t)u32(b->body + 4) << 32 | u32(b->body + 8);
			b->data_len = u32(b->body + 12);
			b->wire_len = u32(b->body + 16);
			b->data = b->body + 20;
			CHECK(b->data_len <= b->wire_len);
			parse_options(b, b->data + ((b->data_len + 3u) & ~3u), end);
			break;
		case PCAPNG_BLOCK_STATISTICS:
			parse_options(b, b->body + 12, end);
			break;
		default:
			CHECK(!"an unknown block type");
		}
		at += b->len;
	}
	return count;
}

static const option *find_option(const block *b, uint16_t code)
{
	for (size_t i = 0; i < b->option_count; i++)
		if (b->options[i].code == code)
			return &b->options[i];
	return NULL;
}

static bool has_text(const block *b, uint16_t code, const char *text)
{
	const option *o = find_option(b, code);
	return o != NULL && o->len == strlen(text) && memcmp(o->value, text, o->len) == 0;
}

static uint64_t option64(const block *b, uint16_t code)
{
	const option *o = find_option(b, code);
	CHECK(o != NULL && o->len == 8);
	uint64_t v;
	memcpy(&v, o->value, 8);
	return v;
}

static size_t read_file(const char *path, uint8_t *out, size_t size)
{
	FILE *f = fopen(path, "rb");
	CHECK(f != NULL);
	size_t n = fread(out, 1, size, f);
	CHECK(n < size); /* all of it */
	fclose(f);
	return n;
}

/* ---------------------------------------------------------------------- */
/* Captures                                                               */

/* A record's info here: its number and whether it is an event. */
typedef struct test_info {
	uint32_t number;
} test_info;

static void describe(const capture_record *r, char *text)
{
	const test_info *info = (const test_info *)r->info;
	snprintf(text, CAPTURE_TEXT_BYTES, "number=%u%s", info->number,
		 atomic_load(&r->pending) ? " pending" : "");
}

static char path[64];

static capture_config config_of(uint32_t queue_records, uint64_t max_bytes)
{
	return (capture_config){
		.path = path,
		.application = "test_capture",
		.comment = "a test",
		.interfaces = {{"packets", "what the test sent", PCAPNG_LINKTYPE_RAW}},
		.interface_count = 1,
		.events_description = "what is not a packet",
		.snap_bytes = 32,
		.max_bytes = max_bytes,
		.queue_records = queue_records,
		.describe = describe,
	};
}

/* commit_record commits record `number` of `len` bytes (number in each),
 * or an event; false if the capture did not take it. */
static bool commit_record(capture *c, uint32_t number, uint32_t len, bool event, bool pending,
			  capture_record **out)
{
	capture_record *r = capture_reserve(c);
	if (r == NULL)
		return false;
	r->interface = event ? CAPTURE_EVENTS : 0;
	r->wire_len = event ? 0 : len;
	r->data_len = event ? 0 : (len < 32 ? len : 32);
	memset(r->data, (int)number, r->data_len);
	r->time_ns = 1000u * number;
	((test_info *)r->info)->number = number;
	atomic_store(&r->pending, pending);
	capture_commit(c);
	if (out != NULL)
		*out = r;
	return true;
}

static uint8_t file[1 << 20];
static block blocks[MAX_BLOCKS];

static void test_blocks_records_and_a_full_queue(void)
{
	capture_config config = config_of(4, 1 << 20);
	capture *c = capture_open(&config);
	CHECK(c != NULL);
	capture_record *pending;
	CHECK(commit_record(c, 1, 100, false, true, &pending));
	CHECK(commit_record(c, 2, 10, false, false, NULL));
	CHECK(commit_record(c, 3, 0, true, false, NULL));
	CHECK(commit_record(c, 4, 40, false, true, NULL)); /* never completed */
	CHECK(!commit_record(c, 5, 40, false, false, NULL)); /* the queue is full */
	capture_stats stats;
	capture_stats_read(c, &stats);
	CHECK(stats.dropped == 1 && stats.records == 0);
	CHECK(capture_start(c));
	capture_complete(pending);
	capture_finish(c);
	capture_stats_read(c, &stats);
	CHECK(stats.records == 4 && !stats.stopped && stats.error[0] == '\0');
	capture_free(c);

	size_t size = read_file(path, file, sizeof file);
	CHECK(size == stats.bytes);
	size_t n = parse_file(file, size, blocks);
	CHECK(n == 8); /* SHB, 2 IDBs, 4 EPBs, ISB */
	CHECK(blocks[0].type == PCAPNG_BLOCK_SECTION && has_text(&blocks[0], 1, "a test") &&
	      has_text(&blocks[0], 4, "test_capture"));
	CHECK(blocks[1].type == PCAPNG_BLOCK_INTERFACE && u16(blocks[1].body) == PCAPNG_LINKTYPE_RAW &&
	      u32(blocks[1].body + 4) == 32 && has_text(&blocks[1], 2, "packets"));
	CHECK(blocks[2].type == PCAPNG_BLOCK_INTERFACE &&
	      u16(blocks[2].body) == PCAPNG_LINKTYPE_UPPER_PDU && has_text(&blocks[2], 2, "events"));
	const block *p = &blocks[3];
	CHECK(p->type == PCAPNG_BLOCK_PACKET && p->interface == 0 && p->data_len == 32 &&
	      p->wire_len == 100 && p->data[0] == 1 && p->data[31] == 1 &&
	      has_text(p, 1, "number=1"));
	CHECK(blocks[4].data_len == 10 && blocks[4].wire_len == 10 && has_text(&blocks[4], 1, "number=2"));
	/* The event: a data-text-lines line, its text also the comment. */
	const block *e = &blocks[5];
	CHECK(e->interface == 1 && has_text(e, 1, "number=3"));
	static const char pdu[] = "\0\x0c\0\x10" "data-text-lines\0" "\0\0\0\0" "number=3\n";
	CHECK(e->data_len == sizeof pdu - 1 && memcmp(e->data, pdu, sizeof pdu - 1) == 0);
	/* Pending at finish: written as it is. */
	CHECK(has_text(&blocks[6], 1, "number=4 pending"));
	/* Timestamps: the monotonic time plus one offset to UTC. */
	CHECK(blocks[4].timestamp - p->timestamp == 1000);
	const block *s = &blocks[7];
	CHECK(s->type == PCAPNG_BLOCK_STATISTICS && u32(s->body) == 0);
	CHECK(option64(s, 4) == 5 && option64(s, 7) == 1 && option64(s, 8) == 4);
	CHECK(has_text(s, 1, "4 records written; 1 not: 1 when the capture queue was full, 0 after "
			     "the capture stopped"));
}

static void test_the_cap_stops_the_capture_within_it(void)
{
	capture_config config = config_of(64, 0);
	/* Room for the headers, the ending and three records of 32 bytes. */
	uint64_t record_bytes = pcapng_packet(NULL, 0, 0, 0, NULL, 32, 100, "number=1");
	config.max_bytes = capture_min_bytes(&config) + 3 * record_bytes + record_bytes / 2;
	capture *c = capture_open(&config);
	CHECK(c != NULL);
	CHECK(capture_start(c));
	for (uint32_t i = 1; i <= 10; i++)
		CHECK(commit_record(c, i, 100, false, false, NULL));
	capture_stats stats;
	for (int wait = 0; wait < 5000; wait++) { /* the writer thread stops it */
		capture_stats_read(c, &stats);
		if (stats.stopped)
			break;
		usleep(1000);
	}
	CHECK(stats.stopped);
	CHECK(!commit_record(c, 11, 100, false, false, NULL));
	capture_finish(c);
	capture_stats_read(c, &stats);
	CHECK(stats.records == 3 && stats.error[0] == '\0');
	CHECK(stats.after_stop == 7 + 1); /* queued when it stopped, and offered after */
	CHECK(stats.bytes <= config.max_bytes);
	capture_free(c);

	size_t size = read_file(path, file, sizeof file);
	CHECK(size == stats.bytes && size <= config.max_bytes);
	size_t n = parse_file(file, size, blocks);
	CHECK(n == 3 + 3 + 2);
	CHECK(has_text(&blocks[5], 1, "number=3"));
	char note[CAPTURE_TEXT_BYTES];
	snprintf(note, sizeof note, "capture stopped: the file reached its cap of %llu bytes after 3 "
				    "records; later packets were not captured",
		 (unsigned long long)config.max_bytes);
	CHECK(blocks[6].interface == 1 && has_text(&blocks[6], 1, note));
	CHECK(blocks[7].type == PCAPNG_BLOCK_STATISTICS);
	CHECK(option64(&blocks[7], 4) == 10 && option64(&blocks[7], 7) == 7 &&
	      option64(&blocks[7], 8) == 3);
}

static void test_a_cap_below_the_headers_is_refused(void)
{
	capture_config config = config_of(4, 0);
	config.max_bytes = capture_min_bytes(&config) - 1;
	errno = 0;
	CHECK(capture_open(&config) == NULL && errno == EINVAL);
}

int main(void)
{
	snprintf(path, sizeof path, "/tmp/test_capture_%d.pcapng", (int)getpid());
	test_blocks_records_and_a_full_queue();
	test_the_cap_stops_the_capture_within_it();
	test_a_cap_below_the_headers_is_refused();
	if (getenv("TEST_CAPTURE_KEEP") == NULL)
		unlink(path);
	return 0;
}
