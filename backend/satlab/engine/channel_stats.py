"""A channel's statistics over a duration, computed by libswf's own models
(swf-channel stats, codec/tools): the fraction of the time lost, the bursts of
loss, and what a constant-rate packet stream loses. The channel lab computes
the same figures in the browser (the WebAssembly build) for the same channel
and seed; `satlab channel stats` and /api/channels/stats are the two faces
of this module.
"""

from __future__ import annotations

import json
import subprocess
from typing import Any, Literal

from pydantic import BaseModel, Field, TypeAdapter, ValidationError, ValidationInfo, field_validator

from satlab.engine.plan import channel_spec, derive_seed
from satlab.scenario import (
    Channel,
    GilbertElliottTime,
    Outage,
    Scenario,
    ScenarioError,
    Strict,
    Trace,
    describe,
    trace_problem,
)
from satlab.tools import tool

MAX_DURATION_S = 3600.0
# What one request may cost: the stream's packets, and the changes of the
# channel's decision (steps, outage edges, trace interval edges) to walk.
MAX_STREAM_PACKETS = 10_000_000
MAX_CHANNEL_CHANGES = 10_000_000
# The seed of a channel that gives none, outside a scenario.
DEFAULT_SEED = 1
# A lab's channels by direction, named as a run's plan names their seeds.
DIRECTIONS = {"forward": "path.forward.channel", "return": "path.return.channel",
              "lan-up": "path.lan.up.channel", "lan-down": "path.lan.down.channel"}
Direction = Literal["forward", "return", "lan-up", "lan-down"]


def channel_changes(channel: Channel, duration_s: float) -> float:
    """About how often the channel's decision may change in duration_s: the
    work swf_channel_measure does besides the packets."""
    duration_ms = 1000 * duration_s
    if isinstance(channel, GilbertElliottTime):
        return duration_ms / channel.step_ms
    if isinstance(channel, Outage):
        return 2 * duration_ms / channel.period_ms
    if isinstance(channel, Trace) and channel.trace_period_ms > 0:
        return duration_ms / channel.trace_period_ms  # times the intervals, read by swf-channel
    return 0.0


class Stream(Strict):
    """How long the channel runs, and the constant-rate stream sent through it."""
    duration_s: float = Field(default=60.0, gt=0, le=MAX_DURATION_S)
    packet_bytes: int = Field(default=1400, ge=1, le=65535)
    rate_mbps: float = Field(default=10.0, gt=0, le=1e6)

    @field_validator("rate_mbps")
    @classmethod
    def _packets_within_the_limit(cls, rate_mbps: float, info: ValidationInfo) -> float:
        duration_s, packet_bytes = info.data.get("duration_s"), info.data.get("packet_bytes")
        if duration_s is not None and packet_bytes is not None:
            packets = duration_s * rate_mbps * 1e6 / (8 * packet_bytes)
            if packets > MAX_STREAM_PACKETS:
                raise ValueError(f"sends {packets:.3g} packets of {packet_bytes} bytes in {duration_s} s; "
                                 f"at most {MAX_STREAM_PACKETS:,} are measured: lower the rate or the duration")
        return rate_mbps


class ChannelStatsRequest(Stream):
    """A channel as in the scenario model (its seed, or DEFAULT_SEED), and the stream."""
    channel: Channel


class BurstHistogram(BaseModel):
    bin_width: float  # ms for a time-based model, packets otherwise
    counts: list[int]  # bin i: [i * bin_width, (i + 1) * bin_width) ms, or i + 1 packets; the last also longer


class Bursts(BaseModel):
    unit: Literal["ms", "packets"]
    count: int
    min: float
    mean: float
    max: float
    histogram: BurstHistogram


class ChannelStats(BaseModel):
    """swf-channel's figures (see codec/README.md), with the channel they describe."""
    channel: dict[str, Any]  # as validated: a ge-time channel given by statistics shows its derived p and q
    spec: str  # satlink's --channel for it, seed included
    model: str
    seed: int
    duration_s: float
    rate_mbps: float
    packet_bytes: int
    time_based: bool
    lost_ms: float | None  # None for a per-packet model: it loses no time, only packets
    time_lost_ratio: float | None
    packets: int
    packets_lost: int
    packet_loss_ratio: float
    bursts: Bursts


def measure(channel: Channel, seed: int, stream: Stream, field: str = "channel") -> ChannelStats:
    """Runs swf-channel stats for the channel (with this seed) and the stream.
    ScenarioError naming the field (the channel's path) if a trace file would
    be refused, or duration_s if the channel would change its decision more
    often than MAX_CHANNEL_CHANGES times."""
    if isinstance(channel, Trace) and (problem := trace_problem(channel)):
        raise ScenarioError([f"{field}.file: {problem}"])
    changes = channel_changes(channel, stream.duration_s)
    if changes > MAX_CHANNEL_CHANGES:
        raise ScenarioError([f"duration_s: the channel would change its decision {changes:.3g} times in "
                             f"{stream.duration_s} s; at most {MAX_CHANNEL_CHANGES:,} are measured: "
                             "shorten the duration"])
    spec = channel_spec(channel, seed)
    result = subprocess.run(
        [tool("swf-channel"), "stats", "--channel", spec, "--duration-s", repr(stream.duration_s),
         "--rate-mbps", repr(stream.rate_mbps), "--packet-bytes", str(stream.packet_bytes)],
        capture_output=True, text=True, timeout=120, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"swf-channel stats failed ({result.returncode}): {result.stderr.strip()}")
    figures = json.loads(result.stdout)
    return ChannelStats(channel={**channel.model_dump(mode="json", exclude_none=True), "seed": seed},
                        spec=spec, **figures)


_CHANNEL = TypeAdapter[Channel](Channel)


def parse_channel(data: Any, field: str = "channel") -> Channel:
    """A channel as in the scenario model; ScenarioError naming its fields."""
    try:
        return _CHANNEL.validate_python(data)
    except ValidationError as error:
        raise ScenarioError([describe({**e, "loc": (field, *e["loc"])}) for e in error.errors()]) from None


def lab_channel(scenario: Scenario, direction: Direction, iteration: int = 0) -> tuple[Channel, int, str]:
    """A scenario's channel in one direction, the seed a run's plan gives it
    in this iteration (its own seed, or one derived from the scenario's),
    and the channel's field path."""
    if direction.startswith("lan"):
        if scenario.path.lan is None:
            raise ScenarioError([f"path.lan: the scenario has no LAN segment, so no {direction} channel"])
        channel, field = scenario.path.lan.channel, "path.lan.channel"
    elif direction == "forward":
        channel, field = scenario.path.forward.channel, "path.forward.channel"
    else:
        channel, field = scenario.path.return_.channel, "path.return.channel"
    place = DIRECTIONS[direction]
    seed = channel.seed if channel.seed is not None else derive_seed(scenario.seed, iteration, place)
    return channel, seed, field


def describe_channel(channel: Channel, seed: int) -> str:
    """One line for people: the model and its parameters."""
    fields = channel.model_dump(exclude={"model", "seed"}, exclude_none=True)
    text = f"{channel.model}: " + ", ".join(f"{name} {value:g}" if isinstance(value, float) else f"{name} {value}"
                                            for name, value in fields.items())
    if isinstance(channel, GilbertElliottTime) and channel.loss_time_ratio is not None:
        text = (f"ge-time: p {channel.p:.6g} and q {channel.q:.6g} per {channel.step_ms:g} ms step, derived from "
                f"{100 * channel.loss_time_ratio:g} % of the time lost in bursts of mean {channel.mean_burst_ms:g} ms")
    return f"{text}; seed {seed}"


def histogram_labels(bursts: Bursts) -> list[str]:
    """What each bin of the histogram holds, e.g. "[10, 15) ms", "3 packets", ">= 75 ms"."""
    width, bins = bursts.histogram.bin_width, len(bursts.histogram.counts)
    if bursts.unit == "ms":
        return [f"[{i * width:g}, {(i + 1) * width:g}) ms" for i in range(bins - 1)] + [f">= {(bins - 1) * width:g} ms"]
    return ["1 packet"] + [f"{i + 1} packets" for i in range(1, bins - 1)] + [f">= {bins} packets"]


def report(stats: ChannelStats, channel: Channel) -> str:
    """The figures as lines of text."""
    lines = [f"channel  {describe_channel(channel, stats.seed)}"]
    if stats.time_lost_ratio is not None:
        lines.append(f"time     {100 * stats.time_lost_ratio:.3f} % of {stats.duration_s:g} s lost "
                     f"({stats.lost_ms:g} ms)")
    else:
        lines.append("time     no loss in time: the model decides packet by packet")
    bursts, unit = stats.bursts, stats.bursts.unit
    if bursts.count:
        lines.append(f"bursts   {bursts.count}, {bursts.min:g} to {bursts.max:g} {unit}, mean {bursts.mean:.4g} {unit}")
        counts = [f"{label}: {count}" for label, count in zip(histogram_labels(bursts), bursts.histogram.counts,
                                                               strict=True) if count]
        lines.append("         " + "; ".join(counts))
    else:
        lines.append("bursts   none")
    lines.append(f"stream   {stats.rate_mbps:g} Mbit/s of {stats.packet_bytes}-byte packets: {stats.packets_lost} of "
                 f"{stats.packets} lost ({100 * stats.packet_loss_ratio:.3f} %)")
    return "\n".join(lines)
