"""The typed scenario: what a lab file (labs/*.yaml) or an API request
describes: the satellite path, the FEC tunnel, the flows, cross traffic.

Validation happens here, before anything touches the system, and depends on
nothing but the scenario: what this host can run is checked before a run
(satlab.engine.preflight). Every error names the dotted field path and what
is allowed (satlab.scenario.errors).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from satlab.scenario.base import Seed, Strict, field_error
from satlab.scenario.capture import Capture
from satlab.scenario.channels import Channel, Trace
from satlab.scenario.errors import shorten
from satlab.scenario.pep import Pep
from satlab.scenario.satellite_path import DelayVariation, RateTrace, SatellitePath
from satlab.scenario.tcp_stack import TcpStack
from satlab.transports import MAX_WINDOW_BYTES, MIN_WINDOW_BYTES, TRANSPORTS

MAX_SIZE_BYTES = 10 << 30  # a 10 GiB download takes over 2 hours at 12 Mbit/s
MAX_DURATION_S = 3600.0
MAX_FLOWS = 16
MAX_CROSS_TRAFFIC = 8
# swf-tunnel's --symbol-bytes (codec/tools/swf-tunnel.c): at least 578, an
# inner MTU of 576 (IPv4's minimum), and a repair datagram (symbol + IPv4,
# UDP and repair headers, OUTER_OVERHEAD_BYTES, + the 16-byte tag of the key
# every run's tunnel uses, satlab/engine/tunnel.py) within the path's MTU.
TUNNEL_MIN_SYMBOL_BYTES = 578
TUNNEL_OUTER_OVERHEAD_BYTES = 41 + 16
PATH_MTU = 1500  # of every link of a run (plan.MTU)
TUNNEL_MAX_SYMBOL_BYTES = PATH_MTU - TUNNEL_OUTER_OVERHEAD_BYTES

if TYPE_CHECKING:
    TransportName = str
else:
    # The registry's names, in its order (satlab.transports): the schema and
    # the errors list them. mypy cannot read a Literal built at run time.
    TransportName = Literal[tuple(TRANSPORTS)]


class Tunnel(Strict):
    """The FEC tunnel S(k,z): between terminal and gateway (span satellite), or
    between the client and the server's side (span end-to-end), so that a lossy
    LAN segment between client and terminal is protected too. Its receiver
    writes source packets at once and rebuilt ones as they decode (delivery
    immediate), or in order: packets after a gap held until it is rebuilt or
    given up, at most hold_ms (None: swf-tunnel's 200 ms)."""
    k: int = Field(ge=1, le=1000)
    z: int = Field(ge=1, le=1000)
    symbol_bytes: int | None = Field(default=None, ge=TUNNEL_MIN_SYMBOL_BYTES, le=TUNNEL_MAX_SYMBOL_BYTES)
    flush_ms: float = Field(default=10.0, ge=0, le=10_000)
    protect: str = "all"  # all, none, or a comma list of tcp or udp, each with an optional :port
    span: Literal["satellite", "end-to-end"] = "satellite"
    delivery: Literal["immediate", "in-order"] = "immediate"
    hold_ms: float | None = Field(default=None, ge=0.001, le=60_000)

    @field_validator("hold_ms")
    @classmethod
    def _hold_of_in_order(cls, hold_ms: float | None, info: ValidationInfo) -> float | None:
        if hold_ms is not None and info.data.get("delivery") == "immediate":
            raise ValueError("applies to delivery in-order only (an immediate tunnel holds nothing); give null")
        return hold_ms

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


# A QUIC receiver's flow-control window, within the bounds satlab.transports
# gives (the picoquic peer checks its options against the same ones).
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
    transport: TransportName = "tcp"
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
        # Of kernel TCP, Linux's every one: whether this host's kernel runs it is
        # satlab.engine.preflight's question, so that a scenario means the same everywhere.
        known = TRANSPORTS[transport].congestion_controls
        if cc not in known:
            raise ValueError(f"is not a congestion control of {transport}; allowed: {', '.join(known)}")
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
    pep: Pep | None = None  # a split-TCP PEP (scenario/pep.py); None: none
    flows: list[FlowGroup] = Field(min_length=1)
    cross_traffic: list[CrossTraffic] = Field(default_factory=list, max_length=MAX_CROSS_TRAFFIC)
    # The largest TCP socket buffer (tcp_rmem and tcp_wmem maximum) at both
    # ends. None: 4 x (BDP + bottleneck queue), so that no window limits a
    # flow; a study's hosts may have set their own (Claypool et al.: 60 MB).
    tcp_buffer_bytes: int | None = Field(default=None, ge=64 << 10, le=1 << 30)
    # The hosts' TCP loss recovery (SACK, DSACK, RACK, reordering; scenario/tcp_stack.py); None: the kernel's.
    tcp_stack: TcpStack | None = None
    capture: Capture = Field(default_factory=Capture)  # what the run keeps: qlogs, key logs, packet captures

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
