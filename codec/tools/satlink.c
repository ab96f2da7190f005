/*
 * satlink - a userspace link emulator between two network namespaces.
 *
 * One TUN device in namespace A, one in namespace B; IP packets read from
 * one are written into the other after the link of their direction ("ab"
 * from A to B, "ba" back) has applied, in order:
 *
 *   [AQM] -> drop-tail buffer -> serialisation at the rate -> [frame] -> channel loss -> delay
 *
 * The AQM drops a share of the arrivals that find more than its threshold
 * waiting (a satellite gateway's early drop). The rate can follow a trace;
 * the delay can vary on top of its fixed part, drawn from weighted ranges
 * and held for a step, or read from a trace; packets never overtake one
 * another (a packet is due no earlier than the one before it, as on a FIFO
 * link).
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
 * deadline; due times never decrease, the reader sees to it, so only the
 * head matters) and writes every due packet; its lateness (write time - due
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
#include "tinymt32.h" /* libswf's generator: the AQM and delay draws are seeded as its channels */
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
#define MAX_DELAY_BINS 64

enum buffer_unit { BUFFER_UNLIMITED, BUFFER_BYTES, BUFFER_PACKETS, BUFFER_BDP };

/* A value that steps in time, from "t_ms value" pairs: at time t the value
 * of the last pair at or before t, the trace starting over every period_ms
 * if that is > 0. */
typedef struct step_trace {
	number_pair *steps; /* NULL: no trace */
	size_t count;
	double period_ms;
} step_trace;

/* Extra one-way delay drawn uniformly in [low_ms, high_ms] from a range
 * picked with probability weight / (the sum of the weights). */
typedef struct delay_bin {
	double weight, low_ms, high_ms;
} delay_bin;

typedef struct link_config {
	double rate_mbps; /* 0: unlimited */
	double delay_ms;
	double frame_ms; /* 0: packet by packet */
	enum buffer_unit buffer_unit;
	double buffer;              /* in buffer_unit */
	const char *buffer_option; /* the option that set it: one per direction */
	swf_channel_config channel;
	/* The AQM (a threshold of UINT64_MAX: none); -1: not given. */
	uint64_t aqm_threshold_bytes;
	double aqm_drop_ratio;
	int64_t aqm_seed;
	/* Extra delay: bins held for delay_step_ms (0: not given), or a trace. */
	delay_bin delay_bins[MAX_DELAY_BINS];
	size_t delay_bin_count;
	double delay_step_ms;
	int64_t delay_seed;
	step_trace delay_trace;
	step_trace rate_trace; /* replaces rate_mbps while it runs */
} link_config;

typedef struct slot {
	uint64_t due_ns;
	uint32_t len;
} slot;

/* A packet the link has taken and not finished serialising. */
typedef struct queued_packet {
	uint64_t start_ns, end_ns;
	uint32_t len;
} queued_packet;

typedef struct direction {
	const char *name;
	int in_fd, out_fd;
	uint32_t mtu;
	uint64_t ring_packets; /* a power of two */
	swf_channel *channel;
	double ns_per_byte; /* 0: unlimited rate */
	step_trace rate_trace; /* if it has steps, the rate in force, not ns_per_byte */
	uint64_t delay_ns;
	uint64_t frame_ns; /* 0: no frames */
	uint64_t buffer_bytes, buffer_packets; /* UINT64_MAX: no limit */
	/* The AQM: an arrival that finds more than aqm_threshold_bytes waiting
	 * is dropped if a draw falls below aqm_drop_below (ratio x 2^32). */
	uint64_t aqm_threshold_bytes; /* UINT64_MAX: no AQM */
	uint64_t aqm_drop_below;
	swf_tinymt32 aqm_prng;
	/* The extra delay: from bins (cumulative weights), step k of
	 * delay_step_ns holding the value of the k-th pair of draws, so the
	 * process depends on time only, not on the traffic; or from a trace. */
	delay_bin delay_bins[MAX_DELAY_BINS];
	double delay_cumulative[MAX_DELAY_BINS];
	size_t delay_bin_count;
	uint64_t delay_step_ns, delay_next_step, delay_extra_ns;
	swf_tinymt32 delay_prng;
	step_trace delay_trace;
	uint64_t last_due_ns; /* packets never overtake one another */

	/* The ring: the reader fills slots[tail], the writer empties
	 * slots[head]; indices grow forever and wrap by masking. */
	slot *slots;
	uint8_t *data; /* ring_packets * mtu bytes */
	_Alignas(64) _Atomic uint64_t tail;
	_Atomic uint64_t link_free_ns; /* published for queue_bytes */
	/* Reader-only state: the link's clock and the packets still queued
	 * (lost ones included), with their bytes. */
	uint64_t reader_link_free_ns;
	/* The frame of the last packet and the channel's decision for it. */
	uint64_t frame_index;
	bool frame_lost;
	queued_packet *queued;
	uint64_t queued_head, queued_tail, queued_bytes;
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

/* Low among real-time priorities: above every normal thread, below the
 * kernel's own real-time threads. */
#define REALTIME_PRIORITY 10

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
	"                       earlier than the one before it.\n"
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

/* step_value is a step trace's value at t_ms from satlink's start (a pure
 * function: the stats thread calls it too). */
static double step_value(const step_trace *trace, double t_ms)
{
	if (trace->period_ms > 0)
		t_ms = fmod(t_ms, trace->period_ms);
	size_t low = 0, high = trace->count; /* the answer is in [low, high) */
	while (high - low > 1) {
		size_t middle = low + (high - low) / 2;
		if (trace->steps[middle].first <= t_ms)
			low = middle;
		else
			high = middle;
	}
	return trace->steps[low].second;
}

/* ns_per_byte_at is the serialisation time per byte at time t_ns. */
static double ns_per_byte_at(const direction *d, uint64_t t_ns)
{
	if (d->rate_trace.steps == NULL)
		return d->ns_per_byte;
	return 8e3 / step_value(&d->rate_trace, (t_ns - start_ns) / 1e6);
}

static double draw_unit(swf_tinymt32 *prng)
{
	return swf_tinymt32_next(prng) / 4294967296.0;
}

/* extra_delay_ns is the variable part of the delay at t_ns. */
static uint64_t extra_delay_ns(direction *d, uint64_t t_ns)
{
	double t_ms = (t_ns - start_ns) / 1e6;
	if (d->delay_trace.steps != NULL)
		return (uint64_t)llround(step_value(&d->delay_trace, t_ms) * 1e6);
	if (d->delay_bin_count == 0)
		return 0;
	for (uint64_t step = (t_ns - start_ns) / d->delay_step_ns; d->delay_next_step <= step;
	     d->delay_next_step++) {
		double pick = draw_unit(&d->delay_prng) * d->delay_cumulative[d->delay_bin_count - 1];
		double within = draw_unit(&d->delay_prng);
		size_t bin = 0;
		while (bin + 1 < d->delay_bin_count && d->delay_cumulative[bin] <= pick)
			bin++;
		const delay_bin *b = &d->delay_bins[bin];
		d->delay_extra_ns = (uint64_t)llround((b->low_ms + within * (b->high_ms - b->low_ms)) * 1e6);
	}
	return d->delay_extra_ns;
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
	uint64_t due = tx_end + d->delay_ns + extra_delay_ns(d, tx_end);
	/* FIFO: when the delay falls, a packet waits for the one before it. */
	if (due < d->last_due_ns)
		due = d->last_due_ns;
	d->last_due_ns = due;
	return due;
}

/* backlog_bytes is what the link has taken and not serialised at now: the
 * queued bytes but the part of the packet in serialisation already sent. */
static double backlog_bytes(const direction *d, uint64_t now)
{
	if (d->queued_head == d->queued_tail)
		return 0;
	const queued_packet *p = &d->queued[d->queued_head & (d->ring_packets - 1)];
	double sent = p->start_ns < now ? (double)p->len * (now - p->start_ns) / (p->end_ns - p->start_ns)
					: 0;
	return (double)d->queued_bytes - sent;
}

/* admit applies the buffer, the serialisation and the channel to a packet of
 * len bytes arriving at now, and returns its due time, or 0 if it is lost. */
static uint64_t admit(direction *d, uint32_t len, uint64_t now)
{
	if (d->ns_per_byte == 0 && d->rate_trace.steps == NULL)
		return depart(d, now, now);
	uint64_t mask = d->ring_packets - 1;
	while (d->queued_head != d->queued_tail && d->queued[d->queued_head & mask].end_ns <= now)
		d->queued_bytes -= d->queued[d->queued_head++ & mask].len;
	uint64_t queued_packets = d->queued_tail - d->queued_head;
	double backlog = backlog_bytes(d, now);
	if (backlog > (double)d->aqm_threshold_bytes &&
	    swf_tinymt32_next(&d->aqm_prng) < d->aqm_drop_below) {
		atomic_fetch_add_explicit(&d->drops_aqm, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&d->drops_buffer, 1, memory_order_relaxed);
		return 0;
	}
	if (backlog + len > (double)d->buffer_bytes || queued_packets >= d->buffer_packets) {
		atomic_fetch_add_explicit(&d->drops_buffer, 1, memory_order_relaxed);
		return 0;
	}
	if (queued_packets == d->ring_packets) {
		atomic_fetch_add_explicit(&d->drops_overflow, 1, memory_order_relaxed);
		return 0;
	}
	uint64_t tx_start = d->reader_link_free_ns > now ? d->reader_link_free_ns : now;
	uint64_t tx_end = tx_start + (uint64_t)llround(len * ns_per_byte_at(d, tx_start));
	d->reader_link_free_ns = tx_end;
	atomic_store_explicit(&d->link_free_ns, tx_end, memory_order_relaxed);
	d->queued[d->queued_tail++ & mask] = (queued_packet){tx_start, tx_end, len};
	d->queued_bytes += len;
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

/* step_trace_max is the largest value of a trace. */
static double step_trace_max(const step_trace *trace)
{
	double max = 0;
	for (size_t i = 0; i < trace->count; i++)
		max = fmax(max, trace->steps[i].second);
	return max;
}

/* ring_size is the slot count of a direction's ring: the default, or more
 * where its buffer and what its longest delay holds at its fastest rate
 * need more full-size packets, within RING_MAX_BYTES. */
static uint64_t ring_size(const direction *d, const link_config *config, uint32_t mtu)
{
	uint64_t slots = RING_PACKETS;
	while (slots * mtu > RING_BYTES)
		slots /= 2;
	double buffer_bytes = d->buffer_bytes != UINT64_MAX       ? (double)d->buffer_bytes
			      : d->buffer_packets != UINT64_MAX ? (double)d->buffer_packets * mtu
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
	d->rate_trace = config->rate_trace;
	d->aqm_threshold_bytes = config->aqm_threshold_bytes;
	d->aqm_drop_below = (uint64_t)llround(fmax(config->aqm_drop_ratio, 0) * 4294967296.0);
	swf_tinymt32_init(&d->aqm_prng, config->aqm_seed < 0 ? 1 : (uint32_t)config->aqm_seed);
	d->delay_bin_count = config->delay_bin_count;
	double total_weight = 0;
	for (size_t i = 0; i < config->delay_bin_count; i++) {
		d->delay_bins[i] = config->delay_bins[i];
		d->delay_cumulative[i] = total_weight += config->delay_bins[i].weight;
	}
	d->delay_step_ns = (uint64_t)llround(config->delay_step_ms * 1e6);
	swf_tinymt32_init(&d->delay_prng, config->delay_seed < 0 ? 1 : (uint32_t)config->delay_seed);
	d->delay_trace = config->delay_trace;
	d->ring_packets = ring_size(d, config, mtu);
	d->slots = calloc(d->ring_packets, sizeof *d->slots);
	d->queued = calloc(d->ring_packets, sizeof *d->queued);
	d->data = malloc(d->ring_packets * mtu);
	if (d->slots == NULL || d->queued == NULL || d->data == NULL)
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
	free(d->queued);
	free(d->rate_trace.steps);
	free(d->delay_trace.steps);
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
	printf("{\"rate_mbps\":%g,\"delay_ms\":%g,\"frame_ms\":%g,\"ring_packets\":%" PRIu64
	       ",\"buffer_bytes\":",
	       c->rate_mbps, c->delay_ms, c->frame_ms, d->ring_packets);
	if (d->buffer_bytes == UINT64_MAX)
		printf("null");
	else
		printf("%" PRIu64, d->buffer_bytes);
	printf(",\"buffer_packets\":");
	if (d->buffer_packets == UINT64_MAX)
		printf("null");
	else
		printf("%" PRIu64, d->buffer_packets);
	printf(",\"channel\":\"%s\",\"seed\":%" PRIu32, channel_kind_name(c->channel.kind),
	       c->channel.seed);
	if (d->aqm_threshold_bytes == UINT64_MAX)
		printf(",\"aqm\":null");
	else
		printf(",\"aqm\":{\"threshold_bytes\":%" PRIu64 ",\"drop_ratio\":%g,\"seed\":%" PRId64 "}",
		       d->aqm_threshold_bytes, c->aqm_drop_ratio, c->aqm_seed < 0 ? 1 : c->aqm_seed);
	if (d->delay_bin_count > 0)
		printf(",\"delay_variation\":{\"model\":\"distribution\",\"bins\":%zu,\"step_ms\":%g,"
		       "\"seed\":%" PRId64 "}",
		       d->delay_bin_count, c->delay_step_ms, c->delay_seed < 0 ? 1 : c->delay_seed);
	else if (d->delay_trace.steps != NULL)
		printf(",\"delay_variation\":{\"model\":\"trace\",\"steps\":%zu,\"period_ms\":%g}",
		       d->delay_trace.count, d->delay_trace.period_ms);
	else
		printf(",\"delay_variation\":null");
	if (d->rate_trace.steps != NULL)
		printf(",\"rate_trace\":{\"steps\":%zu,\"period_ms\":%g}}", d->rate_trace.count,
		       d->rate_trace.period_ms);
	else
		printf(",\"rate_trace\":null}");
}

static void print_direction(direction *d, uint64_t now, const histogram_snapshot *newer,
			    const histogram_snapshot *older)
{
	uint64_t link_free = atomic_load_explicit(&d->link_free_ns, memory_order_relaxed);
	/* Exact at a constant rate; with a rate trace, at the rate in force now. */
	uint64_t queue_bytes =
		link_free > now ? (uint64_t)((link_free - now) / ns_per_byte_at(d, now)) : 0;
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

/* read_step_trace loads a step trace of "t_ms <value_name>" lines: from
 * t_ms 0 forward in time, each value at least min (above it unless
 * min_inclusive) and at most max. */
static void read_step_trace(step_trace *trace, const char *option, const char *path,
			    const char *value_name, double min, bool min_inclusive, double max)
{
	char form[64];
	snprintf(form, sizeof form, "t_ms %s", value_name);
	free(trace->steps);
	trace->steps = read_pairs(option, path, form, &trace->count);
	if (trace->count == 0)
		usage_fail("%s: %s has no \"%s\" line", option, path, form);
	for (size_t i = 0; i < trace->count; i++) {
		double t_ms = trace->steps[i].first, value = trace->steps[i].second;
		if (i == 0 ? t_ms != 0 : !(t_ms > trace->steps[i - 1].first && t_ms <= 1e12))
			usage_fail("%s: %s must start at t_ms 0 and go forward in time (at most 1e12), "
				   "but step %zu has t_ms %g", option, path, i + 1, t_ms);
		if (!((min_inclusive ? value >= min : value > min) && value <= max))
			usage_fail("%s: %s step %zu: %s must be %s %g and <= %g, got %g", option, path,
				   i + 1, value_name, min_inclusive ? ">=" : ">", min, max, value);
	}
}

/* parse_delay_bins reads "weight:low_ms:high_ms" ranges separated by commas. */
static void parse_delay_bins(link_config *c, const char *option, const char *spec)
{
	c->delay_bin_count = 0;
	for (const char *p = spec;; p++) {
		delay_bin bin;
		int used = 0;
		if (sscanf(p, "%lf:%lf:%lf%n", &bin.weight, &bin.low_ms, &bin.high_ms, &used) != 3 ||
		    (p[used] != ',' && p[used] != '\0'))
			usage_fail("%s must be weight:low_ms:high_ms ranges separated by commas "
				   "(e.g. 99:0:65,1:65:940), got \"%s\"", option, spec);
		if (!(bin.weight > 0 && isfinite(bin.weight) && bin.low_ms >= 0 &&
		      bin.high_ms >= bin.low_ms && bin.high_ms <= 1e5))
			usage_fail("%s: in %.*s the weight must be > 0 and 0 <= low_ms <= high_ms <= "
				   "100000", option, used, p);
		if (c->delay_bin_count == MAX_DELAY_BINS)
			usage_fail("%s takes at most %d ranges", option, MAX_DELAY_BINS);
		c->delay_bins[c->delay_bin_count++] = bin;
		p += used;
		if (*p == '\0')
			break;
	}
}

static void set_link_option(link_config *c, const char *direction_name, const char *option,
			    const char *base, const char *value)
{
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
		c->delay_seed = (int64_t)parse_uint(option, value, 0, UINT32_MAX);
	} else if (strcmp(base, "delay-trace") == 0) {
		read_step_trace(&c->delay_trace, option, value, "delay_ms", 0, true, 1e5);
	} else if (strcmp(base, "delay-trace-period-ms") == 0) {
		c->delay_trace.period_ms = parse_double(option, value, 0, false, 1e12);
	} else if (strcmp(base, "aqm-threshold-bytes") == 0) {
		c->aqm_threshold_bytes = parse_uint(option, value, 0, UINT32_MAX);
	} else if (strcmp(base, "aqm-drop-ratio") == 0) {
		c->aqm_drop_ratio = parse_double(option, value, 0, true, 1);
	} else if (strcmp(base, "aqm-seed") == 0) {
		c->aqm_seed = (int64_t)parse_uint(option, value, 0, UINT32_MAX);
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

/* needs refuses option (of direction dir) without the option it needs. */
static void needs(bool given, const char *dir, const char *option, bool present,
		  const char *needed)
{
	if (given && !present)
		usage_fail("--%s-%s needs --%s-%s", dir, option, dir, needed);
}

static void check_trace_period(const step_trace *trace, const char *dir, const char *name)
{
	char period[32], file[32];
	snprintf(period, sizeof period, "%s-trace-period-ms", name);
	snprintf(file, sizeof file, "%s-trace", name);
	needs(trace->period_ms > 0, dir, period, trace->steps != NULL, file);
	if (trace->steps != NULL && trace->period_ms > 0 &&
	    trace->period_ms <= trace->steps[trace->count - 1].first)
		usage_fail("--%s-%s %g must be longer than the last t_ms of the trace, %g", dir, period,
			   trace->period_ms, trace->steps[trace->count - 1].first);
}

/* check_link refuses what one direction's options cannot mean together. */
static void check_link(const link_config *c, const char *dir)
{
	bool rate = c->rate_mbps > 0 || c->rate_trace.steps != NULL;
	if (c->buffer_unit == BUFFER_BDP && c->rate_mbps == 0)
		usage_fail("--%s-buffer-bdp needs a rate (--rate-mbps or --%s-rate-mbps)", dir, dir);
	bool aqm = c->aqm_threshold_bytes != UINT64_MAX;
	needs(aqm, dir, "aqm-threshold-bytes", c->aqm_drop_ratio >= 0, "aqm-drop-ratio");
	needs(c->aqm_drop_ratio >= 0, dir, "aqm-drop-ratio", aqm, "aqm-threshold-bytes");
	needs(c->aqm_seed >= 0, dir, "aqm-seed", aqm, "aqm-threshold-bytes");
	if (aqm && !rate)
		usage_fail("--%s-aqm-threshold-bytes needs a rate (--rate-mbps or --rate-trace): "
			   "nothing queues without one", dir);
	bool bins = c->delay_bin_count > 0;
	if (bins && c->delay_trace.steps != NULL)
		usage_fail("--%s-delay-bins and --%s-delay-trace both vary the delay: give one", dir,
			   dir);
	needs(bins, dir, "delay-bins", c->delay_step_ms > 0, "delay-step-ms");
	needs(c->delay_step_ms > 0, dir, "delay-step-ms", bins, "delay-bins");
	needs(c->delay_seed >= 0, dir, "delay-seed", bins, "delay-bins");
	check_trace_period(&c->delay_trace, dir, "delay");
	check_trace_period(&c->rate_trace, dir, "rate");
}

int main(int argc, char **argv)
{
	tool_name = "satlink";
	const char *netns[2] = {NULL, NULL}, *dev[2] = {NULL, NULL}, *addr[2] = {NULL, NULL};
	uint32_t mtu = 1500, stats_interval_ms = 100;
	link_config links[2];
	for (int k = 0; k < 2; k++)
		links[k] = (link_config){.channel = {.kind = SWF_CHANNEL_PERFECT, .seed = 1},
					 .aqm_threshold_bytes = UINT64_MAX,
					 .aqm_drop_ratio = -1,
					 .aqm_seed = -1,
					 .delay_seed = -1};

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
		check_link(&links[k], k == 0 ? "ab" : "ba");

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
	printf("{\"event\":\"ready\",\"pid\":%d,\"start_ns\":%" PRIu64 ",\"mtu\":%" PRIu32
	       ",\"realtime\":%s,\"ab\":",
	       (int)getpid(), start_ns, mtu, all_realtime ? "true" : "false");
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
