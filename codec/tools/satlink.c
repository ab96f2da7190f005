/*
 * satlink - a userspace link emulator between two network namespaces.
 *
 * One TUN device in namespace A, one in namespace B; IP packets read from
 * one are written into the other after the link of their direction ("ab"
 * from A to B, "ba" back) has applied, in order:
 *
 *   drop-tail buffer -> serialisation at the rate -> [frame] -> channel loss -> delay
 *
 * With a frame period (--frame-ms), the link sends frames, as a DVB-S2
 * forward link sends BBFrames on a fixed schedule: a packet whose
 * serialisation ends in (t_n - frame, t_n] leaves in the frame that starts
 * at t_n = n x frame from satlink's start, and the channel decides once per
 * frame, at its start: a lost frame loses every packet in it.
 *
 * The link is computed, not slept: on arrival, the reader thread of a
 * direction decides whether the buffer takes the packet, when its
 * serialisation starts and ends (from the link's own clock, link_free_ns, so
 * late wake-ups never accumulate), whether the channel loses it (decided at
 * the start of its serialisation; a lost packet still occupies the link),
 * and the time it is due at the far end. The writer thread of the direction
 * sleeps until the head packet is due (timerfd, absolute CLOCK_MONOTONIC
 * deadline; due times never decrease, one FIFO link and one delay per
 * direction, so only the head matters) and writes every due packet; its lateness (write time - due
 * time) goes into a histogram. Reader and writer are separate threads
 * because a write into a TUN runs the receiving namespace's network stack in
 * the writer's time slice, which must not delay the next read. They share a
 * single-producer single-consumer ring of packets.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
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
#include "swf.h"
#include "tool.h"
#include "tun.h"

/* Packets a direction holds at once (queued plus propagating): 16384
 * full-size packets is 1 Gbit/s over 200 ms of delay; larger MTUs get fewer
 * slots so that a ring stays within RING_BYTES. A full ring drops arrivals
 * as "overflow". */
#define RING_PACKETS 16384u
#define RING_BYTES (32u << 20)

enum buffer_unit { BUFFER_UNLIMITED, BUFFER_BYTES, BUFFER_PACKETS, BUFFER_BDP };

typedef struct link_config {
	double rate_mbps; /* 0: unlimited */
	double delay_ms;
	double frame_ms; /* 0: packet by packet */
	enum buffer_unit buffer_unit;
	double buffer;              /* in buffer_unit */
	const char *buffer_option; /* the option that set it: one per direction */
	swf_channel_config channel;
} link_config;

typedef struct slot {
	uint64_t due_ns;
	uint32_t len;
} slot;

typedef struct direction {
	const char *name;
	int in_fd, out_fd;
	uint32_t mtu;
	uint64_t ring_packets; /* a power of two */
	swf_channel *channel;
	double ns_per_byte; /* 0: unlimited rate */
	uint64_t delay_ns;
	uint64_t frame_ns; /* 0: no frames */
	uint64_t buffer_bytes, buffer_packets; /* UINT64_MAX: no limit */

	/* The ring: the reader fills slots[tail], the writer empties
	 * slots[head]; indices grow forever and wrap by masking. */
	slot *slots;
	uint8_t *data; /* ring_packets * mtu bytes */
	_Alignas(64) _Atomic uint64_t tail;
	_Atomic uint64_t link_free_ns; /* published for queue_bytes */
	/* Reader-only state: the link's clock and the serialisation end times of
	 * the packets still queued (lost ones included). */
	uint64_t reader_link_free_ns;
	/* The frame of the last packet and the channel's decision for it. */
	uint64_t frame_index;
	bool frame_lost;
	uint64_t *queued_ends;
	uint64_t queued_head, queued_tail;
	_Atomic uint64_t packets_in, bytes_in, drops_buffer, drops_channel, drops_overflow;

	_Alignas(64) _Atomic uint64_t head;
	_Atomic bool writer_idle;
	int wake_fd, timer_fd;
	_Atomic uint64_t packets_out, bytes_out, write_errors;
	histogram lateness;

	pthread_t reader, writer;
} direction;

static uint64_t start_ns;
static bool realtime = true;

/* Low among real-time priorities: above every normal thread, below the
 * kernel's own real-time threads. */
#define REALTIME_PRIORITY 10

static const char usage[] =
	"Usage: satlink --a-dev NAME --b-dev NAME [options]\n"
	"\n"
	"Joins network namespaces A and B through a TUN device in each and forwards\n"
	"IP packets both ways through an emulated link per direction: drop-tail buffer,\n"
	"serialisation at a rate, channel loss, propagation delay.\n"
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
	"  --delay-ms D         one-way propagation delay (default 0)\n"
	"  --buffer-bytes N     drop-tail buffer in bytes not yet serialised\n"
	"  --buffer-packets N   ... or in packets not yet serialised\n"
	"  --buffer-bdp X       ... or in multiples of rate x (ab delay + ba delay)\n"
	"                       (default: unlimited)\n"
	"  --frame-ms F         send frames every F ms (DVB-S2 BBFrames): a packet leaves in\n"
	"                       the first frame after its serialisation, and the channel\n"
	"                       decides per frame, at its start (default: packet by packet)\n"
	"  --channel SPEC       loss model, decided when serialisation starts (default perfect):\n"
	"      perfect\n"
	"      bernoulli:loss=P\n"
	"      ge-packet:p=P,q=Q[,loss_good=0][,loss_bad=1]\n"
	"      ge-time:p=P,q=Q,step_ms=MS\n"
	"      outage:period_ms=MS,duration_ms=MS[,phase_ms=0][,jitter_ms=0]\n"
	"      trace:file=PATH[,trace_period_ms=MS]  (lines \"start_ms end_ms\")\n"
	"    each with [,seed=N] (default 1); time counts from satlink's start.\n"
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

/* depart applies the frames, the channel and the delay to a packet serialised
 * from tx_start to tx_end, and returns its due time, or 0 if it is lost. */
static uint64_t depart(direction *d, uint64_t tx_start, uint64_t tx_end)
{
	bool lost;
	if (d->frame_ns == 0) {
		lost = swf_channel_lost(d->channel, (tx_start - start_ns) / 1000);
	} else {
		/* Frame n starts at n x frame_ns; a packet whose serialisation
		 * ends at t leaves with frame ceil(t / frame_ns). */
		uint64_t frame = (tx_end - start_ns + d->frame_ns - 1) / d->frame_ns;
		if (frame != d->frame_index) {
			d->frame_index = frame;
			d->frame_lost = swf_channel_lost(d->channel, frame * d->frame_ns / 1000);
		}
		lost = d->frame_lost;
		tx_end = start_ns + frame * d->frame_ns;
	}
	if (lost) {
		atomic_fetch_add_explicit(&d->drops_channel, 1, memory_order_relaxed);
		return 0;
	}
	return tx_end + d->delay_ns;
}

/* admit applies the buffer, the serialisation and the channel to a packet of
 * len bytes arriving at now, and returns its due time, or 0 if it is lost. */
static uint64_t admit(direction *d, uint32_t len, uint64_t now)
{
	if (d->ns_per_byte == 0)
		return depart(d, now, now);
	while (d->queued_head != d->queued_tail &&
	       d->queued_ends[d->queued_head & (d->ring_packets - 1)] <= now)
		d->queued_head++;
	uint64_t queued_packets = d->queued_tail - d->queued_head;
	double backlog_bytes =
		d->reader_link_free_ns > now ? (d->reader_link_free_ns - now) / d->ns_per_byte : 0;
	if (backlog_bytes + len > (double)d->buffer_bytes || queued_packets >= d->buffer_packets) {
		atomic_fetch_add_explicit(&d->drops_buffer, 1, memory_order_relaxed);
		return 0;
	}
	if (queued_packets == d->ring_packets) {
		atomic_fetch_add_explicit(&d->drops_overflow, 1, memory_order_relaxed);
		return 0;
	}
	uint64_t tx_start = d->reader_link_free_ns > now ? d->reader_link_free_ns : now;
	uint64_t tx_end = tx_start + (uint64_t)llround(len * d->ns_per_byte);
	d->reader_link_free_ns = tx_end;
	atomic_store_explicit(&d->link_free_ns, tx_end, memory_order_relaxed);
	d->queued_ends[d->queued_tail++ & (d->ring_packets - 1)] = tx_end;
	return depart(d, tx_start, tx_end);
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
		uint64_t now = now_ns();
		atomic_fetch_add_explicit(&d->packets_in, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&d->bytes_in, (uint64_t)n, memory_order_relaxed);
		if (full) {
			atomic_fetch_add_explicit(&d->drops_overflow, 1, memory_order_relaxed);
			continue;
		}
		uint64_t due = admit(d, (uint32_t)n, now);
		if (due == 0)
			continue;
		d->slots[tail & (d->ring_packets - 1)] = (slot){due, (uint32_t)n};
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
		if (write(d->out_fd, packet, s->len) == (ssize_t)s->len) {
			atomic_fetch_add_explicit(&d->packets_out, 1, memory_order_relaxed);
			atomic_fetch_add_explicit(&d->bytes_out, s->len, memory_order_relaxed);
		} else {
			atomic_fetch_add_explicit(&d->write_errors, 1, memory_order_relaxed);
		}
		histogram_add(&d->lateness, now - s->due_ns);
		atomic_store_explicit(&d->head, ++head, memory_order_release);
	}
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* Set-up, stats and the command line.                                    */

/* direction_init sets a direction up but for its devices (in_fd, out_fd). */
static void direction_init(direction *d, const char *name, const link_config *config,
			   const link_config *reverse, uint32_t mtu)
{
	memset(d, 0, sizeof *d);
	d->name = name;
	d->mtu = mtu;
	d->ns_per_byte = config->rate_mbps > 0 ? 8e3 / config->rate_mbps : 0;
	d->delay_ns = (uint64_t)llround(config->delay_ms * 1e6);
	d->frame_ns = (uint64_t)llround(config->frame_ms * 1e6);
	d->frame_index = UINT64_MAX; /* no frame decided yet */
	d->buffer_bytes = UINT64_MAX;
	d->buffer_packets = UINT64_MAX;
	double rtt_s = (config->delay_ms + reverse->delay_ms) / 1e3;
	switch (config->buffer_unit) {
	case BUFFER_UNLIMITED:
		break;
	case BUFFER_BYTES:
		d->buffer_bytes = (uint64_t)config->buffer;
		break;
	case BUFFER_PACKETS:
		d->buffer_packets = (uint64_t)config->buffer;
		break;
	case BUFFER_BDP:
		d->buffer_bytes = (uint64_t)llround(config->buffer * config->rate_mbps * 1e6 / 8 *
						    rtt_s);
		if (d->buffer_bytes < mtu)
			usage_fail("--%s-buffer-bdp %g is %" PRIu64 " bytes, less than one packet of "
				   "--mtu %" PRIu32 " (the BDP uses ab + ba delay): use "
				   "--%s-buffer-bytes or --%s-buffer-packets",
				   name, config->buffer, d->buffer_bytes, mtu, name, name);
		break;
	}
	swf_status status = swf_channel_new(&config->channel, &d->channel);
	if (status != SWF_OK)
		fail("create the %s channel: %s", name, swf_status_string(status));
	d->ring_packets = RING_PACKETS;
	while (d->ring_packets * mtu > RING_BYTES)
		d->ring_packets /= 2;
	d->slots = calloc(d->ring_packets, sizeof *d->slots);
	d->queued_ends = calloc(d->ring_packets, sizeof *d->queued_ends);
	d->data = malloc(d->ring_packets * mtu);
	if (d->slots == NULL || d->queued_ends == NULL || d->data == NULL)
		fail("out of memory for the %s ring of %" PRIu64 " packets", name,
		     d->ring_packets);
	d->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	d->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (d->wake_fd < 0 || d->timer_fd < 0)
		fail_errno("create the %s eventfd and timerfd", name);
}

static void direction_free(direction *d)
{
	swf_channel_free(d->channel);
	free(d->slots);
	free(d->queued_ends);
	free(d->data);
	close(d->wake_fd);
	close(d->timer_fd);
}

/* start_thread starts a forwarding thread, with SCHED_FIFO when asked: a
 * timely wake-up must not wait for the time slice of whatever else runs.
 * Returns whether the thread got SCHED_FIFO. */
static bool start_thread(pthread_t *thread, void *(*main_fn)(void *), direction *d,
			 const char *role)
{
	if (pthread_create(thread, NULL, main_fn, d) != 0)
		fail("start the %s %s thread", d->name, role);
	struct sched_param param = {.sched_priority = REALTIME_PRIORITY};
	return realtime && pthread_setschedparam(*thread, SCHED_FIFO, &param) == 0;
}

static void print_link(const link_config *c, const direction *d)
{
	printf("{\"rate_mbps\":%g,\"delay_ms\":%g,\"frame_ms\":%g,\"buffer_bytes\":", c->rate_mbps,
	       c->delay_ms, c->frame_ms);
	if (d->buffer_bytes == UINT64_MAX)
		printf("null");
	else
		printf("%" PRIu64, d->buffer_bytes);
	printf(",\"buffer_packets\":");
	if (d->buffer_packets == UINT64_MAX)
		printf("null");
	else
		printf("%" PRIu64, d->buffer_packets);
	printf(",\"channel\":\"%s\",\"seed\":%" PRIu32 "}", channel_kind_name(c->channel.kind),
	       c->channel.seed);
}

static void print_direction(direction *d, uint64_t now, const histogram_snapshot *newer,
			    const histogram_snapshot *older)
{
	uint64_t link_free = atomic_load_explicit(&d->link_free_ns, memory_order_relaxed);
	uint64_t queue_bytes =
		link_free > now ? (uint64_t)((link_free - now) / d->ns_per_byte) : 0;
#define COUNTER(field) (uint64_t) atomic_load_explicit(&d->field, memory_order_relaxed)
	uint64_t packets_out = COUNTER(packets_out);
	uint64_t head = atomic_load(&d->head), tail = atomic_load(&d->tail);
	printf("\"%s\":{\"packets_in\":%" PRIu64 ",\"bytes_in\":%" PRIu64
	       ",\"packets_out\":%" PRIu64 ",\"bytes_out\":%" PRIu64 ",\"queue_bytes\":%" PRIu64
	       ",\"in_flight_packets\":%" PRIu64 ",\"drops_buffer\":%" PRIu64
	       ",\"drops_channel\":%" PRIu64 ",\"drops_overflow\":%" PRIu64
	       ",\"write_errors\":%" PRIu64 ",\"lateness_ms\":",
	       d->name, COUNTER(packets_in), COUNTER(bytes_in), packets_out, COUNTER(bytes_out),
	       queue_bytes, tail - head, COUNTER(drops_buffer), COUNTER(drops_channel),
	       COUNTER(drops_overflow), COUNTER(write_errors));
#undef COUNTER
	histogram_print(stdout, newer, older);
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
static void set_buffer(link_config *c, const char *direction_name, const char *option,
		       enum buffer_unit unit, double size)
{
	if (c->buffer_unit != BUFFER_UNLIMITED && c->buffer_unit != unit)
		usage_fail("%s and %s both set the %s buffer: give it in bytes, packets or BDP, "
			   "not two of them", c->buffer_option, option, direction_name);
	c->buffer_unit = unit;
	c->buffer = size;
	c->buffer_option = option;
}

static void set_link_option(link_config *c, const char *direction_name, const char *option,
			    const char *base, const char *value)
{
	if (strcmp(base, "rate-mbps") == 0) {
		c->rate_mbps = parse_double(option, value, 0, false, 1e6);
	} else if (strcmp(base, "delay-ms") == 0) {
		c->delay_ms = parse_double(option, value, 0, true, 1e5);
	} else if (strcmp(base, "frame-ms") == 0) {
		c->frame_ms = parse_double(option, value, 0.001, true, 1e4);
	} else if (strcmp(base, "buffer-bytes") == 0) {
		set_buffer(c, direction_name, option, BUFFER_BYTES,
			   (double)parse_uint(option, value, 1, UINT32_MAX));
	} else if (strcmp(base, "buffer-packets") == 0) {
		set_buffer(c, direction_name, option, BUFFER_PACKETS,
			   (double)parse_uint(option, value, 1, RING_PACKETS));
	} else if (strcmp(base, "buffer-bdp") == 0) {
		set_buffer(c, direction_name, option, BUFFER_BDP,
			   parse_double(option, value, 0, false, 1e3));
	} else if (strcmp(base, "channel") == 0) {
		parse_channel(option, value, &c->channel);
	} else {
		usage_fail("unknown option %s (see --help)", option);
	}
}

int main(int argc, char **argv)
{
	tool_name = "satlink";
	const char *netns[2] = {NULL, NULL}, *dev[2] = {NULL, NULL}, *addr[2] = {NULL, NULL};
	uint32_t mtu = 1500, stats_interval_ms = 100;
	link_config links[2] = {{.channel = {.kind = SWF_CHANNEL_PERFECT, .seed = 1}},
				{.channel = {.kind = SWF_CHANNEL_PERFECT, .seed = 1}}};

	for (int i = 1; i < argc; i++) {
		const char *option = argv[i];
		if (strcmp(option, "--help") == 0 || strcmp(option, "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		}
		if (strcmp(option, "--no-realtime") == 0) {
			realtime = false;
			continue;
		}
		if (strncmp(option, "--", 2) != 0)
			usage_fail("unexpected argument \"%s\" (see --help)", option);
		if (i + 1 == argc)
			usage_fail("%s needs a value", option);
		const char *value = argv[++i];
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
		if (links[k].buffer_unit == BUFFER_BDP && links[k].rate_mbps == 0)
			usage_fail("--%s-buffer-bdp needs a rate (--rate-mbps or --%s-rate-mbps)",
				   k == 0 ? "ab" : "ba", k == 0 ? "ab" : "ba");

	static direction dirs[2];
	direction_init(&dirs[0], "ab", &links[0], &links[1], mtu);
	direction_init(&dirs[1], "ba", &links[1], &links[0], mtu);
	for (int k = 0; k < 2; k++) /* the channels keep their own copies */
		free((void *)links[k].channel.intervals);

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
	bool all_realtime = true;
	for (int k = 0; k < 2; k++) {
		all_realtime &= start_thread(&dirs[k].writer, writer_main, &dirs[k], "writer");
		all_realtime &= start_thread(&dirs[k].reader, reader_main, &dirs[k], "reader");
	}
	printf("{\"event\":\"ready\",\"pid\":%d,\"mtu\":%" PRIu32 ",\"ring_packets\":%" PRIu64
	       ",\"realtime\":%s,\"ab\":",
	       (int)getpid(), mtu, dirs[0].ring_packets, all_realtime ? "true" : "false");
	print_link(&links[0], &dirs[0]);
	printf(",\"ba\":");
	print_link(&links[1], &dirs[1]);
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
	}
	print_stats("summary", dirs, snaps, true);
	for (int k = 0; k < 2; k++) {
		direction_free(&dirs[k]);
		free(snaps[k][0]);
		free(snaps[k][1]);
		close(fds[k]);
	}
	return 0;
}
