"""The hops of a flow's path, as a split-TCP PEP cuts it: one vocabulary for
the summary's `pep_<segment>_*` figures, the PEP's samples and the flows'
samples (each says which hop it describes).

A flow the PEPs do not split (no PEP, QUIC, a tunnel spanning end to end)
has one hop, `end-to-end`. Through distributed PEPs, three connections:
`client` (client - terminal PEP), `satellite` (terminal PEP - gateway PEP)
and `server` (gateway PEP - server). Through a gateway PEP alone, two:
`satellite` (the client's own connection, across the satellite to the
gateway PEP) and `server`. The first hop is the connection the client sees.

Each hop has two ends, from the client's side: an end host or a PEP socket
(the PEP's role, and the side of it the socket is on: satlab-pep calls its
socket across the satellite `sat`, the one toward an end host `ground`). A
hop's data sender is its server-side end for a download, its client-side
end for an upload.

Pure: names only.
"""

from __future__ import annotations

from typing import Literal

Hop = Literal["end-to-end", "client", "satellite", "server"]
Segment = Literal["client", "satellite", "server"]
PepMode = Literal["distributed", "gateway"]
HOPS: tuple[Hop, ...] = ("end-to-end", "client", "satellite", "server")
PEP_ROLES = ("terminal", "gateway")

# A PEP socket: (role, side).
PepSocket = tuple[str, str]
# Each segment of a mode, in path order from the client: (client-side end, server-side end), None an end host.
SEGMENT_ENDS: dict[PepMode, dict[Segment, tuple[PepSocket | None, PepSocket | None]]] = {
    "distributed": {"client": (None, ("terminal", "ground")),
                    "satellite": (("terminal", "sat"), ("gateway", "sat")),
                    "server": (("gateway", "ground"), None)},
    "gateway": {"satellite": (None, ("gateway", "sat")),
                "server": (("gateway", "ground"), None)},
}
SEGMENTS: dict[PepMode, tuple[Segment, ...]] = {mode: tuple(ends) for mode, ends in SEGMENT_ENDS.items()}


def data_ends(mode: PepMode, segment: Segment, direction: str) -> tuple[PepSocket | None, PepSocket | None]:
    """(sender, receiver) of a segment's data: a download's flows from the
    server's side, an upload's from the client's."""
    client_side, server_side = SEGMENT_ENDS[mode][segment]
    return (server_side, client_side) if direction == "download" else (client_side, server_side)


def end_host_segment(mode: PepMode, direction: str) -> Segment:
    """The segment whose data sender is an end host: the server's for a
    download, the client's for an upload (the hop the sender's own samples describe)."""
    return next(segment for segment in SEGMENTS[mode] if data_ends(mode, segment, direction)[0] is None)


# The emulated links a path has: the client's LAN segment (Wi-Fi) and the satellite.
Link = Literal["lan", "satellite"]


def hop_links(mode: PepMode | None, hop: Hop) -> tuple[Link, ...]:
    """The emulated links a hop's data crosses (mode None: no PEP). End to
    end, and the client's own connection to a gateway PEP alone, cross both;
    between distributed PEPs, the satellite alone; from the client to the
    terminal PEP, the LAN; from the gateway PEP to the server, none (its
    data moves at the host's speed)."""
    links: dict[Hop, tuple[Link, ...]] = {
        "end-to-end": ("lan", "satellite"), "client": ("lan",), "server": (),
        "satellite": ("satellite",) if mode == "distributed" else ("lan", "satellite")}
    return links[hop]


def client_hop(mode: PepMode | None) -> Hop:
    """The connection the client sees: the first hop from its side."""
    return "end-to-end" if mode is None else SEGMENTS[mode][0]


def facing_client(socket: PepSocket) -> bool:
    """Whether a PEP socket is its connection's client-facing one (the one the PEP accepted)."""
    return socket in (("terminal", "ground"), ("gateway", "sat"))
