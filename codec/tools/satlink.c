/*
 * satlink - a userspace link emulator between two network namespaces.
 *
 * One TUN device in namespace A, one in namespace B; IP packets read from
 * one are written into the other after the link of their direction ("ab"
 * from A to B, "ba" back) has applied, in order:
 *
 *   [AQM] -> drop-tail buffer -> serialisation at the rate -> [frame] -> channel loss -> delay
 *
 * The link itself is link_model.c, free of I/O: on arrival, the reader
 * thread of a direction offers the packet to it and learns its fate and the
 * time it is due at the far end. The writer thread of the direction sleeps
 * until the head packet is due (timerfd, absolute CLOCK_MONOTONIC deadline;
 * due times never decrease, the model sees to it, so only the head matters)
 * and writes every due packet; its lateness (write time - due time) goes
 * into a histogram. A packet due at the same instant as the one before it
 * (one frame; or, when the delay fell, the packets the FIFO held behind the
 * one before) cannot leave before that one is written, so its lateness
 * counts from then: a burst the model asks for is not taken for a host
 * that fell behind, while a writer late for any other reason still is.
 * Reader and writer are separate threads because a write
 * into a TUN runs the receiving namespace's network stack in the writer's
 * time slice, which must not delay the next read. They share a
 * single-producer single-consumer ring of packets. With a capture
 * (link_capture.h), the reader records each packet's arrival and fate, the
 * writer completes the record of a sent packet at its departure, and the
 * capture's own thread writes the file. This file is the rest: threads,
 * TUN I/O, options and statistics.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "histogram.h"
#include "link_capture.h"
#include "link_model.h"
#include "swf.h"
#include "tool.h"
#include "tun.h"

/* Packets a direction holds at once (queued plus propagating): at least
 * 16384 full-size packets, 1 Gbit/s over 200 ms of delay (larger MTUs get
 * fewer slots so that a ring stays within RING_BYTES), more where the
 * buffer and the delay hold more full-size packets, up to RING_MAX_BYTES. A
 * full ring drops arrivals as "overflow". */
#define RING_PACKETS 16384u
#define RING_BYTES (32u << 20)
#define RING_MAX_BYTES (256u << 20)

enum buffer_unit { BUFFER_UNLIMITED, BUFFER_BYTES, BUFFER_PACKETS, BUFFER_BDP };

/* One direction's options: the model's config as far as the options set it
 * directly, and what needs both directions or the MTU (the buffer in BDP)
 * or says which options were given. */
typedef struct link_options {
	link_model_config model; /* trace steps allocated here, freed at exit */
	enum buffer_unit buffer_unit;
	double buffer;              /* in buffer_unit */
	const char *buffer_option; /* the option that set it: one per direction */
	bool aqm_ratio_given, aqm_seed_given, delay_seed_given;
	/* The capture: a file, or NULL for none. */
	const char *capture_path;
	uint32_t capture_snap_bytes;
	uint64_t capture_max_bytes;
	const char *capture_option; /* the last capture option given but the file's */
} link_options;

typedef struct slot {
	uint64_t due_ns;
	uint32_t len;
	capture_record *record; /* NULL: not captured */
} slot;

typedef struct direction {
	const char *name;
	int in_fd, out_fd;
	uint32_t mtu;
	uint64_t ring_packets; /* a power of two */
	link_model_config config; /* as resolved: what the ready line reports */
	link_model *model;        /* the reader's alone */
	capture *capture;         /* NULL: none */
	const char *capture_path;
	uint32_t capture_snap_bytes;
	uint64_t capture_max_bytes;

	/* The ring: the reader fills slots[tail], the writer empties
	 * slots[head]; indices grow forever and wrap by masking. */
	slot *slots;
	uint8_t *data; /* ring_packets * mtu bytes */
	_Alignas(64) _Atomic uint64_t tail;
	_Atomic uint64_t free_at_ns; /* the model's, published for queue_bytes */
	/* drops_buffer counts every drop of the queue, drops_aqm the AQM's part. */
	_Atomic uint64_t packets_in, bytes_in, drops_buffer, drops_aqm, drops_channel,
		drops_overflow;

	_Alignas(64) _Atomic uint64_t head;
	_Atomic bool writer_idle;
	int wake_fd, timer_fd;
	_Atomic uint64_t packets_out, bytes_out, write_errors;
	histogram lateness;

	pthread_t reader, writer;
} direction;

static uint64_t start_ns;
static bool realtime = true;

static const char usage[] =
	"Usage: satlink --a-dev NAME --b-dev NAME [options]\n"
	"\n"
	"Joins network namespaces A and B through a TUN device in each and forwards\n"
	"IP packets both ways through an emulated link per direction: AQM, drop-tail\n"
	"buffer, serialisation at a rate, channel loss, propagation delay.\n"
	"\n"
	"Endpoints:\n"
	"  --a-netns NS, --b-netns NS  namespace of each device: a name under /run/netns\n"
	"                              or a path like /proc/PID/ns/net (default: current)\n"
	"  --a-dev NAME, --b-dev NAME  TUN device to create in each namespace\n"
	"  --a-addr CIDR, --b-addr CIDR  IPv4 address/prefix to give each device\n"
	"                              (default: none; configure it after \"ready\")\n"
	"  --mtu BYTES                 MTU of both devices (default 1500)\n"
	"\n"
	"Link, per direction: --X sets both, --ab-X sets A to B, --ba-X sets B to A:\n"
	"  --rate-mbps R        bottleneck rate in Mbit/s of IP packets (default: unlimited)\n"
	"  --rate-trace FILE    the rate in force over time instead, lines \"t_ms rate_mbps\"\n"
	"                       from t_ms 0 (a packet goes at the rate in force when its\n"
	"                       serialisation starts)\n"
	"  --rate-trace-period-ms P  start the rate trace over every P ms (default: the\n"
	"                       last rate holds)\n"
	"  --delay-ms D         one-way propagation delay (default 0)\n"
	"  --delay-bins W:LOW:HIGH[,W:LOW:HIGH...]  an extra delay on top of D, drawn\n"
	"                       uniformly in [LOW, HIGH] ms from a range picked with\n"
	"                       probability W / (sum of W), anew every --delay-step-ms\n"
	"  --delay-step-ms S    how long each draw holds\n"
	"  --delay-seed N       seed of the draws (default 1)\n"
	"  --delay-trace FILE   ... or the extra delay over time, lines \"t_ms delay_ms\"\n"
	"                       from t_ms 0\n"
	"  --delay-trace-period-ms P  start the delay trace over every P ms\n"
	"                       Packets never overtake one another: a packet is due no\n"
	"                       earlier than the one before it (and its lateness counts\n"
	"                       from that one's write when both are due together).\n"
	"  --buffer-bytes N     drop-tail buffer in bytes not yet serialised\n"
	"  --buffer-packets N   ... or in packets not yet serialised\n"
	"  --buffer-bdp X       ... or in multiples of rate x (ab delay + ba delay)\n"
	"                       (default: unlimited)\n"
	"  --aqm-threshold-bytes N  AQM: an arrival that finds more than N bytes not yet\n"
	"                       serialised is dropped with probability --aqm-drop-ratio\n"
	"  --aqm-drop-ratio P   (both or neither; counted in drops_buffer and drops_aqm)\n"
	"  --aqm-seed N         seed of the AQM's draws (default 1)\n"
	"  --frame-ms F         send frames every F ms (DVB-S2 BBFrames): a packet leaves in\n"
	"                       the first frame after its serialisation, and the channel\n"
	"                       decides per frame, for the frame's F ms on the air\n"
	"                       (default: packet by packet)\n"
	"  --channel SPEC       loss model (default perfect):\n"
	"      perfect\n"
	"      bernoulli:loss=P\n"
	"      ge-packet:p=P,q=Q[,loss_good=0][,loss_bad=1]\n"
	"      ge-time:p=P,q=Q,step_ms=MS\n"
	"      outage:period_ms=MS,duration_ms=MS[,phase_ms=0][,jitter_ms=0]\n"
	"      trace:file=PATH[,trace_period_ms=MS]  (lines \"start_ms end_ms\")\n"
	"    each with [,seed=N] (default 1); time counts from satlink's start.\n"
	"  --loss-rule RULE     how a time-based channel (perfect, ge-time, outage, trace)\n"
	"                       decides: overlap (default), a packet (or frame) is lost if\n"
	"                       its time on the air overlaps lost time; start, it is\n"
	"                       decided when its serialisation starts\n"
	"\n"
	"Capture (pcapng, off by default): every packet that arrived, with its fate\n"
	"(delivered, write-error, buffer-drop, aqm-drop, channel-loss, overflow,\n"
	"in-flight) and times in its comment (tshark -Y 'frame.comment contains\n"
	"\"fate=channel-loss\"'), written by a thread of its own:\n"
	"  --ab-capture FILE, --ba-capture FILE  the file of each direction\n"
	"  --capture-snap-bytes N  bytes kept of each packet, 20..65535 (default 128:\n"
	"                       headers only)\n"
	"  --capture-max-bytes N   the most each file may take; capturing stops there\n"
	"                       and the file says so (default 1073741824)\n"
	"\n"
	"Output:\n"
	"  --stats-interval-ms MS  period of the stats lines (default 100; 0: none)\n"
	"  --no-realtime           do not ask SCHED_FIFO for the forwarding threads (by\n"
	"                          default they get it where the process may)\n"
	"  --help                  this text\n"
	"\n"
	"stdout carries one JSON object per line: {\"event\":\"ready\",...} once both\n"
	"devices are up, {\"event\":\"stats\",...} every interval with cumulative counters\n"
	"and the interval's lateness percentiles per direction, and\n"
	"{\"event\":\"summary\",...} on SIGTERM, SIGINT or SIGHUP, after which it exits 0.\n";

/* ---------------------------------------------------------------------- */
/* The reader: arrival, buffer, serialisation, channel.                   */

static bool ring_full(const direction *d, uint64_t tail)
{
	return tail - atomic_load_explicit(&d->head, memory_order_acquire) == d->ring_packets;
}

/* admit offers a packet of len bytes to the link (story->arrival_ns set),
 * counts its fate and completes its story. */
static void admit(direction *d, uint32_t len, packet_story *story)
{
	story->fate = link_model_offer(d->model, story->arrival_ns, len, &story->due_ns);
	atomic_store_explicit(&d->free_at_ns, link_model_free_at_ns(d->model),
			      memory_order_relaxed);
	switch (story->fate) {
	case LINK_SENT:
		break;
	case LINK_DROP_AQM:
		atomic_fetch_add_explicit(&d->drops_aqm, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&d->drops_buffer, 1, memory_order_relaxed);
		return;
	case LINK_DROP_BUFFER:
		atomic_fetch_add_explicit(&d->drops_buffer, 1, memory_order_relaxed);
		return;
	case LINK_DROP_OVERFLOW:
		atomic_fetch_add_explicit(&d->drops_overflow, 1, memory_order_relaxed);
		return;
	case LINK_DROP_CHANNEL:
		atomic_fetch_add_explicit(&d->drops_channel, 1, memory_order_relaxed);
		break;
	}
	link_model_last_serialisation(d->model, &story->tx_start_ns, &story->tx_end_ns);
}

/* record_arrival captures a packet's arrival, if the direction captures;
 * the record to complete at its departure, or NULL. */
static capture_record *record_arrival(direction *d, const packet_story *story,
				      const uint8_t *packet, uint32_t len)
{
	return d->capture != NULL ? link_capture_arrival(d->capture, story, packet, len, start_ns)
				  : NULL;
}

static void wake_writer(direction *d)
{
	uint64_t one = 1;
	if (write(d->wake_fd, &one, sizeof one) < 0 && errno != EAGAIN)
		fail_errno("wake the %s writer", d->name);
}

static void *reader_main(void *arg)
{
	direction *d = arg;
	uint8_t *scratch = malloc(d->mtu);
	if (scratch == NULL)
		fail("out of memory for the %s reader", d->name);
	uint64_t tail = atomic_load(&d->tail);
	uint64_t seq = 0; /* arrivals so far */
	while (!stop_requested()) {
		bool full = ring_full(d, tail);
		uint8_t *buf = full ? scratch : d->data + (tail & (d->ring_packets - 1)) * (size_t)d->mtu;
		ssize_t n = read(d->in_fd, buf, d->mtu);
		if (n < 0) {
			if (errno == EAGAIN) {
				struct pollfd fds[2] = {{d->in_fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
				if (poll(fds, 2, -1) < 0 && errno != EINTR)
					fail_errno("poll the %s input", d->name);
				continue;
			}
			if (errno == EINTR)
				continue;
			fail_errno("read from the %s input", d->name);
		}
		packet_story story = {.seq = seq++, .arrival_ns = now_ns() - start_ns};
		atomic_fetch_add_explicit(&d->packets_in, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&d->bytes_in, (uint64_t)n, memory_order_relaxed);
		if (full) {
			atomic_fetch_add_explicit(&d->drops_overflow, 1, memory_order_relaxed);
			story.fate = LINK_DROP_OVERFLOW;
			record_arrival(d, &story, buf, (uint32_t)n);
			continue;
		}
		admit(d, (uint32_t)n, &story);
		capture_record *record = record_arrival(d, &story, buf, (uint32_t)n);
		if (story.fate != LINK_SENT)
			continue;
		d->slots[tail & (d->ring_packets - 1)] =
			(slot){start_ns + story.due_ns, (uint32_t)n, record};
		atomic_store_explicit(&d->tail, ++tail, memory_order_seq_cst);
		/* Pairs with the writer's store of writer_idle then load of tail:
		 * one of the two sides sees the other. */
		if (atomic_load_explicit(&d->writer_idle, memory_order_seq_cst))
			wake_writer(d);
	}
	free(scratch);
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* The writer: departures at their due time.                              */

static void wait_readable(direction *d, int fd)
{
	struct pollfd fds[2] = {{fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
	if (poll(fds, 2, -1) < 0 && errno != EINTR)
		fail_errno("poll in the %s writer", d->name);
	uint64_t ignored;
	if (fds[0].revents & POLLIN && read(fd, &ignored, sizeof ignored) < 0 && errno != EAGAIN)
		fail_errno("read a timer or wake-up in the %s writer", d->name);
}

static void sleep_until(direction *d, uint64_t due_ns)
{
	struct itimerspec when = {.it_value = {(time_t)(due_ns / 1000000000u),
					       (long)(due_ns % 1000000000u)}};
	if (timerfd_settime(d->timer_fd, TFD_TIMER_ABSTIME, &when, NULL) != 0)
		fail_errno("arm the %s timer", d->name);
	wait_readable(d, d->timer_fd);
}

static void *writer_main(void *arg)
{
	direction *d = arg;
	/* The default 50 us timer slack would be lateness by design. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	uint64_t head = atomic_load(&d->head);
	uint64_t previous_due = UINT64_MAX, previous_written = 0; /* the packet before: its due time, its write's end */
	while (!stop_requested()) {
		if (head == atomic_load_explicit(&d->tail, memory_order_acquire)) {
			atomic_store_explicit(&d->writer_idle, true, memory_order_seq_cst);
			if (head == atomic_load_explicit(&d->tail, memory_order_seq_cst))
				wait_readable(d, d->wake_fd);
			atomic_store_explicit(&d->writer_idle, false, memory_order_relaxed);
			continue;
		}
		const slot *s = &d->slots[head & (d->ring_packets - 1)];
		uint64_t now = now_ns();
		if (s->due_ns > now) {
			sleep_until(d, s->due_ns);
			continue;
		}
		const uint8_t *packet = d->data + (head & (d->ring_packets - 1)) * (size_t)d->mtu;
		bool written = write(d->out_fd, packet, s->len) == (ssize_t)s->len;
		if (written) {
			atomic_fetch_add_explicit(&d->packets_out, 1, memory_order_relaxed);
			atomic_fetch_add_explicit(&d->bytes_out, s->len, memory_order_relaxed);
		} else {
			atomic_fetch_add_explicit(&d->write_errors, 1, memory_order_relaxed);
		}
		if (s->record != NULL)
			link_capture_departure(s->record, now - start_ns, written);
		/* Due with the packet before it: leaves once that one is written. */
		uint64_t leaves = s->due_ns == previous_due && previous_written > s->due_ns ? previous_written : s->due_ns;
		histogram_add(&d->lateness, now > leaves ? now - leaves : 0);
		previous_due = s->due_ns;
		previous_written = now_ns();
		atomic_store_explicit(&d->head, ++head, memory_order_release);
	}
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* Set-up, stats and the command line.                                    */

/* step_trace_max is the largest value of a trace. */
static double step_trace_max(const link_step_trace *trace)
{
	double max = 0;
	for (size_t i = 0; i < trace->count; i++)
		max = fmax(max, trace->steps[i].value);
	return max;
}

/* ring_size is the slot count of a direction's ring: the default, or more
 * where its buffer and what its longest delay holds at its fastest rate
 * need more full-size packets, within RING_MAX_BYTES. */
static uint64_t ring_size(const link_model_config *config, uint32_t mtu)
{
	uint64_t slots = RING_PACKETS;
	while (slots * mtu > RING_BYTES)
		slots /= 2;
	double buffer_bytes = config->buffer_bytes != LINK_UNLIMITED ? (double)config->buffer_bytes
			      : config->buffer_packets != LINK_UNLIMITED
				      ? (double)config->buffer_packets * mtu
				      : 0;
	if (buffer_bytes == 0)
		return slots; /* no limit to size it by */
	double rate_mbps = fmax(config->rate_mbps, step_trace_max(&config->rate_trace));
	double delay_ms = config->delay_ms + step_trace_max(&config->delay_trace);
	for (size_t i = 0; i < config->delay_bin_count; i++)
		delay_ms = fmax(delay_ms, config->delay_ms + config->delay_bins[i].high_ms);
	double bytes = buffer_bytes + rate_mbps * 125 * delay_ms; /* 1 Mbit/s x 1 ms = 125 bytes */
	while ((double)slots * mtu < bytes && 2 * slots * mtu <= RING_MAX_BYTES)
		slots *= 2;
	return slots;
}

/* resolve_buffer sets the model's buffer from the options: the BDP needs
 * both directions' delays and the MTU. */
static void resolve_buffer(link_model_config *model, const link_options *options,
			   const link_options *reverse, const char *name, uint32_t mtu)
{
	double rtt_s = (options->model.delay_ms + reverse->model.delay_ms) / 1e3;
	switch (options->buffer_unit) {
	case BUFFER_UNLIMITED:
		break;
	case BUFFER_BYTES:
		model->buffer_bytes = (uint64_t)options->buffer;
		break;
	case BUFFER_PACKETS:
		model->buffer_packets = (uint64_t)options->buffer;
		break;
	case BUFFER_BDP:
		model->buffer_bytes = (uint64_t)llround(options->buffer * options->model.rate_mbps *
							1e6 / 8 * rtt_s);
		if (model->buffer_bytes < mtu)
			usage_fail("--%s-buffer-bdp %g is %" PRIu64 " bytes, less than one packet of "
				   "--mtu %" PRIu32 " (the BDP uses ab + ba delay): use "
				   "--%s-buffer-bytes or --%s-buffer-packets",
				   name, options->buffer, model->buffer_bytes, mtu, name, name);
		break;
	}
}

/* direction_init sets a direction up but for its devices (in_fd, out_fd). */
static void direction_init(direction *d, const char *name, const link_options *options,
			   const link_options *reverse, uint32_t mtu)
{
	memset(d, 0, sizeof *d);
	d->name = name;
	d->mtu = mtu;
	d->capture_path = options->capture_path;
	d->capture_snap_bytes = options->capture_snap_bytes;
	d->capture_max_bytes = options->capture_max_bytes;
	d->config = options->model;
	resolve_buffer(&d->config, options, reverse, name, mtu);
	d->ring_packets = ring_size(&d->config, mtu);
	d->config.queue_capacity = d->ring_packets;
	const char *invalid = link_model_config_check(&d->config);
	if (invalid)
		fail("the %s link's %s is out of range (see --help)", name, invalid);
	if (link_model_new(&d->config, &d->model) != SWF_OK)
		fail("out of memory for the %s link", name);
	d->slots = calloc(d->ring_packets, sizeof *d->slots);
	d->data = malloc(d->ring_packets * mtu);
	if (d->slots == NULL || d->data == NULL)
		fail("out of memory for the %s ring of %" PRIu64 " packets", name,
		     d->ring_packets);
	d->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	d->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (d->wake_fd < 0 || d->timer_fd < 0)
		fail_errno("create the %s eventfd and timerfd", name);
}

/* open_capture opens the direction's capture file, if it has one. */
static void open_capture(direction *d)
{
	if (d->capture_path == NULL)
		return;
	d->capture = link_capture_open(d->name, d->capture_path, d->capture_snap_bytes,
				       d->capture_max_bytes, start_ns, d->ring_packets);
	if (d->capture == NULL)
		fail_errno("--%s-capture: open %s", d->name, d->capture_path);
	if (!capture_start(d->capture))
		fail("start the %s capture thread", d->name);
}

static void direction_free(direction *d)
{
	capture_free(d->capture);
	link_model_free(d->model);
	free(d->slots);
	free(d->data);
	close(d->wake_fd);
	close(d->timer_fd);
}

static void print_limit(const char *key, uint64_t value)
{
	if (value == LINK_UNLIMITED)
		printf(",\"%s\":null", key);
	else
		printf(",\"%s\":%" PRIu64, key, value);
}

static void print_link(const direction *d)
{
	const link_model_config *c = &d->config;
	printf("{\"rate_mbps\":%g,\"delay_ms\":%g,\"frame_ms\":%g,\"ring_packets\":%" PRIu64,
	       c->rate_mbps, c->delay_ms, c->frame_ms, d->ring_packets);
	print_limit("buffer_bytes", c->buffer_bytes);
	print_limit("buffer_packets", c->buffer_packets);
	printf(",\"channel\":\"%s\",\"seed\":%" PRIu32 ",\"loss_rule\":\"%s\"",
	       channel_kind_name(c->channel.kind), c->channel.seed,
	       c->loss_rule == SWF_LOSS_OVERLAP ? "overlap" : "start");
	if (c->aqm_threshold_bytes == LINK_UNLIMITED)
		printf(",\"aqm\":null");
	else
		printf(",\"aqm\":{\"threshold_bytes\":%" PRIu64 ",\"drop_ratio\":%g,\"seed\":%" PRIu32 "}",
		       c->aqm_threshold_bytes, c->aqm_drop_ratio, c->aqm_seed);
	if (c->delay_bin_count > 0)
		printf(",\"delay_variation\":{\"model\":\"distribution\",\"bins\":%zu,\"step_ms\":%g,"
		       "\"seed\":%" PRIu32 "}",
		       c->delay_bin_count, c->delay_step_ms, c->delay_seed);
	else if (c->delay_trace.steps != NULL)
		printf(",\"delay_variation\":{\"model\":\"trace\",\"steps\":%zu,\"period_ms\":%g}",
		       c->delay_trace.count, c->delay_trace.period_ms);
	else
		printf(",\"delay_variation\":null");
	if (c->rate_trace.steps != NULL)
		printf(",\"rate_trace\":{\"steps\":%zu,\"period_ms\":%g}", c->rate_trace.count,
		       c->rate_trace.period_ms);
	else
		printf(",\"rate_trace\":null");
	if (d->capture != NULL) {
		printf(",\"capture\":{\"file\":");
		print_json_string(stdout, d->capture_path);
		printf(",\"snap_bytes\":%" PRIu32 ",\"max_bytes\":%" PRIu64 "}}",
		       d->capture_snap_bytes, d->capture_max_bytes);
	} else {
		printf(",\"capture\":null}");
	}
}

static void print_direction(direction *d, uint64_t now, const histogram_snapshot *newer,
			    const histogram_snapshot *older)
{
	uint64_t free_at = atomic_load_explicit(&d->free_at_ns, memory_order_relaxed);
	/* Exact at a constant rate; with a rate trace, at the rate in force now. */
	uint64_t queue_bytes = link_model_queue_bytes(d->model, free_at, now - start_ns);
#define COUNTER(field) (uint64_t) atomic_load_explicit(&d->field, memory_order_relaxed)
	uint64_t packets_out = COUNTER(packets_out);
	uint64_t head = atomic_load(&d->head), tail = atomic_load(&d->tail);
	printf("\"%s\":{\"packets_in\":%" PRIu64 ",\"bytes_in\":%" PRIu64
	       ",\"packets_out\":%" PRIu64 ",\"bytes_out\":%" PRIu64 ",\"queue_bytes\":%" PRIu64
	       ",\"in_flight_packets\":%" PRIu64 ",\"drops_buffer\":%" PRIu64
	       ",\"drops_aqm\":%" PRIu64 ",\"drops_channel\":%" PRIu64 ",\"drops_overflow\":%" PRIu64
	       ",\"write_errors\":%" PRIu64 ",\"lateness_ms\":",
	       d->name, COUNTER(packets_in), COUNTER(bytes_in), packets_out, COUNTER(bytes_out),
	       queue_bytes, tail - head, COUNTER(drops_buffer), COUNTER(drops_aqm), COUNTER(drops_channel),
	       COUNTER(drops_overflow), COUNTER(write_errors));
#undef COUNTER
	histogram_print(stdout, newer, older);
	printf(",\"capture\":");
	capture_print_stats(stdout, d->capture);
	putchar('}');
}

static void print_stats(const char *event, direction dirs[2], histogram_snapshot *snaps[2][2],
			bool whole_run)
{
	uint64_t now = now_ns();
	printf("{\"event\":\"%s\",\"t_s\":%.3f", event, (now - start_ns) / 1e9);
	for (int i = 0; i < 2; i++) {
		histogram_snapshot *newer = snaps[i][0], *older = snaps[i][1];
		histogram_snapshot_take(&dirs[i].lateness, newer);
		putchar(',');
		print_direction(&dirs[i], now, newer, whole_run ? NULL : older);
		snaps[i][0] = older;
		snaps[i][1] = newer;
	}
	printf("}\n");
	fflush(stdout);
}

/* A per-direction option: --X, --ab-X or --ba-X. Returns the mask of the
 * directions it sets (bit 0: ab, bit 1: ba) and the base name X, or 0. */
static int direction_option(const char *option, const char **base)
{
	if (strncmp(option, "--ab-", 5) == 0) {
		*base = option + 5;
		return 1;
	}
	if (strncmp(option, "--ba-", 5) == 0) {
		*base = option + 5;
		return 2;
	}
	*base = option + 2;
	return 3;
}

/* set_buffer records a direction's buffer; two units for one direction
 * (--buffer-bytes and --ab-buffer-packets) are refused, not overridden. */
static void set_buffer(link_options *o, const char *direction_name, const char *option,
		       enum buffer_unit unit, double size)
{
	if (o->buffer_unit != BUFFER_UNLIMITED && o->buffer_unit != unit)
		usage_fail("%s and %s both set the %s buffer: give it in bytes, packets or BDP, "
			   "not two of them", o->buffer_option, option, direction_name);
	o->buffer_unit = unit;
	o->buffer = size;
	o->buffer_option = option;
}

/* read_step_trace loads a step trace of "t_ms <value_name>" lines: from
 * t_ms 0 forward in time, each value at least min (above it unless
 * min_inclusive) and at most max. */
static void read_step_trace(link_step_trace *trace, const char *option, const char *path,
			    const char *value_name, double min, bool min_inclusive, double max)
{
	char form[64];
	snprintf(form, sizeof form, "t_ms %s", value_name);
	size_t count;
	number_pair *pairs = read_pairs(option, path, form, &count);
	if (count == 0)
		usage_fail("%s: %s has no \"%s\" line", option, path, form);
	link_trace_step *steps = malloc(count * sizeof *steps);
	if (steps == NULL)
		fail("out of memory for %s", path);
	for (size_t i = 0; i < count; i++) {
		double t_ms = pairs[i].first, value = pairs[i].second;
		if (i == 0 ? t_ms != 0 : !(t_ms > steps[i - 1].t_ms && t_ms <= 1e12))
			usage_fail("%s: %s must start at t_ms 0 and go forward in time (at most 1e12), "
				   "but step %zu has t_ms %g", option, path, i + 1, t_ms);
		if (!((min_inclusive ? value >= min : value > min) && value <= max))
			usage_fail("%s: %s step %zu: %s must be %s %g and <= %g, got %g", option, path,
				   i + 1, value_name, min_inclusive ? ">=" : ">", min, max, value);
		steps[i] = (link_trace_step){t_ms, value};
	}
	free(pairs);
	free((void *)trace->steps);
	trace->steps = steps;
	trace->count = count;
}

/* parse_delay_bins reads "weight:low_ms:high_ms" ranges separated by commas. */
static void parse_delay_bins(link_model_config *c, const char *option, const char *spec)
{
	c->delay_bin_count = 0;
	for (const char *p = spec;; p++) {
		link_delay_bin bin;
		int used = 0;
		if (sscanf(p, "%lf:%lf:%lf%n", &bin.weight, &bin.low_ms, &bin.high_ms, &used) != 3 ||
		    (p[used] != ',' && p[used] != '\0'))
			usage_fail("%s must be weight:low_ms:high_ms ranges separated by commas "
				   "(e.g. 99:0:65,1:65:940), got \"%s\"", option, spec);
		if (!(bin.weight > 0 && isfinite(bin.weight) && bin.low_ms >= 0 &&
		      bin.high_ms >= bin.low_ms && bin.high_ms <= 1e5))
			usage_fail("%s: in %.*s the weight must be > 0 and 0 <= low_ms <= high_ms <= "
				   "100000", option, used, p);
		if (c->delay_bin_count == LINK_MAX_DELAY_BINS)
			usage_fail("%s takes at most %d ranges", option, LINK_MAX_DELAY_BINS);
		c->delay_bins[c->delay_bin_count++] = bin;
		p += used;
		if (*p == '\0')
			break;
	}
}

static swf_loss_rule parse_loss_rule(const char *option, const char *value)
{
	if (strcmp(value, "overlap") == 0)
		return SWF_LOSS_OVERLAP;
	if (strcmp(value, "start") == 0)
		return SWF_LOSS_AT_START;
	usage_fail("%s must be overlap or start, got \"%s\"", option, value);
}

static void set_link_option(link_options *o, const char *direction_name, const char *option,
			    const char *base, const char *value)
{
	link_model_config *c = &o->model;
	if (strcmp(base, "rate-mbps") == 0) {
		c->rate_mbps = parse_double(option, value, 0, false, 1e6);
	} else if (strcmp(base, "rate-trace") == 0) {
		read_step_trace(&c->rate_trace, option, value, "rate_mbps", 0, false, 1e6);
	} else if (strcmp(base, "rate-trace-period-ms") == 0) {
		c->rate_trace.period_ms = parse_double(option, value, 0, false, 1e12);
	} else if (strcmp(base, "delay-ms") == 0) {
		c->delay_ms = parse_double(option, value, 0, true, 1e5);
	} else if (strcmp(base, "delay-bins") == 0) {
		parse_delay_bins(c, option, value);
	} else if (strcmp(base, "delay-step-ms") == 0) {
		c->delay_step_ms = parse_double(option, value, 0.001, true, 1e9);
	} else if (strcmp(base, "delay-seed") == 0) {
		c->delay_seed = (uint32_t)parse_uint(option, value, 0, UINT32_MAX);
		o->delay_seed_given = true;
	} else if (strcmp(base, "delay-trace") == 0) {
		read_step_trace(&c->delay_trace, option, value, "delay_ms", 0, true, 1e5);
	} else if (strcmp(base, "delay-trace-period-ms") == 0) {
		c->delay_trace.period_ms = parse_double(option, value, 0, false, 1e12);
	} else if (strcmp(base, "aqm-threshold-bytes") == 0) {
		c->aqm_threshold_bytes = parse_uint(option, value, 0, UINT32_MAX);
	} else if (strcmp(base, "aqm-drop-ratio") == 0) {
		c->aqm_drop_ratio = parse_double(option, value, 0, true, 1);
		o->aqm_ratio_given = true;
	} else if (strcmp(base, "aqm-seed") == 0) {
		c->aqm_seed = (uint32_t)parse_uint(option, value, 0, UINT32_MAX);
		o->aqm_seed_given = true;
	} else if (strcmp(base, "frame-ms") == 0) {
		c->frame_ms = parse_double(option, value, 0.001, true, 1e4);
	} else if (strcmp(base, "buffer-bytes") == 0) {
		set_buffer(o, direction_name, option, BUFFER_BYTES,
			   (double)parse_uint(option, value, 1, UINT32_MAX));
	} else if (strcmp(base, "buffer-packets") == 0) {
		set_buffer(o, direction_name, option, BUFFER_PACKETS,
			   (double)parse_uint(option, value, 1, RING_PACKETS));
	} else if (strcmp(base, "buffer-bdp") == 0) {
		set_buffer(o, direction_name, option, BUFFER_BDP,
			   parse_double(option, value, 0, false, 1e3));
	} else if (strcmp(base, "channel") == 0) {
		free((void *)c->channel.intervals);
		parse_channel(option, value, &c->channel);
	} else if (strcmp(base, "loss-rule") == 0) {
		c->loss_rule = parse_loss_rule(option, value);
	} else if (strcmp(base, "capture") == 0) {
		if (strcmp(option, "--capture") == 0)
			usage_fail("--capture would write both directions into one file: give "
				   "--ab-capture FILE and/or --ba-capture FILE");
		o->capture_path = value;
	} else if (strcmp(base, "capture-snap-bytes") == 0) {
		o->capture_snap_bytes = (uint32_t)parse_uint(option, value, 20, 65535);
		o->capture_option = option;
	} else if (strcmp(base, "capture-max-bytes") == 0) {
		o->capture_max_bytes = parse_uint(option, value, 4096, UINT64_C(1) << 50);
		o->capture_option = option;
	} else {
		usage_fail("unknown option %s (see --help)", option);
	}
}

/* needs refuses option (of direction dir) without the option it needs. */
static void needs(bool given, const char *dir, const char *option, bool present,
		  const char *needed)
{
	if (given && !present)
		usage_fail("--%s-%s needs --%s-%s", dir, option, dir, needed);
}

static void check_trace_period(const link_step_trace *trace, const char *dir, const char *name)
{
	char period[32], file[32];
	snprintf(period, sizeof period, "%s-trace-period-ms", name);
	snprintf(file, sizeof file, "%s-trace", name);
	needs(trace->period_ms > 0, dir, period, trace->steps != NULL, file);
	if (trace->steps != NULL && trace->period_ms > 0 &&
	    trace->period_ms <= trace->steps[trace->count - 1].t_ms)
		usage_fail("--%s-%s %g must be longer than the last t_ms of the trace, %g", dir, period,
			   trace->period_ms, trace->steps[trace->count - 1].t_ms);
}

/* check_link refuses what one direction's options cannot mean together. */
static void check_link(const link_options *o, const char *dir)
{
	const link_model_config *c = &o->model;
	bool rate = c->rate_mbps > 0 || c->rate_trace.steps != NULL;
	if (o->buffer_unit == BUFFER_BDP && c->rate_mbps == 0)
		usage_fail("--%s-buffer-bdp needs a rate (--rate-mbps or --%s-rate-mbps)", dir, dir);
	bool aqm = c->aqm_threshold_bytes != LINK_UNLIMITED;
	needs(aqm, dir, "aqm-threshold-bytes", o->aqm_ratio_given, "aqm-drop-ratio");
	needs(o->aqm_ratio_given, dir, "aqm-drop-ratio", aqm, "aqm-threshold-bytes");
	needs(o->aqm_seed_given, dir, "aqm-seed", aqm, "aqm-threshold-bytes");
	if (aqm && !rate)
		usage_fail("--%s-aqm-threshold-bytes needs a rate (--rate-mbps or --rate-trace): "
			   "nothing queues without one", dir);
	bool bins = c->delay_bin_count > 0;
	if (bins && c->delay_trace.steps != NULL)
		usage_fail("--%s-delay-bins and --%s-delay-trace both vary the delay: give one", dir,
			   dir);
	needs(bins, dir, "delay-bins", c->delay_step_ms > 0, "delay-step-ms");
	needs(c->delay_step_ms > 0, dir, "delay-step-ms", bins, "delay-bins");
	needs(o->delay_seed_given, dir, "delay-seed", bins, "delay-bins");
	check_trace_period(&c->delay_trace, dir, "delay");
	check_trace_period(&c->rate_trace, dir, "rate");
}

/* check_captures refuses capture options that capture nothing, and one
 * file for both directions. */
static void check_captures(const link_options links[2])
{
	for (int k = 0; k < 2; k++) {
		const char *option = links[k].capture_option;
		if (option == NULL || links[k].capture_path != NULL)
			continue;
		bool both = strncmp(option, "--ab-", 5) != 0 && strncmp(option, "--ba-", 5) != 0;
		if (!both || links[1 - k].capture_path == NULL)
			usage_fail("%s needs %s", option,
				   both ? "--ab-capture or --ba-capture"
					: k == 0 ? "--ab-capture" : "--ba-capture");
	}
	if (links[0].capture_path != NULL && links[1].capture_path != NULL &&
	    strcmp(links[0].capture_path, links[1].capture_path) == 0)
		usage_fail("--ab-capture and --ba-capture name the same file, %s: give each direction "
			   "its own", links[0].capture_path);
}

int main(int argc, char **argv)
{
	tool_name = "satlink";
	const char *netns[2] = {NULL, NULL}, *dev[2] = {NULL, NULL}, *addr[2] = {NULL, NULL};
	uint32_t mtu = 1500, stats_interval_ms = 100;
	link_options links[2];
	for (int k = 0; k < 2; k++)
		links[k] = (link_options){.model = {.channel = {.kind = SWF_CHANNEL_PERFECT, .seed = 1},
						    .loss_rule = SWF_LOSS_OVERLAP,
						    .buffer_bytes = LINK_UNLIMITED,
						    .buffer_packets = LINK_UNLIMITED,
						    .aqm_threshold_bytes = LINK_UNLIMITED,
						    .aqm_seed = 1,
						    .delay_seed = 1},
					  .capture_snap_bytes = LINK_CAPTURE_SNAP_BYTES,
					  .capture_max_bytes = LINK_CAPTURE_MAX_BYTES};

	static const char *const flags[] = {"--no-realtime", NULL};
	for (int i = 1; i < argc; i++) {
		const char *value;
		const char *option = next_option(argc, argv, &i, usage, flags, &value);
		if (strcmp(option, "--no-realtime") == 0) {
			realtime = false;
			continue;
		}
		int side = option[2] == 'a' ? 0 : 1;
		if (strcmp(option, "--a-netns") == 0 || strcmp(option, "--b-netns") == 0) {
			netns[side] = value;
		} else if (strcmp(option, "--a-dev") == 0 || strcmp(option, "--b-dev") == 0) {
			tun_check_name(option, value);
			dev[side] = value;
		} else if (strcmp(option, "--a-addr") == 0 || strcmp(option, "--b-addr") == 0) {
			tun_check_cidr(option, value);
			addr[side] = value;
		} else if (strcmp(option, "--mtu") == 0) {
			mtu = (uint32_t)parse_uint(option, value, 576, 65535);
		} else if (strcmp(option, "--stats-interval-ms") == 0) {
			stats_interval_ms = (uint32_t)parse_uint(option, value, 0, 3600000);
		} else {
			const char *base;
			int mask = direction_option(option, &base);
			for (int k = 0; k < 2; k++)
				if (mask & (1 << k))
					set_link_option(&links[k], k == 0 ? "ab" : "ba", option, base,
							value);
		}
	}
	if (dev[0] == NULL || dev[1] == NULL)
		usage_fail("--a-dev and --b-dev are required (see --help)");
	for (int k = 0; k < 2; k++)
		check_link(&links[k], k == 0 ? "ab" : "ba");
	check_captures(links);

	static direction dirs[2];
	direction_init(&dirs[0], "ab", &links[0], &links[1], mtu);
	direction_init(&dirs[1], "ba", &links[1], &links[0], mtu);
	for (int k = 0; k < 2; k++) /* the models keep their own copies */
		free((void *)links[k].model.channel.intervals);

	stop_init();
	int fds[2];
	for (int side = 0; side < 2; side++) {
		int previous = netns_enter(netns[side]);
		fds[side] = tun_create(dev[side], mtu, addr[side], 1, NULL);
		netns_leave(previous);
	}
	dirs[0].in_fd = dirs[1].out_fd = fds[0];
	dirs[1].in_fd = dirs[0].out_fd = fds[1];

	start_ns = now_ns();
	for (int k = 0; k < 2; k++)
		open_capture(&dirs[k]);
	bool all_realtime = true;
	for (int k = 0; k < 2; k++) {
		char writer[48], reader[48];
		snprintf(writer, sizeof writer, "%s writer", dirs[k].name);
		snprintf(reader, sizeof reader, "%s reader", dirs[k].name);
		all_realtime &= start_thread(&dirs[k].writer, writer_main, &dirs[k], realtime, writer);
		all_realtime &= start_thread(&dirs[k].reader, reader_main, &dirs[k], realtime, reader);
	}
	printf("{\"event\":\"ready\",\"pid\":%d,\"start_ns\":%" PRIu64 ",\"mtu\":%" PRIu32
	       ",\"realtime\":%s,\"ab\":",
	       (int)getpid(), start_ns, mtu, all_realtime ? "true" : "false");
	print_link(&dirs[0]);
	printf(",\"ba\":");
	print_link(&dirs[1]);
	printf("}\n");
	fflush(stdout);

	histogram_snapshot *snaps[2][2];
	for (int k = 0; k < 2; k++)
		for (int j = 0; j < 2; j++)
			if ((snaps[k][j] = calloc(1, sizeof(histogram_snapshot))) == NULL)
				fail("out of memory for statistics");
	uint64_t interval_ns = (uint64_t)stats_interval_ms * 1000000u;
	for (uint64_t tick = 1;; tick++) {
		if (wait_signal_until(interval_ns ? start_ns + tick * interval_ns : 0))
			break;
		print_stats("stats", dirs, snaps, false);
	}
	stop_request();
	for (int k = 0; k < 2; k++) {
		pthread_join(dirs[k].reader, NULL);
		pthread_join(dirs[k].writer, NULL);
		if (dirs[k].capture != NULL)
			capture_finish(dirs[k].capture);
	}
	print_stats("summary", dirs, snaps, true);
	for (int k = 0; k < 2; k++) {
		direction_free(&dirs[k]);
		free((void *)links[k].model.rate_trace.steps);
		free((void *)links[k].model.delay_trace.steps);
		free(snaps[k][0]);
		free(snaps[k][1]);
		close(fds[k]);
	}
	return 0;
}
