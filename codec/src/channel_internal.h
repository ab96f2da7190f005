/*
 * channel_internal.h - what channel_stats.c and residual.c need of the
 * channel models beyond swf.h. Not installed; not part of the public API.
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

#endif
