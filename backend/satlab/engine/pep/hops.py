"""A split flow's samples on the hops where a PEP sends its data.

Through the PEPs, a flow's own sample (its sender's socket, ss in the
sender's namespace) describes only the sender's hop: a download's server
reaches no further than the gateway PEP. Every other hop's data sender is a
PEP socket, which reports its TCP_INFO in the PEP's lines: the same figures
as the end host's sample (bytes acknowledged, window, smoothed RTT,
retransmissions, delivery rate) for the connection the client sees and the
one across the satellite. Only the flow's data connection counts (the
connection from the client's data port, which the PEPs keep), never
iperf3's control connection, as for the end host's sample.
"""

from __future__ import annotations

from typing import Any

from satlab.engine.flows.base import FlowSample
from satlab.engine.pep.metrics import PepLines
from satlab.engine.pep.segments import SEGMENTS, PepMode, Segment, data_ends
from satlab.engine.plan import PlannedFlow


def socket_sample(info: dict[str, Any]) -> FlowSample:
    """A PEP socket's report (pep_tcp_print) as a flow sample of its hop."""
    mss = info.get("mss_bytes")
    return FlowSample(bytes_acked=info["bytes_acked"], cwnd_bytes=info["cwnd_packets"] * mss if mss else None,
                      rtt_ms=info["rtt_us"] / 1e3, retransmissions=info["total_retrans"],
                      delivery_rate_mbps=info["delivery_rate_bytes_per_s"] * 8 / 1e6)


def hop_samples(mode: PepMode, planned: PlannedFlow, client_port: int, lines: dict[str, PepLines]
                ) -> dict[Segment, FlowSample]:
    """The flow's data connection on each hop whose data sender is a PEP
    socket, by that PEP's latest line; a hop its PEP has not reported yet is absent."""
    samples: dict[Segment, FlowSample] = {}
    for segment in SEGMENTS[mode]:
        sender, _ = data_ends(mode, segment, planned.direction)
        if sender is None:
            continue
        role, side = sender
        connection = lines[role].data_connection(planned.port, client_port)
        info = connection.last.get(side) if connection is not None else None
        if info:
            samples[segment] = socket_sample(info)
    return samples
