/*
 * link_model.h - one direction of satlink's emulated link, free of I/O,
 * threads and clocks, so that unit tests and the fuzzer drive exactly what
 * the tool runs.
 *
 * A packet offered to the link at time t goes through, in order:
 *
 *   [AQM] -> drop-tail buffer -> serialisation at the rate -> [frame] -> channel loss -> delay
 *
 * and comes back with its fate: dropped, and by what, or sent, with the time
 * it is due at the far end. Everything is computed on arrival, from the
 * link's own clock (when the link finishes what it took), never from when a
 * caller happens to wake up, so late wake-ups never accumulate.
 *
 * - The AQM drops a share of the arrivals that find more than its threshold
 *   waiting (a satellite gateway's early drop), before the buffer sees them.
 * - The drop-tail buffer limits what is not yet serialised, in bytes or
 *   packets.
 * - Serialisation starts when the link is free, at the rate in force then
 *   (constant, or from a trace); unlimited rate: it takes no time.
 * - Frames (frame_ms): a packet whose serialisation ends in (t_n - F, t_n]
 *   leaves with the frame that starts at t_n = n x F, as a DVB-S2 forward
 *   link sends BBFrames; the frame is on the air during [t_n, t_n + F), and
 *   the channel decides once per frame: a lost frame loses every packet in
 *   it.
 * - The channel decides by loss_rule: SWF_LOSS_OVERLAP, a packet (or frame)
 *   is lost if its time on the air overlaps lost time (swf.h,
 *   swf_channel_lost_during); SWF_LOSS_AT_START, it is decided at the start
 *   of its serialisation. Either way a lost packet still occupies the link:
 *   it is lost on the air.
 * - Delay: the fixed delay plus an extra one, drawn from weighted ranges and
 *   held for a step (step k holds the k-th pair of draws from its seed,
 *   whatever the traffic) or read from a trace. A packet is due no earlier
 *   than the one before it, so nothing is reordered: when the extra delay
 *   falls, packets wait for the slower one before them, as on a FIFO link.
 *
 * Times are nanoseconds from the link's start (the channel's and the traces'
 * time 0), below 2^62. An offer costs time in proportion to the delay steps
 * and channel steps or outages since the one before (a link running in real
 * time makes a few per offer). Every draw is seeded (swf_prng), so the same
 * config and the same offers give the same fates and due times.
 *
 * One link_model must not be used by two threads at once, except
 * link_model_queue_bytes, which reads only the configuration.
 */
#ifndef LINK_MODEL_H
#define LINK_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "swf.h"

#define LINK_MAX_DELAY_BINS 64

/* No limit, for the buffer and the AQM's threshold. */
#define LINK_UNLIMITED UINT64_MAX

/* A value that steps in time, from (t_ms, value) pairs: at time t, the value
 * of the last step at or before t; the trace starts over every period_ms
 * if that is > 0. steps NULL: no trace. The first step is at t_ms 0, and
 * t_ms increases, below period_ms. */
typedef struct link_trace_step {
	double t_ms, value;
} link_trace_step;

typedef struct link_step_trace {
	const link_trace_step *steps;
	size_t count;
	double period_ms;
} link_step_trace;

/* An extra delay drawn uniformly in [low_ms, high_ms], from a range picked
 * with probability weight / (the sum of the weights). */
typedef struct link_delay_bin {
	double weight, low_ms, high_ms;
} link_delay_bin;

typedef struct link_model_config {
	double rate_mbps;           /* Mbit/s of IP packets, [0, 1e6]; 0: unlimited */
	link_step_trace rate_trace; /* the rate in force over time instead, (0, 1e6] */
	double delay_ms;            /* fixed one-way delay, [0, 1e5] */
	double frame_ms;            /* 0: packet by packet; else [0.001, 1e4] */
	uint64_t buffer_bytes;      /* limits on what is not yet serialised, */
	uint64_t buffer_packets;    /* each LINK_UNLIMITED or >= 1 */
	/* The AQM: an arrival that finds more than aqm_threshold_bytes not yet
	 * serialised is dropped with probability aqm_drop_ratio, in [0, 1].
	 * LINK_UNLIMITED: no AQM (it needs a rate). */
	uint64_t aqm_threshold_bytes;
	double aqm_drop_ratio;
	uint32_t aqm_seed;
	/* The extra delay: delay_bin_count ranges drawn anew every
	 * delay_step_ms ([0.001, 1e9]), or a trace of values in [0, 1e5] ms;
	 * not both. */
	link_delay_bin delay_bins[LINK_MAX_DELAY_BINS];
	size_t delay_bin_count;
	double delay_step_ms;
	uint32_t delay_seed;
	link_step_trace delay_trace;
	swf_channel_config channel;
	swf_loss_rule loss_rule;
	/* Packets the model keeps while they serialise (dropped as overflow
	 * beyond), >= 1: satlink's ring size. */
	uint64_t queue_capacity;
} link_model_config;

typedef enum link_fate {
	LINK_SENT = 0,      /* due at the far end at *due_ns */
	LINK_DROP_AQM,      /* the AQM's early drop */
	LINK_DROP_BUFFER,   /* the drop-tail buffer was full */
	LINK_DROP_OVERFLOW, /* queue_capacity packets were serialising */
	LINK_DROP_CHANNEL,  /* lost on the air (it occupied the link) */
} link_fate;

typedef struct link_model link_model;

/* link_model_config_check returns NULL if config is valid, or the name of
 * the first invalid field ("rate_mbps", "rate_trace", "delay_bins",
 * "channel" if swf_channel_config_check refuses it, ...) with the ranges
 * above. */
const char *link_model_config_check(const link_model_config *config);

/* link_model_new creates a link at time 0; it copies the traces and the
 * channel's intervals, so config need not outlive the call. *out is set
 * only on SWF_OK; SWF_E_INVALID for a config link_model_config_check
 * refuses, SWF_E_NOMEM. */
swf_status link_model_new(const link_model_config *config, link_model **out);
void link_model_free(link_model *model);

/* link_model_offer gives the link a packet of len bytes (>= 1) arriving at
 * now_ns (non-decreasing; an earlier time counts as the latest one seen)
 * and returns its fate; for LINK_SENT, *due_ns is when it reaches the far
 * end, never before the due time of the packet sent before it. */
link_fate link_model_offer(link_model *model, uint64_t now_ns, uint32_t len, uint64_t *due_ns);

/* link_model_last_serialisation gives the serialisation [*start_ns,
 * *end_ns) of the last packet the link took: the last offer that returned
 * LINK_SENT or LINK_DROP_CHANNEL (both 0 before any). With an unlimited
 * rate, both are its arrival. */
void link_model_last_serialisation(const link_model *model, uint64_t *start_ns, uint64_t *end_ns);

/* link_model_free_at_ns is when the link will have serialised everything it
 * took (lost packets included): an offer before then queues. */
uint64_t link_model_free_at_ns(const link_model *model);

/* link_model_queue_bytes is what a link free at free_at_ns still has to
 * serialise at now_ns, in bytes at the rate in force at now_ns (exact at a
 * constant rate). It reads only the configuration, so another thread may
 * call it with a published free_at_ns while offers go on. */
uint64_t link_model_queue_bytes(const link_model *model, uint64_t free_at_ns, uint64_t now_ns);

#endif /* LINK_MODEL_H */
