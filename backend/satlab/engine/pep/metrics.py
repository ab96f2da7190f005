"""What the PEPs' lines say of a run's flows (codec/README.md, satlab-pep,
Lines): per flow, the bytes and retransmissions of each segment of its
connections and the occupancy of each PEP's pipes; per PEP, its counters.

A segment is a stretch of the split connection: with distributed PEPs
`client` (client - terminal PEP), `satellite` (terminal PEP - gateway PEP)
and `server` (gateway PEP - server); with a gateway PEP alone `satellite`
(the client's own connection, across the satellite, to the gateway PEP) and
`server`. A segment's figures are its data sender's: a PEP socket's TCP_INFO
(bytes_acked, total_retrans), or, where the sender is an end host, the bytes
the PEP's socket received and the flow's own retransmissions (its sender's,
as the transport reports them). A flow's connections are those to its
server's port, iperf3's control connection included.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from satlab.engine.plan import PlannedFlow

SEGMENTS = {"distributed": ("client", "satellite", "server"), "gateway": ("satellite", "server")}
# Each PEP socket on a segment: (role of the PEP, side of its socket).
_SEGMENT_SOCKETS: dict[str, dict[str, tuple[tuple[str, str], ...]]] = {
    "distributed": {"client": (("terminal", "ground"),), "satellite": (("terminal", "sat"), ("gateway", "sat")),
                    "server": (("gateway", "ground"),)},
    "gateway": {"satellite": (("gateway", "sat"),), "server": (("gateway", "ground"),)},
}
# The PEP sockets that face the client: they send a download's bytes.
_FACING_CLIENT = {("terminal", "ground"), ("gateway", "sat")}


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
        self._pipe_bytes_now = 0  # over the connection lines since the last stats line
        self._pipe_bytes_interval = 0
        self.summary: dict[str, Any] | None = None
        self._lock = threading.Lock()

    def __call__(self, line: dict[str, Any]) -> None:
        event = line.get("event")
        with self._lock:
            if event in ("connection", "closed"):
                self._connection_line(line)
            elif event == "stats":
                self._stats = line
                self._pipe_bytes_now, self._pipe_bytes_interval = self._pipe_bytes_interval, 0
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
            if line["event"] == "connection":
                self._pipe_bytes_interval += figures["pipe_bytes"]

    def counters(self) -> dict[str, Any] | None:
        """Now: its latest stats line's counters and the bytes its pipes held then."""
        with self._lock:
            if self._stats is None:
                return None
            return {**{key: self._stats[key] for key in ("accepted", "open", "finished", "failed", "refused",
                                                         "bytes_to_server", "bytes_to_client")},
                    "pipe_bytes": self._pipe_bytes_now}

    def connections_to(self, port: int) -> list[_Connection]:
        with self._lock:
            return [c for c in self._connections.values() if _port(c.last["server"]) == port]


def _segment(mode: str, segment: str, download: bool, connections: dict[str, list[_Connection]],
             end_host_retransmissions: int | None) -> tuple[int | None, int | None]:
    """(bytes, retransmissions) of one segment of a flow's connections."""
    sockets = _SEGMENT_SOCKETS[mode][segment]
    senders = [(role, side) for role, side in sockets if ((role, side) in _FACING_CLIENT) == download]
    if senders:
        role, side = senders[0]
        infos = [c.last[side] for c in connections[role] if c.last.get(side)]
        return (sum(info["bytes_acked"] for info in infos) if infos else None,
                sum(info["total_retrans"] for info in infos) if infos else None)
    role, side = sockets[0]  # the end host sends to this PEP socket
    infos = [c.last[side] for c in connections[role] if c.last.get(side)]
    return (sum(info["bytes_received"] for info in infos) if infos else None,
            end_host_retransmissions if infos else None)


def flow_figures(mode: str, planned: PlannedFlow, end_host_retransmissions: int | None,
                 lines: dict[str, PepLines]) -> dict[str, Any]:
    """A flow's figures through the PEPs (mode distributed or gateway), once
    the PEPs have stopped (every connection then has its closed line):
    pep_connections (relayed; 0 for QUIC), pep_<segment>_bytes and
    pep_<segment>_retransmissions per segment of the mode, and per PEP
    pep_<role>_pipe_peak_bytes and pep_<role>_pipe_mean_bytes, the bytes its
    pipe of the data's direction held at most, and on average over the lines
    (every 100 ms) of the busiest of the flow's connections."""
    download = planned.direction == "download"
    connections = {role: pep.connections_to(planned.port) for role, pep in lines.items()}
    figures: dict[str, Any] = {"pep_mode": mode,
                               "pep_connections": max((len(c) for c in connections.values()), default=0)}
    for segment in SEGMENTS[mode]:
        size, retransmissions = _segment(mode, segment, download, connections, end_host_retransmissions)
        figures[f"pep_{segment}_bytes"] = size
        figures[f"pep_{segment}_retransmissions"] = retransmissions
    direction = "to_client" if download else "to_server"
    for role, relayed in connections.items():
        figures[f"pep_{role}_pipe_peak_bytes"] = max((c.pipe_peak_bytes[direction] for c in relayed), default=None)
        figures[f"pep_{role}_pipe_mean_bytes"] = max((c.pipe_bytes_sum[direction] / c.lines for c in relayed),
                                                     default=None)
    return figures
