"""What the PEPs' lines say of a run's flows (codec/README.md, satlab-pep,
Lines): per flow, the bytes and retransmissions of each segment of its
connections (segments.py names them) and what each PEP holds of its data;
per PEP, its open connections and its summary.

A segment's figures are its data sender's: a PEP socket's TCP_INFO
(bytes_acked, total_retrans), or, where the sender is an end host, the bytes
the PEP's socket received and the flow's own retransmissions (its sender's,
as the transport reports them). A PEP's buffer occupancy is what it holds of
the data's direction: the bytes its receiving socket has not handed over
yet, those in its pipe, and those its sending socket has not had
acknowledged (SIOCINQ + pipe + SIOCOUTQ). A flow's connections are those to
its server's port, iperf3's control connection included.

flow_counters gives them at any moment, from each connection's latest line:
the live samples take them every tick, and the summary's segment figures are
the same function of the lines the PEPs printed last, so a flow's last
sample and its summary agree.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from satlab.engine.pep.segments import PEP_ROLES, SEGMENTS, PepMode, PepSocket, Segment, data_ends, facing_client
from satlab.engine.plan import PlannedFlow


def _port(address: str) -> int:
    return int(address.rpartition(":")[2])


@dataclass
class _Connection:
    """One relayed connection: its last line (connection or closed) and its
    pipes' occupancy over its lines, per direction (to_server, to_client)."""
    last: dict[str, Any]
    pipe_peak_bytes: dict[str, int] = field(default_factory=lambda: {"to_server": 0, "to_client": 0})
    pipe_bytes_sum: dict[str, int] = field(default_factory=lambda: {"to_server": 0, "to_client": 0})
    lines: int = 0


class PepLines:
    """Every line of one satlab-pep process, as its reader thread sees them
    (call it with each): its connections' figures, its latest stats line and
    its summary. Safe to read from another thread."""

    def __init__(self, role: str):
        self.role = role
        self._connections: dict[int, _Connection] = {}
        self._stats: dict[str, Any] | None = None
        self.summary: dict[str, Any] | None = None
        self._lock = threading.Lock()

    def __call__(self, line: dict[str, Any]) -> None:
        event = line.get("event")
        with self._lock:
            if event in ("connection", "closed"):
                self._connection_line(line)
            elif event == "stats":
                self._stats = line
            elif event == "summary":
                self.summary = line

    def _connection_line(self, line: dict[str, Any]) -> None:
        connection = self._connections.setdefault(line["id"], _Connection(line))
        connection.last = line
        connection.lines += 1
        for direction in ("to_server", "to_client"):
            figures = line[direction]
            connection.pipe_peak_bytes[direction] = max(connection.pipe_peak_bytes[direction],
                                                        figures["pipe_peak_bytes"])
            connection.pipe_bytes_sum[direction] += figures["pipe_bytes"]

    def open_connections(self) -> int | None:
        """The connections its latest stats line counts open; None before its first."""
        with self._lock:
            return None if self._stats is None else int(self._stats["open"])

    def connections_to(self, port: int) -> list[_Connection]:
        with self._lock:
            return [c for c in self._connections.values() if _port(c.last["server"]) == port]

    def data_connection(self, port: int, client_port: int) -> _Connection | None:
        """The connection to `port` from the client's `client_port` (a flow's
        data connection: the PEPs keep the client's port), the latest if several."""
        with self._lock:
            found = [c for c in self._connections.values()
                     if _port(c.last["server"]) == port and _port(c.last["client"]) == client_port]
        return found[-1] if found else None


def _infos(connections: dict[str, list[_Connection]], socket: PepSocket) -> list[dict[str, Any]]:
    """What one PEP socket of each of the flow's connections reported last (a socket not open: none)."""
    role, side = socket
    return [c.last[side] for c in connections.get(role, []) if c.last.get(side)]


def _segment(mode: PepMode, segment: Segment, direction: str, connections: dict[str, list[_Connection]],
             end_host_retransmissions: int | None) -> tuple[int | None, int | None]:
    """(bytes, retransmissions) of one segment of a flow's connections."""
    sender, receiver = data_ends(mode, segment, direction)
    if sender is not None:
        infos = _infos(connections, sender)
        return (sum(info["bytes_acked"] for info in infos) if infos else None,
                sum(info["total_retrans"] for info in infos) if infos else None)
    assert receiver is not None  # a segment has a PEP at one end at least
    infos = _infos(connections, receiver)  # the end host sends to this PEP socket
    return (sum(info["bytes_received"] for info in infos) if infos else None,
            end_host_retransmissions if infos else None)


def _buffer(role: str, direction: str, relayed: list[_Connection]) -> tuple[int, int] | None:
    """(held, in its pipes): the bytes of the data's direction one PEP holds
    for the flow's connections, by their latest lines; None without any."""
    if not relayed:
        return None
    client_facing = next(side for side in ("sat", "ground") if facing_client((role, side)))
    server_facing = "ground" if client_facing == "sat" else "sat"
    receiving, sending = (server_facing, client_facing) if direction == "download" else (client_facing, server_facing)
    way = "to_client" if direction == "download" else "to_server"
    pipe = sum(c.last[way]["pipe_bytes"] for c in relayed)
    unread = sum(info.get("inq_bytes") or 0 for c in relayed if (info := c.last.get(receiving)))
    unacknowledged = sum(info.get("outq_bytes") or 0 for c in relayed if (info := c.last.get(sending)))
    return unread + pipe + unacknowledged, pipe


def _connections(planned: PlannedFlow, lines: dict[str, PepLines]) -> dict[str, list[_Connection]]:
    return {role: pep.connections_to(planned.port) for role, pep in lines.items()}


def flow_counters(mode: PepMode, planned: PlannedFlow, end_host_retransmissions: int | None,
                  lines: dict[str, PepLines]) -> dict[str, int | None] | None:
    """A flow's counters through the PEPs now, from each of its connections'
    latest line; None while the PEPs have relayed none of them (a QUIC flow
    never has any). Per segment of the mode <segment>_bytes and
    <segment>_retransmissions (cumulative), per PEP <role>_buffer_bytes (what
    it holds of the data's direction) and <role>_pipe_bytes (its part in the
    pipes)."""
    connections = _connections(planned, lines)
    if not any(connections.values()):
        return None
    counters: dict[str, int | None] = {}
    for segment in SEGMENTS[mode]:
        counters[f"{segment}_bytes"], counters[f"{segment}_retransmissions"] = _segment(
            mode, segment, planned.direction, connections, end_host_retransmissions)
    for role in PEP_ROLES:
        if role in connections:
            held = _buffer(role, planned.direction, connections[role])
            counters[f"{role}_buffer_bytes"], counters[f"{role}_pipe_bytes"] = held if held else (None, None)
    return counters


def flow_figures(mode: PepMode, planned: PlannedFlow, end_host_retransmissions: int | None,
                 lines: dict[str, PepLines]) -> dict[str, Any]:
    """A flow's figures through the PEPs (mode distributed or gateway), once
    the PEPs have stopped (every connection then has its closed line):
    pep_connections (relayed; 0 for QUIC), pep_<segment>_bytes and
    pep_<segment>_retransmissions per segment of the mode (flow_counters'
    at the end), and per PEP pep_<role>_pipe_peak_bytes and
    pep_<role>_pipe_mean_bytes, the bytes its pipe of the data's direction
    held at most, and on average over the lines (every 100 ms) of the
    busiest of the flow's connections."""
    connections = _connections(planned, lines)
    figures: dict[str, Any] = {"pep_mode": mode,
                               "pep_connections": max((len(c) for c in connections.values()), default=0)}
    counters = flow_counters(mode, planned, end_host_retransmissions, lines) or {}
    for segment in SEGMENTS[mode]:
        for figure in ("bytes", "retransmissions"):
            figures[f"pep_{segment}_{figure}"] = counters.get(f"{segment}_{figure}")
    direction = "to_client" if planned.direction == "download" else "to_server"
    for role, relayed in connections.items():
        figures[f"pep_{role}_pipe_peak_bytes"] = max((c.pipe_peak_bytes[direction] for c in relayed), default=None)
        figures[f"pep_{role}_pipe_mean_bytes"] = max((c.pipe_bytes_sum[direction] / c.lines for c in relayed),
                                                     default=None)
    return figures
