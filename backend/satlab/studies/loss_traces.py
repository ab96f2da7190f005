"""Loss traces a study's experiment replays (a `trace` channel's file), cut
from libswf's Gilbert-Elliott-in-time model: the lost intervals a ge-time
channel with a given seed makes in its first duration_ms, so that a trace
of seed N is what satlink's ge-time channel of seed N does over that time,
and looped (trace_period_ms) it replays one fixed realisation.

The intervals are libswf's own: `swf-channel intervals` (codec/tools) walks
the channel satlink would run; tests/studies/test_loss_traces.py holds every
trace to swf-channel's figures for the same channel and seed.

    python -m satlab.studies.loss_traces DIRECTORY   # (re)writes the traces of STUDY_TRACES into DIRECTORY
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from satlab.engine.plan import channel_spec
from satlab.scenario import GilbertElliottTime
from satlab.tools import tool


def lost_intervals_text(channel: GilbertElliottTime, seed: int, duration_ms: float) -> str:
    """The lost intervals of the channel with this seed in [0, duration_ms),
    as swf-channel intervals prints them: a "start_ms end_ms" line each."""
    result = subprocess.run(
        [tool("swf-channel"), "intervals", "--channel", channel_spec(channel, seed),
         "--duration-s", repr(duration_ms / 1000)], capture_output=True, text=True, timeout=120, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"swf-channel intervals failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def parse_intervals(text: str) -> list[tuple[float, float]]:
    """[start_ms, end_ms) pairs of "start_ms end_ms" lines."""
    return [(float(start), float(end)) for start, end in (line.split() for line in text.splitlines())]


def ge_time_intervals(channel: GilbertElliottTime, seed: int, duration_ms: float) -> list[tuple[float, float]]:
    """The lost intervals [start_ms, end_ms) of the ge-time channel with this
    seed in [0, duration_ms): each run of bad steps, one interval."""
    return parse_intervals(lost_intervals_text(channel, seed, duration_ms))


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
        lines = lost_intervals_text(self.channel, seed, self.duration_ms)
        intervals = parse_intervals(lines)
        lost_ms = sum(end - start for start, end in intervals)
        header = (f"# The first {self.duration_ms / 1000:g} s of the ge-time channel {self.channel.loss_time_ratio} "
                  f"of the time lost, mean burst {self.channel.mean_burst_ms} ms, {self.channel.step_ms:g} ms steps, "
                  f"seed {seed}:\n# {len(intervals)} bursts, {lost_ms:g} ms lost "
                  f"({100 * lost_ms / self.duration_ms:.2f} %). Written by satlab.studies.loss_traces.\n")
        return header + lines


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
