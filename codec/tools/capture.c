/* capture.c - a pcapng capture written by a thread of its own. */
#define _GNU_SOURCE
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "pcapng.h"
#include "tool.h"

/* Blocks are gathered here and written when it is full, or after every
 * pass over the queue. */
#define WRITE_BUFFER_BYTES (256u << 10)
/* The writer thread's pass period: the queue holds what arrives meanwhile. */
#define PASS_NS 10000000u
/* The writer thread's nice value: below the tools' other threads. */
#define WRITER_NICE 10

struct capture {
	capture_config config; /* its strings copied below */
	char *strings;
	uint32_t events_interface;
	int fd;
	uint64_t wall_offset_ns; /* CLOCK_REALTIME - CLOCK_MONOTONIC at open */
	uint64_t start_ns;       /* CLOCK_MONOTONIC at open */
	uint64_t final_bytes;    /* room kept for the blocks that end the file */

	capture_record *records;
	uint8_t *data;
	uint64_t mask; /* records - 1, a power of two less one */

	/* The producer's side. */
	_Alignas(64) _Atomic uint64_t tail;
	uint64_t head_seen; /* the producer's last look at head */
	_Atomic uint64_t dropped, after_stop;

	/* The writer thread's side. */
	_Alignas(64) _Atomic uint64_t head;
	_Atomic uint64_t records_written, bytes;
	_Atomic bool stopped;
	char error[128];
	uint8_t *buffer;
	size_t buffered;

	pthread_t thread;
	bool started;
	pthread_mutex_t lock; /* with wake: finish wakes the writer thread */
	pthread_cond_t wake;
	bool finishing;
	bool synchronised; /* lock and wake initialised */
};

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---------------------------------------------------------------------- */
/* The file                                                               */

static void record_error(capture *c, const char *action, int errnum)
{
	if (c->error[0] == '\0')
		snprintf(c->error, sizeof c->error, "%s %s: %s", action, c->config.path,
			 strerror(errnum));
	atomic_store(&c->stopped, true);
}

/* flush writes the buffer out; false on a write error (recorded). */
static bool flush(capture *c)
{
	size_t done = 0;
	while (done < c->buffered) {
		ssize_t n = write(c->fd, c->buffer + done, c->buffered - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			record_error(c, "write", n < 0 ? errno : EIO);
			c->buffered = 0;
			return false;
		}
		done += (size_t)n;
	}
	c->buffered = 0;
	return true;
}

/* room returns where a block of len bytes goes in the buffer, flushing it
 * first if needed; NULL after a write error. */
static uint8_t *room(capture *c, size_t len)
{
	if (c->buffered + len > WRITE_BUFFER_BYTES && !flush(c))
		return NULL;
	return c->buffer + c->buffered;
}

static void added(capture *c, size_t len)
{
	c->buffered += len;
	atomic_fetch_add_explicit(&c->bytes, len, memory_order_relaxed);
}

/* Header and ending blocks, written into out when they fit in size. */
typedef size_t (*block_fn)(capture *c, const void *arg, uint8_t *out, size_t size);

/* append writes blocks into the buffer; false after a write error. No
 * block is longer than the buffer: texts and packets are bounded. */
static bool append(capture *c, block_fn block, const void *arg)
{
	size_t len = block(c, arg, NULL, 0);
	uint8_t *out = room(c, len);
	if (out == NULL)
		return false;
	block(c, arg, out, len);
	added(c, len);
	return true;
}

static uint64_t wall_ns(const capture *c, uint64_t monotonic_ns)
{
	return monotonic_ns + c->wall_offset_ns;
}

static size_t header_blocks(capture *c, const void *unused, uint8_t *out, size_t size)
{
	(void)unused;
	const capture_config *config = &c->config;
	size_t len = pcapng_section(out, size, config->comment, config->application);
	for (size_t i = 0; i < config->interface_count; i++) {
		const capture_interface *in = &config->interfaces[i];
		len += pcapng_interface(len <= size ? out + len : NULL, len <= size ? size - len : 0,
					in->linktype, config->snap_bytes, in->name, in->description);
	}
	len += pcapng_interface(len <= size ? out + len : NULL, len <= size ? size - len : 0,
				PCAPNG_LINKTYPE_UPPER_PDU, 0, "events", config->events_description);
	return len;
}

/* encode_record writes a record's block with its text (see pcapng.h). */
static size_t encode_record(const capture *c, const capture_record *r, const char *text,
			    uint8_t *out, size_t size)
{
	if (r->interface == CAPTURE_EVENTS)
		return pcapng_text(out, size, c->events_interface, wall_ns(c, r->time_ns), text);
	return pcapng_packet(out, size, r->interface, wall_ns(c, r->time_ns), r->data, r->data_len,
			     r->wire_len, text);
}

/* What ends the file: a line on the events interface (if text is not
 * empty), then the statistics. */
typedef struct ending {
	const char *text, *comment;
	uint64_t now_ns;
	pcapng_statistics stats;
} ending;

static size_t ending_blocks(capture *c, const void *arg, uint8_t *out, size_t size)
{
	const ending *e = arg;
	size_t len = 0;
	if (e->text[0] != '\0')
		len = pcapng_text(out, size, c->events_interface, wall_ns(c, e->now_ns), e->text);
	len += pcapng_statistics_block(len <= size ? out + len : NULL, len <= size ? size - len : 0,
				       0, wall_ns(c, e->now_ns), &e->stats, e->comment);
	return len;
}

static void end_file(capture *c, const char *text)
{
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	uint64_t written = atomic_load(&c->records_written);
	uint64_t dropped = atomic_load(&c->dropped), after_stop = atomic_load(&c->after_stop);
	uint64_t committed = atomic_load(&c->tail);
	char comment[CAPTURE_TEXT_BYTES];
	snprintf(comment, sizeof comment,
		 "%" PRIu64 " records written; %" PRIu64 " not: %" PRIu64
		 " when the capture queue was full, %" PRIu64 " after the capture stopped",
		 written, committed - written + dropped + after_stop, dropped,
		 committed - written + after_stop);
	ending e = {text, comment, now,
		    {wall_ns(c, c->start_ns), wall_ns(c, now), committed + dropped + after_stop,
		     committed - written + dropped + after_stop, written}};
	if (append(c, ending_blocks, &e))
		flush(c);
}

/* The longest ending: both texts at their longest. */
static uint64_t longest_ending_bytes(capture *c)
{
	char longest[CAPTURE_TEXT_BYTES];
	memset(longest, 'x', sizeof longest - 1);
	longest[sizeof longest - 1] = '\0';
	ending e = {longest, longest, 0, {0}};
	return ending_blocks(c, &e, NULL, 0);
}

uint64_t capture_min_bytes(const capture_config *config)
{
	capture probe = {.config = *config};
	return header_blocks(&probe, NULL, NULL, 0) + longest_ending_bytes(&probe);
}

/* ---------------------------------------------------------------------- */
/* The writer thread                                                      */

/* stop_at_cap ends the file with the note that it reached its cap. */
static void stop_at_cap(capture *c)
{
	char text[CAPTURE_TEXT_BYTES];
	snprintf(text, sizeof text,
		 "capture stopped: the file reached its cap of %" PRIu64 " bytes after %" PRIu64
		 " records; later packets were not captured",
		 c->config.max_bytes, atomic_load(&c->records_written));
	atomic_store(&c->stopped, true);
	end_file(c, text);
}

/* pass writes the committed records (pending ones too when finishing) while
 * the cap allows; records are not released once the capture stopped, so
 * that no slot a completer may still write is reused. */
static void pass(capture *c, bool finishing)
{
	uint64_t head = atomic_load_explicit(&c->head, memory_order_relaxed);
	uint64_t tail = atomic_load_explicit(&c->tail, memory_order_acquire);
	for (; head != tail && !atomic_load(&c->stopped); head++) {
		capture_record *r = &c->records[head & c->mask];
		if (!finishing && atomic_load_explicit(&r->pending, memory_order_acquire))
			break;
		char text[CAPTURE_TEXT_BYTES];
		c->config.describe(r, text);
		text[CAPTURE_TEXT_BYTES - 1] = '\0';
		size_t len = encode_record(c, r, text, NULL, 0);
		if (atomic_load_explicit(&c->bytes, memory_order_relaxed) + len + c->final_bytes >
		    c->config.max_bytes) {
			stop_at_cap(c);
			break;
		}
		uint8_t *out = room(c, len);
		if (out == NULL)
			break;
		encode_record(c, r, text, out, len);
		added(c, len);
		atomic_fetch_add_explicit(&c->records_written, 1, memory_order_relaxed);
		atomic_store_explicit(&c->head, head + 1, memory_order_release);
	}
	if (!atomic_load(&c->stopped))
		flush(c);
}

static void *writer_main(void *arg)
{
	capture *c = arg;
	/* A thread's own nice value (Linux): the forwarding goes first. */
	setpriority(PRIO_PROCESS, (id_t)gettid(), WRITER_NICE);
	pthread_mutex_lock(&c->lock);
	while (!c->finishing) {
		pthread_mutex_unlock(&c->lock);
		pass(c, false);
		pthread_mutex_lock(&c->lock);
		struct timespec deadline;
		clock_gettime(CLOCK_MONOTONIC, &deadline);
		deadline.tv_nsec += PASS_NS;
		if (deadline.tv_nsec >= 1000000000) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000;
		}
		if (!c->finishing)
			pthread_cond_timedwait(&c->wake, &c->lock, &deadline);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* The API                                                                */

static char *copy_string(char **cursor, const char *text)
{
	if (text == NULL)
		return NULL;
	char *copy = *cursor;
	strcpy(copy, text);
	*cursor += strlen(text) + 1;
	return copy;
}

static size_t string_bytes(const char *text)
{
	return text == NULL ? 0 : strlen(text) + 1;
}

/* copy_config makes c->config's strings c's own. */
static bool copy_config(capture *c, const capture_config *config)
{
	c->config = *config;
	size_t bytes = string_bytes(config->path) + string_bytes(config->application) +
		       string_bytes(config->comment) + string_bytes(config->events_description);
	for (size_t i = 0; i < config->interface_count; i++)
		bytes += string_bytes(config->interfaces[i].name) +
			 string_bytes(config->interfaces[i].description);
	char *cursor = c->strings = malloc(bytes);
	if (cursor == NULL)
		return false;
	c->config.path = copy_string(&cursor, config->path);
	c->config.application = copy_string(&cursor, config->application);
	c->config.comment = copy_string(&cursor, config->comment);
	c->config.events_description = copy_string(&cursor, config->events_description);
	for (size_t i = 0; i < config->interface_count; i++) {
		c->config.interfaces[i].name = copy_string(&cursor, config->interfaces[i].name);
		c->config.interfaces[i].description =
			copy_string(&cursor, config->interfaces[i].description);
	}
	return true;
}

capture *capture_open(const capture_config *config)
{
	if (config->interface_count < 1 || config->interface_count > CAPTURE_MAX_INTERFACES ||
	    config->snap_bytes < 1 || config->queue_records < 1 ||
	    config->max_bytes < capture_min_bytes(config)) {
		errno = EINVAL;
		return NULL;
	}
	capture *c = calloc(1, sizeof *c);
	if (c == NULL || !copy_config(c, config)) {
		capture_free(c);
		errno = ENOMEM;
		return NULL;
	}
	c->fd = -1;
	c->events_interface = (uint32_t)config->interface_count;
	uint64_t slots = 1;
	while (slots < config->queue_records)
		slots *= 2;
	c->mask = slots - 1;
	c->records = calloc(slots, sizeof *c->records);
	c->data = malloc(slots * config->snap_bytes);
	c->buffer = malloc(WRITE_BUFFER_BYTES);
	if (c->records == NULL || c->data == NULL || c->buffer == NULL) {
		capture_free(c);
		errno = ENOMEM;
		return NULL;
	}
	for (uint64_t i = 0; i < slots; i++)
		c->records[i].data = c->data + i * config->snap_bytes;
	pthread_mutex_init(&c->lock, NULL);
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&c->wake, &attr);
	pthread_condattr_destroy(&attr);
	c->synchronised = true;

	c->fd = open(c->config.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (c->fd < 0) {
		int errnum = errno;
		capture_free(c);
		errno = errnum;
		return NULL;
	}
	c->start_ns = clock_ns(CLOCK_MONOTONIC);
	c->wall_offset_ns = clock_ns(CLOCK_REALTIME) - c->start_ns;
	c->final_bytes = longest_ending_bytes(c);
	if (!append(c, header_blocks, NULL) || !flush(c)) {
		capture_free(c);
		errno = EIO;
		return NULL;
	}
	return c;
}

bool capture_start(capture *c)
{
	c->started = pthread_create(&c->thread, NULL, writer_main, c) == 0;
	return c->started;
}

capture_record *capture_reserve(capture *c)
{
	if (atomic_load_explicit(&c->stopped, memory_order_relaxed)) {
		atomic_store_explicit(&c->after_stop, atomic_load_explicit(&c->after_stop,
									 memory_order_relaxed) + 1,
				      memory_order_relaxed);
		return NULL;
	}
	uint64_t tail = atomic_load_explicit(&c->tail, memory_order_relaxed);
	if (tail - c->head_seen > c->mask) {
		c->head_seen = atomic_load_explicit(&c->head, memory_order_acquire);
		if (tail - c->head_seen > c->mask) {
			atomic_store_explicit(&c->dropped, atomic_load_explicit(&c->dropped,
									      memory_order_relaxed) + 1,
					      memory_order_relaxed);
			return NULL;
		}
	}
	capture_record *r = &c->records[tail & c->mask];
	atomic_store_explicit(&r->pending, false, memory_order_relaxed);
	return r;
}

void capture_record_packet(const capture *c, capture_record *record, const uint8_t *prefix,
			   uint32_t prefix_len, const uint8_t *packet, uint32_t len)
{
	uint32_t snap = c->config.snap_bytes;
	uint32_t from_prefix = prefix_len < snap ? prefix_len : snap;
	uint32_t from_packet = len < snap - from_prefix ? len : snap - from_prefix;
	if (from_prefix != 0)
		memcpy(record->data, prefix, from_prefix);
	if (from_packet != 0)
		memcpy(record->data + from_prefix, packet, from_packet);
	record->wire_len = prefix_len + len;
	record->data_len = from_prefix + from_packet;
}

void capture_commit(capture *c)
{
	uint64_t tail = atomic_load_explicit(&c->tail, memory_order_relaxed);
	atomic_store_explicit(&c->tail, tail + 1, memory_order_release);
}

void capture_complete(capture_record *record)
{
	atomic_store_explicit(&record->pending, false, memory_order_release);
}

void capture_stats_read(const capture *c, capture_stats *stats)
{
	*stats = (capture_stats){
		.records = atomic_load_explicit(&c->records_written, memory_order_relaxed),
		.bytes = atomic_load_explicit(&c->bytes, memory_order_relaxed),
		.dropped = atomic_load_explicit(&c->dropped, memory_order_relaxed),
		.after_stop = atomic_load_explicit(&c->after_stop, memory_order_relaxed),
		.stopped = atomic_load(&c->stopped),
	};
	if (stats->stopped) {
		/* Queued when it stopped: never written. */
		stats->after_stop += atomic_load_explicit(&c->tail, memory_order_relaxed) -
				     stats->records;
		/* Written once, before stopped is set. */
		snprintf(stats->error, sizeof stats->error, "%s", c->error);
	}
}

void capture_print_stats(FILE *out, const capture *c)
{
	if (c == NULL) {
		fputs("null", out);
		return;
	}
	capture_stats s;
	capture_stats_read(c, &s);
	fprintf(out,
		"{\"records\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"queue_full\":%" PRIu64
		",\"after_stop\":%" PRIu64 ",\"stopped\":%s,\"error\":",
		s.records, s.bytes, s.dropped, s.after_stop, s.stopped ? "true" : "false");
	if (s.error[0] != '\0')
		print_json_string(out, s.error);
	else
		fputs("null", out);
	fputc('}', out);
}

void capture_finish(capture *c)
{
	if (c->started) {
		pthread_mutex_lock(&c->lock);
		c->finishing = true;
		pthread_cond_signal(&c->wake);
		pthread_mutex_unlock(&c->lock);
		pthread_join(c->thread, NULL);
		c->started = false;
	}
	pass(c, true);
	if (!atomic_load(&c->stopped))
		end_file(c, "");
	if (c->fd >= 0 && close(c->fd) != 0)
		record_error(c, "close", errno);
	c->fd = -1;
}

void capture_free(capture *c)
{
	if (c == NULL)
		return;
	if (c->fd >= 0)
		close(c->fd);
	if (c->synchronised) {
		pthread_mutex_destroy(&c->lock);
		pthread_cond_destroy(&c->wake);
	}
	free(c->records);
	free(c->data);
	free(c->buffer);
	free(c->strings);
	free(c);
}
