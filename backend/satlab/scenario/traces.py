"""The files a scenario names, read as satlink reads them: a loss trace
(channel model trace), a delay trace (delay_variation model trace) and a
rate trace. The model only names them; whether each reads is a question for
the host that runs the scenario (satlab.engine.preflight), asked here."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

from satlab.scenario.channels import Trace
from satlab.scenario.satellite_path import DelayVariation, RateTrace

MAX_TIME_MS = 1e12  # libswf's bound on every time (codec/src/channel.c)


class _Unreadable(ValueError):
    """A trace file that cannot be read (the message says why)."""


def _number_pairs(file: Path) -> Iterator[tuple[int, float, float]]:
    """The lines of a trace file as satlink reads them (codec/tools/tool.c
    read_pairs: '#' starts a comment, blank lines are skipped): (line number,
    first, second), both NaN where a line is not two numbers."""
    try:
        lines = file.read_text(errors="replace").splitlines()
    except OSError as error:
        raise _Unreadable(f"{file} cannot be read ({error.strerror})") from None
    for number, line in enumerate(lines, 1):
        fields = line.partition("#")[0].split()
        if not fields:
            continue
        try:
            first, second = (float(field) for field in fields) if len(fields) == 2 else (math.nan, math.nan)
        except ValueError:
            first = second = math.nan
        yield number, first, second


def trace_problem(trace: Trace) -> str | None:
    """Why satlink would refuse trace.file (codec/tools/tool.c read_trace and
    libswf's check: lines "start_ms end_ms", intervals in order without
    overlap, within trace_period_ms if it repeats), or None."""
    end_ms = 0.0
    try:
        for number, start_ms, stop_ms in _number_pairs(trace.file):
            if not (end_ms <= start_ms < stop_ms <= MAX_TIME_MS):
                return (f"{trace.file} line {number} is not a loss interval \"start_ms end_ms\" after the one "
                        f"before (0 <= start < end <= {MAX_TIME_MS:g}, in order, without overlap)")
            end_ms = stop_ms
    except _Unreadable as error:
        return str(error)
    if 0 < trace.trace_period_ms < end_ms:
        return f"trace_period_ms {trace.trace_period_ms} ends before the last interval of {trace.file} ({end_ms} ms)"
    return None


def step_trace_problem(file: Path, value_name: str, low: float, low_inclusive: bool, high: float) -> str | None:
    """Why satlink would refuse file as a step trace (codec/tools/satlink.c
    read_step_trace: lines "t_ms value" from t_ms 0 forward in time, each
    value above low (or equal, if low_inclusive) and at most high), or None."""
    last_ms = -math.inf
    try:
        for number, t_ms, value in _number_pairs(file):
            in_time = t_ms == 0 if last_ms == -math.inf else last_ms < t_ms <= MAX_TIME_MS
            in_range = (value >= low if low_inclusive else value > low) and value <= high
            if not (in_time and in_range):
                return (f"{file} line {number} is not a step \"t_ms {value_name}\" after the one before (from "
                        f"t_ms 0, forward in time, {value_name} {'>=' if low_inclusive else '>'} {low:g} "
                        f"and <= {high:g})")
            last_ms = t_ms
    except _Unreadable as error:
        return str(error)
    return None if last_ms > -math.inf else f"{file} has no \"t_ms {value_name}\" line"


def lowest_rate_mbps(trace: RateTrace) -> float | None:
    """The lowest rate a rate trace holds the link to (what bounds a
    transfer's time over it), or None if the file is not a rate trace
    (file_problem says why)."""
    if file_problem(trace) is not None:
        return None
    return min(rate for _, _, rate in _number_pairs(trace.file))


def file_problem(part: Trace | DelayVariation | RateTrace) -> str | None:
    """Why satlink would refuse the file a part of the scenario names (its
    loss trace, --delay-trace or --rate-trace), or None (also for a delay
    variation without a file)."""
    if isinstance(part, Trace):
        return trace_problem(part)
    if isinstance(part, DelayVariation):
        return None if part.file is None else step_trace_problem(part.file, "delay_ms", 0, True, 1e5)
    return step_trace_problem(part.file, "rate_mbps", 0, False, 1e6)
