"""Live metrics: kernel TCP sockets through `ss -tin`, the satlink and
tunnel counters from their stats lines, and netem's through `tc -s`."""

from __future__ import annotations

import json
import math
import re
import threading
import time
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from satlab.engine.netem import ETHERNET_HEADER_BYTES, PlannedQdisc
from satlab.engine.pep.segments import Hop, Link, PepMode, hop_links
from satlab.engine.process import JsonLineChild, run
from satlab.scenario import SatellitePath

_FIELD = re.compile(r"(\w+):(\S+)")
_ENDPOINT = re.compile(r"\S*:\d+")
CACHE_S = 0.05  # flows sharing a namespace share one ss call per tick


@dataclass
class TcpSocket:
    local_port: int
    peer_port: int
    info: dict[str, str]  # ss's key:value fields, plus "cc"

    def number(self, key: str) -> float | None:
        value = self.info.get(key)
        if value is None:
            return None
        try:
            return float(value.split("/")[0])  # rtt:560.1/12.3 is mean/deviation
        except ValueError:
            return None

    @property
    def retransmissions(self) -> int:
        # retrans:current/total
        value = self.info.get("retrans", "0/0")
        return int(value.split("/")[-1]) if value.split("/")[-1].isdigit() else 0


def _port(endpoint: str) -> int:
    return int(endpoint.rsplit(":", 1)[1])


def parse_ss(text: str) -> list[TcpSocket]:
    """Sockets of `ss -tinH` output: a line per socket, then an indented line
    of its details (cc name first, then key:value fields)."""
    sockets: list[TcpSocket] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if not line[0].isspace():
            # The state column is absent when ss filters by state: find the
            # two address:port columns wherever they are.
            endpoints = [column for column in line.split() if _ENDPOINT.fullmatch(column)]
            if len(endpoints) >= 2:
                sockets.append(TcpSocket(_port(endpoints[0]), _port(endpoints[1]), {}))
        elif sockets:
            words = line.split()
            info = sockets[-1].info
            if words and ":" not in words[0]:
                info.setdefault("cc", words[0])
            info.update(_FIELD.findall(line))
    return sockets


class SocketStats:
    """`ss -tin` in one namespace, at most once per CACHE_S."""

    def __init__(self, netns: str):
        self.netns = netns
        self._lock = threading.Lock()
        self._taken = 0.0
        self._sockets: list[TcpSocket] = []

    def run_ss(self, args: list[str]) -> str:
        return run(["ss", "-N", self.netns, *args]).stdout

    def sockets(self) -> list[TcpSocket]:
        with self._lock:
            if time.monotonic() - self._taken >= CACHE_S:
                self._sockets = parse_ss(self.run_ss(["-tinH", "state", "established"]))
                self._taken = time.monotonic()
            return self._sockets

    def busiest(self, port: int) -> TcpSocket | None:
        """The socket on `port` (local or peer) that sent the most."""
        candidates = [s for s in self.sockets() if port in (s.local_port, s.peer_port)]
        return max(candidates, key=lambda s: s.number("bytes_sent") or 0, default=None)


class DataConnection:
    """One flow's data connection among the sockets on its port: the one
    whose client end is the flow's data port (iperf3's --cport binds its
    data connection there; its control connection takes an ephemeral port,
    from a range the data ports stay below). Never the control connection:
    a flow has no sample before its data connection exists, so its samples,
    and every figure from them, start with the data (issue 18)."""

    def __init__(self, stats: SocketStats, port: int, client_port: int):
        self.stats, self.port, self.client_port = stats, port, client_port

    def socket(self) -> TcpSocket | None:
        ends = {self.port, self.client_port}
        return next((s for s in self.stats.sockets() if {s.local_port, s.peer_port} == ends), None)


def window_goodput_mbps(curve: Sequence[tuple[float, float]], index: int, window_s: float) -> float | None:
    """The goodput at curve[index] over the last window_s: the bytes the
    curve (t_s, bytes delivered by then, oldest first) rose by since its
    latest point at least window_s older (its first point if none is), x 8,
    over the time between, in Mbit/s; None at the first point. The one
    definition of goodput over an interval: the live curve, and the
    summary's start-up and latecomer figures, all use it."""
    t_s, delivered = curve[index]
    start = max(bisect_right(curve, t_s - window_s, hi=index, key=itemgetter(0)) - 1, 0)
    if start == index:
        return None
    then_t, then_delivered = curve[start]
    return (delivered - then_delivered) * 8 / (t_s - then_t) / 1e6


class GoodputMeter:
    """Live goodput of one flow: the rate at which its receiving application
    got bytes (for TCP, the bytes the sender saw acknowledged), in Mbit/s.

    A difference of the raw count between two samples tells something else:
    the count is read at slightly different moments than the tick's clock
    says (ss and the tools' stats lines are not instantaneous; the VM has
    steal), a cumulative ACK or an in-order delivery releases at once every
    byte held behind a hole once the hole is filled (bytes that crossed the
    bottleneck over the whole repair time), and a sender's count can step
    back (another connection of the flow's port). So the meter:

    - keeps the count monotone: a count below the highest seen adds nothing;
    - passes it through a server of the bottleneck's rate: the curve
      D'(t) = min(D(t), D'(t0) + rate x (t - t0)) never rises faster than
      the bottleneck delivers, and a jump is spread over the time the link
      needed to carry it;
    - reports the slope of that curve over the last smoothed RTT (at least
      WINDOW_MIN_S, window_goodput_mbps): bytes delivered per interval,
      smoothed over the RTT.

    Hence 0 <= goodput <= the bottleneck's rate (of IP packets, so above any
    goodput). The summary's goodput (size over download time) is the
    average; this is the curve over time, kept whole in `curve`.

    The curve starts at the flow's start with nothing delivered: a hop that
    a PEP feeds at the host's speed can carry all its bytes before its first
    sample. A meter is per hop, of that hop's bottleneck (None for a hop that
    crosses no emulated link: no server then)."""

    WINDOW_MIN_S = 0.2

    def __init__(self, bottleneck_mbps: float | None, start_s: float):
        self.bottleneck_bytes_per_s = math.inf if bottleneck_mbps is None else bottleneck_mbps * 1e6 / 8
        self._highest = 0
        self.curve: list[tuple[float, float]] = [(start_s, 0.0)]  # (t_s, bytes through the server), oldest first

    def add(self, t_s: float, delivered_bytes: int, rtt_ms: float | None) -> float | None:
        """The goodput at t_s, given the flow's cumulative delivered bytes
        then; None for a sample not later than the last (then the curve does
        not grow), as for one at the flow's start."""
        self._highest = max(self._highest, delivered_bytes)
        last_t, last_bytes = self.curve[-1]
        if t_s <= last_t:
            return None
        self.curve.append((t_s, min(self._highest, last_bytes + self.bottleneck_bytes_per_s * (t_s - last_t))))
        return window_goodput_mbps(self.curve, len(self.curve) - 1, self.window_s(rtt_ms))

    @classmethod
    def window_s(cls, rtt_ms: float | None) -> float:
        """The live goodput's window: the last smoothed RTT, at least WINDOW_MIN_S."""
        return max((rtt_ms or 0) / 1e3, cls.WINDOW_MIN_S)


def link_rates_mbps(path: SatellitePath, direction: str, links: Sequence[Link]) -> list[float]:
    """The rates of the links a flow's data crosses in its direction: the
    satellite link's forward direction for a download, its return direction
    for an upload, and the LAN segment's rate where it has one."""
    satellite = path.forward if direction == "download" else path.return_
    rates = {"satellite": satellite.rate_mbps, "lan": path.lan.rate_mbps if path.lan else None}
    return [rate for link in links if (rate := rates[link])]


def bottleneck_mbps(path: SatellitePath, direction: str) -> float:
    """The slowest rate a flow's data crosses end to end."""
    return min(link_rates_mbps(path, direction, ("lan", "satellite")))


def hop_bottleneck_mbps(path: SatellitePath, direction: str, mode: PepMode | None, hop: Hop) -> float | None:
    """The slowest rate a hop's data crosses (segments.hop_links); None for
    a hop that crosses no emulated link."""
    return min(link_rates_mbps(path, direction, hop_links(mode, hop)), default=None)


def counters(child: JsonLineChild | None) -> dict[str, Any] | None:
    """The latest stats line of satlink or swf-tunnel, without its event tag."""
    if child is None or child.latest is None:
        return None
    return {key: value for key, value in child.latest.items() if key != "event"}


def parse_netem_stats(text: str) -> dict[str, int] | None:
    """One direction of a netem link from `tc -s -j qdisc show dev X`, under
    satlink's counter names where they mean the same: packets_out and
    bytes_out (what left the link, after the delay; bytes of IP packets,
    where tc counts Ethernet frames), in_flight_packets (queued or
    propagating), and packets_in (every arrival was sent, dropped or is
    still held). netem's own: in_flight_bytes, and drops, which it does not
    split: satlink's drops_buffer + drops_channel. netem has nothing for
    queue_bytes (it holds queued and propagating packets in one line),
    bytes_in, drops_overflow, write_errors or lateness_ms."""
    root = next((qdisc for qdisc in json.loads(text) if qdisc.get("root")), None)
    if root is None or root.get("kind") != "netem":
        return None
    sent, dropped, held = root["packets"], root["drops"], root["qlen"]
    return {"packets_in": sent + dropped + held, "packets_out": sent,
            "bytes_out": root["bytes"] - ETHERNET_HEADER_BYTES * sent,
            "in_flight_packets": held, "in_flight_bytes": root["backlog"] - ETHERNET_HEADER_BYTES * held,
            "drops": dropped}


def netem_counters(qdiscs: dict[str, PlannedQdisc]) -> dict[str, Any] | None:
    """Both directions of a netem satellite link, shaped like satlink's stats
    line: a is the terminal, so ab is the return direction and ba the forward."""
    if not qdiscs:
        return None

    def read(qdisc: PlannedQdisc) -> dict[str, int] | None:
        return parse_netem_stats(run(["tc", "-s", "-j", "qdisc", "show", "dev", qdisc.dev], qdisc.netns).stdout)

    return {"ab": read(qdiscs["path.return"]), "ba": read(qdiscs["path.forward"])}
