"""The typed scenario: what a lab file (labs/*.yaml) or an API request describes.

Validation happens here, before anything touches the system; every error names
the dotted field path and what is allowed (see `ScenarioError`).
"""

from __future__ import annotations

import itertools
import math
import re
import reprlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from satlab import tcp_congestion
from satlab.transports import TRANSPORTS

MAX_SIZE_BYTES = 10 << 30  # a 10 GiB download takes over 2 hours at 12 Mbit/s
MAX_DURATION_S = 3600.0
MAX_FLOWS = 16
MAX_CROSS_TRAFFIC = 8
SEED_MAX = 2**32 - 1  # libswf seeds are uint32
# Untrusted input nests no deeper than this (a scenario nests 5 levels):
# deeper data is refused before anything walks it recursively.
MAX_DEPTH = 32
# swf-tunnel's --symbol-bytes (codec/tools/swf-tunnel.c): at least 578, an
# inner MTU of 576 (IPv4's minimum), and a repair datagram (symbol + IPv4,
# UDP and repair headers, OUTER_OVERHEAD_BYTES, + the 16-byte tag of the key
# every run's tunnel uses, satlab/engine/tunnel.py) within the path's MTU.
TUNNEL_MIN_SYMBOL_BYTES = 578
TUNNEL_OUTER_OVERHEAD_BYTES = 41 + 16
PATH_MTU = 1500  # of every link of a run (plan.MTU)
TUNNEL_MAX_SYMBOL_BYTES = PATH_MTU - TUNNEL_OUTER_OVERHEAD_BYTES


def field_error(field: str, message: str, value: Any) -> ValidationError:
    """A refusal that names its own field (loc), raised from a model validator."""
    return ValidationError.from_exception_data("channel", [InitErrorDetails(
        type=PydanticCustomError("value_error", message), loc=(field,), input=value)])


class Strict(BaseModel):
    """Unknown fields are refused (only a field's alias is accepted: `return`,
    not `return_`) and types are strict: no text or bool for a number."""
    model_config = ConfigDict(extra="forbid", strict=True)


Probability = Annotated[float, Field(ge=0, le=1)]
Seed = Annotated[int, Field(ge=0, le=SEED_MAX)]


class ChannelBase(Strict):
    # None: derived from the scenario's seed and this channel's place (see satlab.engine.plan).
    seed: Seed | None = None


class Perfect(ChannelBase):
    model: Literal["perfect"] = "perfect"


class Bernoulli(ChannelBase):
    model: Literal["bernoulli"]
    loss: Probability


class GilbertElliottPacket(ChannelBase):
    model: Literal["ge-packet"]
    p: Probability
    q: Probability
    loss_good: Probability = 0.0
    loss_bad: Probability = 1.0


class GilbertElliottTime(ChannelBase):
    """Gilbert-Elliott in time: the state is drawn again every step_ms; a
    packet sent in a bad step is lost. Give p and q (per step), or the
    statistics a measurement reports, from which p and q follow: the
    stationary bad-time fraction is p / (p + q) and a burst lasts
    step_ms / q on average, so q = step_ms / mean_burst_ms and
    p = q * loss_time_ratio / (1 - loss_time_ratio)."""
    model: Literal["ge-time"]
    p: Probability | None = None
    q: Probability | None = None
    step_ms: float = Field(ge=0.001, le=1e9)
    loss_time_ratio: float | None = Field(default=None, gt=0, lt=1)  # fraction of the time lost
    mean_burst_ms: float | None = Field(default=None, gt=0, le=1e9)

    # Each check sits on the field it refuses (see FlowGroup).
    @field_validator("mean_burst_ms")
    @classmethod
    def _burst_of_whole_steps(cls, mean_burst_ms: float | None, info: ValidationInfo) -> float | None:
        step_ms = info.data.get("step_ms")
        if mean_burst_ms is not None and step_ms is not None and mean_burst_ms < step_ms:
            raise ValueError(f"must be >= step_ms ({step_ms}): a burst lasts at least one step")
        return mean_burst_ms

    @model_validator(mode="after")
    def _p_and_q(self) -> GilbertElliottTime:
        statistics = (self.loss_time_ratio, self.mean_burst_ms)
        if None in statistics:
            if statistics != (None, None):
                missing = "loss_time_ratio" if self.loss_time_ratio is None else "mean_burst_ms"
                raise field_error(missing, "give loss_time_ratio and mean_burst_ms together", None)
            for name in ("p", "q"):
                if getattr(self, name) is None:
                    raise field_error(name, "is required (or give loss_time_ratio and mean_burst_ms)", None)
            return self
        assert self.loss_time_ratio is not None and self.mean_burst_ms is not None
        q = self.step_ms / self.mean_burst_ms
        p = q * self.loss_time_ratio / (1 - self.loss_time_ratio)
        if p > 1:
            raise field_error("loss_time_ratio", f"with mean_burst_ms {self.mean_burst_ms} needs p = {p:.3g} "
                               "> 1 per step; lower it or lengthen the bursts", self.loss_time_ratio)
        # A stored scenario holds the derived p and q beside the statistics: they must agree.
        for name, derived in (("p", p), ("q", q)):
            given = getattr(self, name)
            if given is not None and not math.isclose(given, derived, rel_tol=1e-9, abs_tol=1e-12):
                raise field_error(name, f"is {given} but loss_time_ratio and mean_burst_ms give {derived:.6g}; "
                                   "give p and q, or the statistics", given)
        self.p, self.q = p, q
        return self


class Outage(ChannelBase):
    model: Literal["outage"]
    period_ms: float = Field(ge=0.001, le=1e9)
    duration_ms: float = Field(ge=0, le=1e9)
    phase_ms: float = Field(default=0.0, ge=0, le=1e9)
    jitter_ms: float = Field(default=0.0, ge=0, le=1e9)

    @model_validator(mode="after")
    def _fits_in_period(self) -> Outage:
        if self.duration_ms + self.jitter_ms > self.period_ms:
            raise ValueError("duration_ms + jitter_ms must be <= period_ms, got "
                             f"{self.duration_ms} + {self.jitter_ms} > {self.period_ms}")
        return self


class Trace(ChannelBase):
    model: Literal["trace"]
    file: Annotated[Path, Field(strict=False)]  # lines "start_ms end_ms": packets sent in [start, end) are lost
    trace_period_ms: float = Field(default=0.0, ge=0, le=1e9)

    def file_problem(self) -> str | None:
        return trace_problem(self)


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


Channel = Annotated[Perfect | Bernoulli | GilbertElliottPacket | GilbertElliottTime | Outage | Trace,
                    Field(discriminator="model")]


class Buffer(Strict):
    """The drop-tail limit of a bottleneck: exactly one of the three."""
    bytes: int | None = Field(default=None, ge=1500, le=1 << 30)
    packets: int | None = Field(default=None, ge=1, le=16384)
    bdp: float | None = Field(default=None, gt=0, le=100)

    @model_validator(mode="after")
    def _exactly_one(self) -> Buffer:
        given = [name for name in ("bytes", "packets", "bdp") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of bytes, packets or bdp (a multiple of the "
                             f"bandwidth-delay product), got {given or 'none'}")
        return self


class Aqm(Strict):
    """Early drop in front of the drop-tail buffer (satlink only): while more
    than the threshold waits (bytes not yet serialised), each arrival is
    dropped with probability drop_ratio. The threshold in bytes, or as a
    ratio of the buffer: exactly one."""
    threshold_bytes: int | None = Field(default=None, ge=0, le=1 << 30)
    threshold_ratio: float | None = Field(default=None, gt=0, lt=1)
    drop_ratio: Probability
    # None: derived from the scenario's seed and this AQM's place (see satlab.engine.plan).
    seed: Seed | None = None

    @model_validator(mode="after")
    def _one_threshold(self) -> Aqm:
        if (self.threshold_bytes is None) == (self.threshold_ratio is None):
            raise ValueError("give exactly one of threshold_bytes or threshold_ratio (of the buffer)")
        return self


class DelayBin(Strict):
    """A range of the extra delay, picked with probability weight / (the sum
    of the weights); the delay is uniform inside it."""
    weight: float = Field(gt=0, le=1e9)
    low_ms: float = Field(ge=0, le=10_000)
    high_ms: float = Field(ge=0, le=10_000)

    @field_validator("high_ms")
    @classmethod
    def _not_below_low(cls, high_ms: float, info: ValidationInfo) -> float:
        low_ms = info.data.get("low_ms")
        if low_ms is not None and high_ms < low_ms:
            raise ValueError(f"must be >= low_ms ({low_ms})")
        return high_ms


class DelayVariation(Strict):
    """An extra one-way delay on top of delay_ms that varies in time
    (satlink only). Model distribution: drawn from the bins and held for
    step_ms. Model trace: read from file, lines "t_ms delay_ms" from t_ms 0,
    the trace starting over every trace_period_ms if > 0. Packets never
    overtake one another: after the delay falls, a packet waits for the one
    before it, as on a FIFO link."""
    model: Literal["distribution", "trace"]
    bins: list[DelayBin] | None = Field(default=None, min_length=1, max_length=64)
    step_ms: float | None = Field(default=None, ge=0.001, le=1e9)
    # None: derived from the scenario's seed and this variation's place (see satlab.engine.plan).
    seed: Seed | None = None
    file: Annotated[Path, Field(strict=False)] | None = None
    trace_period_ms: float = Field(default=0.0, ge=0, le=1e9)

    @model_validator(mode="after")
    def _fields_of_the_model(self) -> DelayVariation:
        fields = {"distribution": ("bins", "step_ms", "seed"), "trace": ("file", "trace_period_ms")}
        required = {"distribution": ("bins", "step_ms"), "trace": ("file",)}
        for name in required[self.model]:
            if getattr(self, name) is None:
                raise field_error(name, f"is required with model {self.model}", None)
        for model, names in fields.items():
            for name in names:
                if model != self.model and getattr(self, name) not in (None, 0.0):
                    raise field_error(name, f"applies to model {model} only", getattr(self, name))
        return self

    def file_problem(self) -> str | None:
        """Why satlink would refuse the file (its --delay-trace), or None."""
        return None if self.file is None else step_trace_problem(self.file, "delay_ms", 0, True, 1e5)


class RateTrace(Strict):
    """The rate in force over time (satlink only): file has lines "t_ms
    rate_mbps" from t_ms 0, the trace starting over every trace_period_ms if
    > 0. The direction's rate_mbps stays its nominal rate (the BDP, a buffer
    in BDP, link utilisation)."""
    file: Annotated[Path, Field(strict=False)]
    trace_period_ms: float = Field(default=0.0, ge=0, le=1e9)

    def file_problem(self) -> str | None:
        """Why satlink would refuse the file (its --rate-trace), or None."""
        return step_trace_problem(self.file, "rate_mbps", 0, False, 1e6)


class Direction(Strict):
    """One direction of the satellite link."""
    rate_mbps: float = Field(gt=0, le=10_000)
    delay_ms: float = Field(ge=0, le=10_000)
    # The link sends frames on this period (a DVB-S2 forward link's BBFrames, a
    # DVB-RCS2 return link's superframes); the channel loses whole frames. None:
    # packet by packet. satlink only (codec/README.md, satlink).
    frame_ms: float | None = Field(default=None, ge=0.001, le=10_000)
    buffer: Buffer = Buffer(bdp=1.0)
    channel: Channel = Perfect()
    aqm: Aqm | None = None
    delay_variation: DelayVariation | None = None
    rate_trace: RateTrace | None = None

    @field_validator("aqm")
    @classmethod
    def _threshold_within_the_buffer(cls, aqm: Aqm | None, info: ValidationInfo) -> Aqm | None:
        buffer = info.data.get("buffer")
        if (aqm is not None and aqm.threshold_bytes is not None and buffer is not None
                and buffer.bytes is not None and aqm.threshold_bytes >= buffer.bytes):
            raise ValueError(f"threshold_bytes must be below the buffer's {buffer.bytes} bytes, or the AQM "
                             "never acts")
        return aqm


class Lan(Strict):
    """The segment between client and terminal (e.g. Wi-Fi): its channel
    applies to both directions, each with its own seed."""
    rate_mbps: float | None = Field(default=None, gt=0, le=10_000)
    delay_ms: float = Field(default=0.0, ge=0, le=10_000)
    channel: Channel = Perfect()


# The loss models netem's `loss` option expresses (plan.netem_loss_args); the others need satlink.
NETEM_CHANNELS = ("perfect", "bernoulli", "ge-packet")
# What else of a Direction needs satlink, and why netem cannot do it.
NETEM_CANNOT = {"frame_ms": "netem cannot send frames",
                "aqm": "netem has no AQM",
                "delay_variation": "netem cannot vary the delay without reordering or from a trace",
                "rate_trace": "netem cannot change its rate over time"}


class SatellitePath(Strict):
    forward: Direction  # gateway -> terminal: what a download crosses
    return_: Direction = Field(alias="return")
    lan: Lan | None = None
    link_backend: Literal["satlink", "netem"] = "satlink"

    @model_validator(mode="after")
    def _netem_expresses_the_channels(self) -> SatellitePath:
        if self.link_backend != "netem":
            return self
        problems = [InitErrorDetails(type=PydanticCustomError(
                        "netem_channel", "netem cannot express this loss model; use link_backend satlink"),
                        loc=(name, "channel"), input=direction.channel.model)
                    for name, direction in (("forward", self.forward), ("return", self.return_))
                    if direction.channel.model not in NETEM_CHANNELS]
        problems += [InitErrorDetails(type=PydanticCustomError(
                         f"netem_{field}", f"{reason}; use link_backend satlink"),
                         loc=(name, field), input=value.model_dump(mode="json", exclude_defaults=True)
                         if isinstance(value, BaseModel) else value)
                     for name, direction in (("forward", self.forward), ("return", self.return_))
                     for field, reason in NETEM_CANNOT.items()
                     if (value := getattr(direction, field)) is not None]
        if problems:
            # A ValidationError keeps each problem's own field (path.forward.channel): a
            # ValueError would name only `path`.
            raise ValidationError.from_exception_data(type(self).__name__, problems)
        return self


class Tunnel(Strict):
    """The FEC tunnel S(k,z) between terminal and gateway."""
    k: int = Field(ge=1, le=1000)
    z: int = Field(ge=1, le=1000)
    symbol_bytes: int | None = Field(default=None, ge=TUNNEL_MIN_SYMBOL_BYTES, le=TUNNEL_MAX_SYMBOL_BYTES)
    flush_ms: float = Field(default=10.0, ge=0, le=10_000)
    protect: str = "all"  # all, none, or a comma list of tcp or udp, each with an optional :port

    @field_validator("protect")
    @classmethod
    def _protect_rules(cls, protect: str) -> str:
        if protect in ("all", "none"):
            return protect
        for rule in protect.split(","):
            protocol, colon, port = rule.partition(":")
            if protocol not in ("tcp", "udp") or (colon and not (re.fullmatch(r"[0-9]{1,5}", port)
                                                                  and 1 <= int(port) <= 65535)):
                raise ValueError(f"must be all, none, or a comma list of tcp or udp, each with an optional "
                                 f":port from 1 to 65535 (tcp,udp:443); {shorten(rule)} is not one")
        return protect

    @model_validator(mode="after")
    def _k_within_z(self) -> Tunnel:
        if self.k > self.z:
            raise ValueError(f"k must be <= z (a repair covers the last z sources), got k={self.k} z={self.z}")
        return self


# A QUIC receiver's flow-control window: at least one full-size packet's
# payload (a smaller window stalls every packet), at most 1 GiB (a GEO path at
# 10 Gbit/s and 700 ms RTT needs under 900 MB; both stacks take 62-bit values,
# but each end buffers up to a window per stream).
MIN_WINDOW_BYTES = 1200
MAX_WINDOW_BYTES = 1 << 30
WindowBytes = Annotated[int, Field(ge=MIN_WINDOW_BYTES, le=MAX_WINDOW_BYTES)]


class FlowControl(Strict):
    """The receiver's QUIC flow-control windows, as its transport parameters
    announce them (RFC 9000, 18.2): initial_max_data for the connection,
    initial_max_stream_data for the stream. None: the transport's default
    (16 MiB, above any lab path's bandwidth-delay product)."""
    connection_bytes: WindowBytes | None = None
    stream_bytes: WindowBytes | None = None


class FlowGroup(Strict):
    """`count` identical flows starting together at start_s."""
    transport: Literal["tcp", "quic-picoquic", "quic-ngtcp2"] = "tcp"
    cc: str = "cubic"
    hystart: bool | None = None  # TCP CUBIC only; None: the host's setting
    size_bytes: int | None = Field(default=None, ge=1, le=MAX_SIZE_BYTES)
    duration_s: float | None = Field(default=None, gt=0, le=MAX_DURATION_S)
    count: int = Field(default=1, ge=1, le=MAX_FLOWS)
    start_s: float = Field(default=0.0, ge=0, le=MAX_DURATION_S)
    direction: Literal["download", "upload"] = "download"
    flow_control: FlowControl | None = None  # QUIC only; None: the transport's defaults
    # QUIC only. on: a warm-up connection to the same server leaves a session
    # ticket that the measured connection resumes, sending its request in 0-RTT;
    # bdp: it also carries the warm-up's BDP, so the measured one starts at that
    # rate (draft-kuhn-quic-0rtt-bdp).
    zero_rtt: Literal["off", "on", "bdp"] = "off"

    # Checks that involve other fields sit on the field they refuse, so that an
    # error names it (flows.0.cc); each sees the fields declared before it.
    @field_validator("cc")
    @classmethod
    def _cc_of_the_transport(cls, cc: str, info: ValidationInfo) -> str:
        transport = info.data.get("transport")
        if transport is None:
            return cc
        known = TRANSPORTS[transport].congestion_controls
        # Kernel TCP runs what this host's kernel has or can load (detected once per process).
        allowed = tcp_congestion.host_kernel().runnable(known) if transport == "tcp" else known
        if cc not in allowed:
            reason = (tcp_congestion.host_kernel().problem(cc) if cc in known
                      else f"is not a congestion control of {transport}")
            raise ValueError(f"{reason}; allowed: {', '.join(allowed)}")
        return cc

    @field_validator("hystart")
    @classmethod
    def _hystart_of_cubic(cls, hystart: bool | None, info: ValidationInfo) -> bool | None:
        if "cc" not in info.data:  # the cc is refused already
            return hystart
        if hystart is not None and (info.data.get("transport"), info.data["cc"]) != ("tcp", "cubic"):
            raise ValueError("applies to transport tcp with cc cubic only; give null for the others")
        return hystart

    @field_validator("duration_s")
    @classmethod
    def _duration_of_the_transport(cls, duration_s: float | None, info: ValidationInfo) -> float | None:
        transport = info.data.get("transport")
        if duration_s is not None and transport is not None and not TRANSPORTS[transport].durations:
            raise ValueError(f"{transport} transfers a size; give size_bytes, not duration_s")
        return duration_s

    @field_validator("direction")
    @classmethod
    def _direction_of_the_transport(cls, direction: str, info: ValidationInfo) -> str:
        transport = info.data.get("transport")
        if direction == "upload" and transport is not None and not TRANSPORTS[transport].uploads:
            raise ValueError(f"{transport} runs downloads only; allowed: download")
        return direction

    @field_validator("flow_control")
    @classmethod
    def _flow_control_of_quic(cls, flow_control: FlowControl | None, info: ValidationInfo) -> FlowControl | None:
        transport = info.data.get("transport")
        if flow_control is not None and transport is not None and not TRANSPORTS[transport].flow_control:
            raise ValueError(f"{transport} has no QUIC flow-control windows; give null "
                             "(Linux TCP's window follows its buffers)")
        return flow_control

    @field_validator("zero_rtt", mode="before")
    @classmethod
    def _zero_rtt_from_yaml_booleans(cls, zero_rtt: Any) -> Any:
        # YAML 1.1 reads a bare on / off as true / false.
        return ("on" if zero_rtt else "off") if isinstance(zero_rtt, bool) else zero_rtt

    @field_validator("zero_rtt")
    @classmethod
    def _zero_rtt_of_the_transport(cls, zero_rtt: str, info: ValidationInfo) -> str:
        transport = info.data.get("transport")
        if transport is None:
            return zero_rtt
        modes = TRANSPORTS[transport].zero_rtt_modes
        if zero_rtt not in modes:
            raise ValueError(f"{transport} cannot run zero_rtt {zero_rtt}; allowed: {', '.join(modes)}")
        return zero_rtt

    @model_validator(mode="after")
    def _size_or_duration(self) -> FlowGroup:
        if (self.size_bytes is None) == (self.duration_s is None):
            raise ValueError("give exactly one of size_bytes or duration_s")
        return self


class CrossTraffic(Strict):
    """Background traffic across one direction of the satellite link: a
    constant-rate UDP stream (iperf3 -u) that competes with the flows, on the
    return link with a download's ACKs. It counts in no flow summary."""
    link: Literal["return", "forward"] = "return"  # return: the client sends; forward: the server does
    rate_mbps: float = Field(gt=0, le=10_000)  # of UDP payload (iperf3 --bitrate)
    start_s: float = Field(default=0.0, ge=0, le=MAX_DURATION_S)
    duration_s: float | None = Field(default=None, gt=0, le=MAX_DURATION_S)  # None: until the flows are done


class Scenario(Strict):
    name: str = Field(default="unnamed", pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    description: str = ""
    seed: Seed = 1
    iterations: int = Field(default=1, ge=1, le=1000)
    path: SatellitePath
    tunnel: Tunnel | None = None
    flows: list[FlowGroup] = Field(min_length=1)
    cross_traffic: list[CrossTraffic] = Field(default_factory=list, max_length=MAX_CROSS_TRAFFIC)
    # The largest TCP socket buffer (tcp_rmem and tcp_wmem maximum) at both
    # ends. None: 4 x (BDP + bottleneck queue), so that no window limits a
    # flow; a study's hosts may have set their own (Claypool et al.: 60 MB).
    tcp_buffer_bytes: int | None = Field(default=None, ge=64 << 10, le=1 << 30)

    @model_validator(mode="after")
    def _limits(self) -> Scenario:
        total = sum(group.count for group in self.flows)
        if total > MAX_FLOWS:
            raise field_error("flows", f"at most {MAX_FLOWS} flows in all (the counts add up to {total})", None)
        hystarts = {group.hystart for group in self.flows if group.hystart is not None}
        if len(hystarts) > 1:
            raise field_error("flows", "all TCP CUBIC flows share one hystart setting (a global kernel "
                               "module parameter)", None)
        return self

    @property
    def hystart(self) -> bool | None:
        return next((group.hystart for group in self.flows if group.hystart is not None), None)

    def channels(self) -> Iterator[tuple[str, Channel]]:
        """Every channel of the path, with its dotted field path."""
        yield "path.forward.channel", self.path.forward.channel
        yield "path.return.channel", self.path.return_.channel
        if self.path.lan is not None:
            yield "path.lan.channel", self.path.lan.channel

    def files(self) -> Iterator[tuple[str, Trace | DelayVariation | RateTrace]]:
        """Every part of the scenario that names a file (a loss trace, a
        delay trace, a rate trace), with its dotted field path."""
        for where, channel in self.channels():
            if isinstance(channel, Trace):
                yield where, channel
        for name, direction in (("forward", self.path.forward), ("return", self.path.return_)):
            if direction.delay_variation is not None and direction.delay_variation.file is not None:
                yield f"path.{name}.delay_variation", direction.delay_variation
            if direction.rate_trace is not None:
                yield f"path.{name}.rate_trace", direction.rate_trace

    def resolve_traces(self, base_dir: Path | Callable[[str], Path]) -> None:
        """Make relative files (files()) relative to base_dir (the directory
        of the file that names them, or a function of their field path giving
        it), not to whatever the working directory happens to be."""
        for where, part in self.files():
            assert part.file is not None  # files() yields only parts that name one
            if not part.file.is_absolute():
                part.file = (base_dir if isinstance(base_dir, Path) else base_dir(where)) / part.file


class ScenarioError(ValueError):
    """An invalid scenario: one sentence per problem, each starting with the
    dotted path of its field and a colon (`flows.0.cc: …`), the API's `loc`."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


class _ShortRepr(reprlib.Repr):
    """Bounded repr; a mapping reads as the YAML flow mapping a person wrote
    ({k: 10, z: 5}), not as a Python dict."""

    def repr_dict(self, x: dict[Any, Any], level: int) -> str:
        if not x:
            return "{}"
        if level <= 0:
            return "{…}"
        items = [f"{key if isinstance(key, str) else self.repr1(key, level - 1)}: {self.repr1(value, level - 1)}"
                 for key, value in itertools.islice(x.items(), self.maxdict)]
        return "{" + ", ".join(items) + (", …" if len(x) > self.maxdict else "") + "}"


_SHORT = _ShortRepr(maxlevel=1, maxtuple=4, maxlist=4, maxarray=4, maxdict=4, maxset=4, maxfrozenset=4,
                    maxdeque=4, maxstring=60, maxlong=40, maxother=60)


def short_field(name: str) -> str:
    """A field name (or dotted path) of untrusted input, cut to about 60
    characters: an unknown field's name may be long."""
    return name if len(name) <= 64 else f"{name[:60]}…"


def shorten(value: Any) -> str:
    """repr(value) in at most about 60 characters, at a cost bounded whatever
    the value's size: for messages about untrusted input."""
    return _SHORT.repr(value)


def describe(error: Mapping[str, Any]) -> str:
    """A pydantic error as a sentence that starts with its field."""
    # Discriminated unions put the tag in the location (path.forward.channel.bernoulli.loss):
    # a reader wrote `channel.loss`, so the tag is left out.
    location = [short_field(str(part)) for part in error["loc"]
                if not (isinstance(part, str) and part in CHANNEL_MODELS)]
    field = ".".join(location) or "scenario"
    message = error["msg"].removeprefix("Value error, ")
    if error["type"] == "extra_forbidden":
        message = "is not a known field"
    elif error["type"] in ("union_tag_invalid", "union_tag_not_found"):
        message = f"model must be one of {', '.join(sorted(CHANNEL_MODELS))}"
    if error.get("input") is not None and error["type"] not in ("extra_forbidden", "missing"):
        message += f" (got {shorten(error['input'])})"
    return f"{field}: {message}"


CHANNEL_MODELS = ("perfect", "bernoulli", "ge-packet", "ge-time", "outage", "trace")


def check_depth(data: Any, field: str) -> None:
    """ScenarioError naming field if data nests deeper than MAX_DEPTH (walked
    without recursion, so that any depth is cheap to refuse)."""
    stack = [(data, 1)]
    seen = set()  # a container held twice is walked once
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        for child in children:
            if isinstance(child, dict | list) and id(child) not in seen:
                if depth >= MAX_DEPTH:
                    raise ScenarioError([f"{field}: nests deeper than {MAX_DEPTH} levels"])
                seen.add(id(child))
                stack.append((child, depth + 1))


def validate(data: Any) -> Scenario:
    check_depth(data, "scenario")
    try:
        return Scenario.model_validate(data)
    except ValidationError as error:
        raise ScenarioError([describe(e) for e in error.errors()]) from None


class _PlainLoader(yaml.SafeLoader):
    """YAML without anchors and aliases: an alias may name a node that names
    others, each expansion multiplying the data (a "billion laughs" of a few
    hundred bytes takes gigabytes)."""

    depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        problem = None
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            problem = "anchors and aliases (& and *) are not accepted"
        elif self.depth >= MAX_DEPTH:
            problem = f"nests deeper than {MAX_DEPTH} levels"
        if problem is not None:
            raise yaml.composer.ComposerError(None, None, problem, event.start_mark)
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def parse_yaml(text: str, field: str) -> Any:
    """YAML text as data (safe types only, no anchors or aliases, nesting
    within MAX_DEPTH); ScenarioError naming field otherwise."""
    try:
        data = yaml.load(text, Loader=_PlainLoader)  # noqa: S506 (a SafeLoader)
    except yaml.YAMLError as error:
        where = ""
        if isinstance(error, yaml.MarkedYAMLError) and error.problem_mark is not None:
            where = f" at line {error.problem_mark.line + 1}, column {error.problem_mark.column + 1}"
        problem = error.problem if isinstance(error, yaml.MarkedYAMLError) and error.problem else "an error"
        raise ScenarioError([f"{field}: not valid YAML: {problem[:200]}{where}"]) from None
    return data


# A dotted path: field names and list indices (ASCII digits only: "²".isdigit()).
_PATH_PART = re.compile(r"^(?:[0-9]{1,6}|[A-Za-z_][A-Za-z0-9_-]{0,63})$")


def _path_parts(dotted_path: str) -> list[str]:
    parts = dotted_path.split(".")
    if len(parts) > MAX_DEPTH or not all(_PATH_PART.match(part) for part in parts):
        raise ScenarioError([f"set: {shorten(dotted_path)} is not a dotted path of field names and list "
                             "indices (flows.0.cc)"])
    return parts


def set_path(data: dict[str, Any], dotted_path: str, value: Any) -> None:
    """Set the field at `dotted.path` of data to value, in place. A numeric
    part indexes a list (flows.0.cc); the index just past its end appends;
    missing or null containers on the way are created (a list where the
    next part is 0: cross_traffic.0.rate_mbps). Errors name the path as far
    as it was walked."""
    parts = _path_parts(dotted_path)
    node: Any = data
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        where = ".".join(parts[:depth + 1])
        if isinstance(node, list):
            if not part.isdigit() or int(part) > len(node):
                raise ScenarioError([f"{where}: no such list item (the list has {len(node)}; "
                                     f"index {len(node)} appends one)"])
            key: Any = int(part)
            if key == len(node):
                node.append(None)
        elif isinstance(node, dict):
            key = part
        else:
            raise ScenarioError([f"{where}: {'.'.join(parts[:depth]) or 'the scenario'} is not a mapping"])
        if last:
            node[key] = value
        else:
            if (node.get(key) if isinstance(node, dict) else node[key]) is None:
                node[key] = [] if parts[depth + 1] == "0" else {}
            node = node[key]


def apply_override(data: dict[str, Any], assignment: str) -> None:
    """Apply `dotted.path=value` to data in place (see set_path); the value is
    YAML: a scalar (`12`, `0.5`, `true`, `cubic`, `null`) or a flow mapping."""
    path, equals, text = assignment.partition("=")
    if not equals or not path:
        raise ScenarioError([f"set: expected dotted.path=value, got {shorten(assignment)}"])
    _path_parts(path)  # before its value: an error about the value names the path
    set_path(data, path, parse_yaml(text, path) if text else "")


def load(file: str | Path, overrides: Sequence[str] = ()) -> Scenario:
    """A scenario from a YAML file with `--set` overrides, validated after overriding."""
    try:
        text = Path(file).read_text()
    except OSError as error:
        raise ScenarioError([f"{file}: cannot read the scenario file ({error.strerror})"]) from None
    data = parse_yaml(text, str(file))
    if not isinstance(data, dict):
        raise ScenarioError([f"{file}: a scenario is a mapping of fields"])
    for assignment in overrides:
        apply_override(data, assignment)
    scenario = validate(data)
    scenario.resolve_traces(Path(file).parent)
    return scenario
