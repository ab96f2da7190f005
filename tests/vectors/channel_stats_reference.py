"""An independent Python reference of swf_channel_measure, for test vectors.

Written from codec/include/swf.h (section "Channel statistics"), on top of
channel_reference.py's models, sharing no code with the C library: a
time-based model's lost time is built here as explicit intervals from each
model's definition (bad steps, outages, trace intervals repeated), where the
C library walks the model from one change of its decision to the next. A
packet decided by overlap is lost if its time on the air meets one of those
intervals, where the C library asks the model at each change within it.
Plain and slow on purpose.
"""

from __future__ import annotations

import math
from typing import Any

from channel_reference import (
    Channel,
    GilbertElliottTime,
    Outage,
    Params,
    ms_to_us,
)

BURST_BINS = 16
BURST_BIN_MS = 5.0
TIME_BASED = {"perfect", "ge_time", "outage", "trace"}


def lost_intervals_us(kind: str, seed: int, params: Params, duration_us: int) -> list[tuple[int, int]]:
    """The lost time of a time-based model within [0, duration_us), as
    sorted [start, end) intervals (touching ones not yet merged)."""
    intervals = []
    if kind == "ge_time":
        model = GilbertElliottTime(seed, params)
        for start in range(0, duration_us, model.step_us):
            if model.lost(start):
                intervals.append((start, start + model.step_us))
    elif kind == "outage":
        model = Outage(seed, params)
        n = 0
        while model.phase + n * model.period < duration_us:
            start = model._start(n)
            intervals.append((start, start + model.duration))
            n += 1
    elif kind == "trace":
        trace = [(ms_to_us(i["start_ms"]), ms_to_us(i["end_ms"])) for i in params["intervals"]]
        period_ms = params.get("trace_period_ms", 0.0)
        period = ms_to_us(period_ms) if period_ms > 0 else 0
        repeats = math.ceil(duration_us / period) if period else 1
        intervals = [(start + k * period, end + k * period)
                     for k in range(repeats) for start, end in trace]
    clipped = [(start, min(end, duration_us)) for start, end in intervals if start < duration_us]
    return [(start, end) for start, end in clipped if start < end]


def lost_by_overlap(kind: str, seed: int, params: Params, starts: list[int], air_us: int) -> list[bool]:
    """Whether each packet, on the air during [start, start + air_us) (an
    instant if air_us is 0), is lost by overlap: for a time-based model, if
    that time meets one of the model's lost intervals; a per-packet model
    decides at the start. starts must not decrease."""
    if kind not in TIME_BASED:
        channel = Channel(kind, seed, params)
        return [channel.lost(start) for start in starts]
    horizon = (starts[-1] if starts else 0) + max(air_us, 1)
    intervals = lost_intervals_us(kind, seed, params, horizon)  # sorted, none overlapping
    decisions, first = [], 0
    for start in starts:
        while first < len(intervals) and intervals[first][1] <= start:
            first += 1
        decisions.append(first < len(intervals) and intervals[first][0] < start + max(air_us, 1))
    return decisions


def merged(intervals: list[tuple[int, int]]) -> list[int]:
    """Lengths of the bursts: intervals that touch or overlap make one."""
    bursts: list[list[int]] = []
    for start, end in intervals:
        if bursts and start <= bursts[-1][1]:
            bursts[-1][1] = max(bursts[-1][1], end)
        else:
            bursts.append([start, end])
    return [end - start for start, end in bursts]


def loss_runs(decisions: list[bool]) -> list[int]:
    """Lengths of the runs of consecutive losses."""
    runs, length = [], 0
    for lost in decisions + [False]:
        if lost:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    return runs


def measure(kind: str, seed: int, params: Params, stream: dict[str, Any]) -> dict[str, Any]:
    """The figures of swf_channel_stats, named as its fields; NaN as None."""
    duration_us = ms_to_us(stream["duration_ms"])
    bits = 8.0 * stream["packet_bytes"]
    starts = []
    while (t_us := int(len(starts) * bits / stream["rate_mbps"])) < duration_us:
        starts.append(t_us)
    if stream.get("loss_rule", "start") == "overlap":
        link_rate_mbps = stream.get("link_rate_mbps") or stream["rate_mbps"]
        decisions = lost_by_overlap(kind, seed, params, starts, math.ceil(bits / link_rate_mbps))
    else:
        channel = Channel(kind, seed, params)
        decisions = [channel.lost(start) for start in starts]

    time_based = kind in TIME_BASED
    if time_based:
        bursts = merged(lost_intervals_us(kind, seed, params, duration_us))
        unit, first, width = 1000.0, 0, ms_to_us(BURST_BIN_MS)
    else:
        bursts = loss_runs(decisions)
        unit, first, width = 1.0, 1, 1
    histogram = [0] * BURST_BINS
    for length in bursts:
        histogram[min((length - first) // width, BURST_BINS - 1)] += 1
    lost_us = sum(bursts) if time_based else 0
    return {
        "time_based": time_based,
        "duration_us": duration_us,
        "lost_us": lost_us,
        "time_lost_ratio": lost_us / duration_us if time_based else None,
        "packets": len(decisions),
        "packets_lost": sum(decisions),
        "packet_loss_ratio": sum(decisions) / len(decisions) if decisions else 0.0,
        "bursts": len(bursts),
        "burst_min": min(bursts, default=0) / unit,
        "burst_mean": sum(bursts) / len(bursts) / unit if bursts else 0.0,
        "burst_max": max(bursts, default=0) / unit,
        "burst_histogram": histogram,
    }
