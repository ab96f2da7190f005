/*
 * channel_internal.h - what channel_stats.c needs of the channel models
 * beyond swf.h. Not installed; not part of the public API.
 */
#ifndef SWF_CHANNEL_INTERNAL_H
#define SWF_CHANNEL_INTERNAL_H

#include <stdint.h>

#include "swf.h"

/* x milliseconds as whole microseconds: the binary64 product x * 1000.0,
 * rounded to the nearest integer, halves up (the rule of channel.c). */
static inline uint64_t swf_us_from_ms(double ms)
{
	double us = ms * 1000.0;
	uint64_t whole = (uint64_t)us;
	return us - (double)whole >= 0.5 ? whole + 1 : whole;
}

/* swf_channel_time_based tells whether a kind decides by the send time alone
 * (perfect, ge-time, outage, trace), so that its losses form intervals of
 * time, the same whatever times the channel is asked about. */
bool swf_channel_time_based(swf_channel_kind kind);

/* swf_channel_decision_end_us returns the first time after the latest one
 * the channel was asked about at which its decision may change: the end of
 * the step, of the outage or the gap before it, of the trace interval or the
 * gap before the next one; UINT64_MAX if it never changes again. Only for a
 * time-based kind. */
uint64_t swf_channel_decision_end_us(const swf_channel *channel);

#endif
