"""Loss traces a study's experiment replays (a `trace` channel's file), cut
from libswf's Gilbert-Elliott-in-time model: the lost intervals a ge-time
channel with a given seed makes in its first duration_ms, so that a trace
of seed N is what satlink's ge-time channel of seed N does over that time,
and looped (trace_period_ms) it replays one fixed realisation.

libswf's draws are reproduced here as codec/src/channel.c makes them (its
TinyMT32 with RFC 8681's parameters, codec/src/tinymt32.c; step 0 good,
one draw per later step); tests/studies/test_loss_traces.py holds every
trace to swf-channel's own figures for the same channel and seed.

    python -m satlab.studies.loss_traces DIRECTORY   # (re)writes the traces of STUDY_TRACES into DIRECTORY
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from satlab.scenario import GilbertElliottTime

MASK = 0xFFFFFFFF
MAT1, MAT2, TMAT = 0x8F7011EE, 0xFC78FF1F, 0x3793FDFF


def tinymt32(seed: int) -> Iterator[int]:
    """TinyMT32's outputs for a seed (RFC 8682 with RFC 8681's parameters), as libswf draws them."""
    state = [seed & MASK, MAT1, MAT2, TMAT]
    for i in range(1, 8):
        previous = state[(i - 1) & 3]
        state[i & 3] ^= (i + 1812433253 * (previous ^ (previous >> 30))) & MASK
    if (state[0] & 0x7FFFFFFF) == 0 and state[1] == state[2] == state[3] == 0:
        state = [ord("T"), ord("I"), ord("N"), ord("Y")]

    def next_state() -> None:
        x = (state[0] & 0x7FFFFFFF) ^ state[1] ^ state[2]
        y = state[3]
        x = (x ^ (x << 1)) & MASK
        y ^= (y >> 1) ^ x
        state[0], state[1], state[2], state[3] = state[1], state[2], (x ^ (y << 10)) & MASK, y
        if y & 1:
            state[1] ^= MAT1
            state[2] ^= MAT2

    for _ in range(8):
        next_state()
    while True:
        next_state()
        t0, t1 = state[3], (state[0] + (state[2] >> 8)) & MASK
        t0 ^= t1
        yield t0 ^ TMAT if t1 & 1 else t0


def ge_time_intervals(channel: GilbertElliottTime, seed: int, duration_ms: float) -> list[tuple[float, float]]:
    """The lost intervals [start_ms, end_ms) of the ge-time channel with this
    seed in [0, duration_ms): each run of bad steps, one interval."""
    assert channel.p is not None and channel.q is not None  # the model derives them from the statistics
    to_bad, to_good = int(channel.p * 4294967296.0), int(channel.q * 4294967296.0)
    draws = tinymt32(seed)
    intervals: list[tuple[float, float]] = []
    bad, start = False, 0.0
    steps = int(duration_ms // channel.step_ms)
    for step in range(1, steps + 1):
        at_ms = step * channel.step_ms
        now_bad = step < steps and (next(draws) >= to_good if bad else next(draws) < to_bad)
        if now_bad and not bad:
            start = at_ms
        elif bad and not now_bad:
            intervals.append((start, at_ms))
        bad = now_bad
    return intervals


@dataclass(frozen=True)
class TraceSet:
    """Traces of one channel, one per seed, named prefix-<seed>.txt."""
    prefix: str
    channel: GilbertElliottTime
    seeds: tuple[int, ...]
    duration_ms: float

    def file_name(self, seed: int) -> str:
        return f"{self.prefix}-{seed:02d}.txt"

    def text(self, seed: int) -> str:
        """The trace file of a seed: a comment saying what made it, then "start_ms end_ms" lines."""
        intervals = ge_time_intervals(self.channel, seed, self.duration_ms)
        lost_ms = sum(end - start for start, end in intervals)
        header = (f"# The first {self.duration_ms / 1000:g} s of the ge-time channel {self.channel.loss_time_ratio} "
                  f"of the time lost, mean burst {self.channel.mean_burst_ms} ms, {self.channel.step_ms:g} ms steps, "
                  f"seed {seed}:\n# {len(intervals)} bursts, {lost_ms:g} ms lost "
                  f"({100 * lost_ms / self.duration_ms:.2f} %). Written by satlab.studies.loss_traces.\n")
        return header + "".join(f"{start:g} {end:g}\n" for start, end in intervals)


# Petrou et al.'s optical channel as measured (2.56 % of the time lost, bursts of 16.7 ms on a 10 ms grid):
# twenty 30 s traces, the length of the trace the study shows (labs/studies/petrou2022, H3).
STUDY_TRACES = {
    "petrou2022": TraceSet("optical-30s-seed", GilbertElliottTime(model="ge-time", loss_time_ratio=0.0256,
                                                                    mean_burst_ms=16.7, step_ms=10),
                           tuple(range(1, 21)), 30_000),
}


def write(traces: TraceSet, directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for seed in traces.seeds:
        file = directory / traces.file_name(seed)
        file.write_text(traces.text(seed))
        written.append(file)
    return written


if __name__ == "__main__":
    write(STUDY_TRACES["petrou2022"], Path(sys.argv[1]))
