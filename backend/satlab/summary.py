"""Numbers of a finished iteration: per flow, across flows, and of the tunnel."""

from __future__ import annotations

from statistics import fmean
from typing import Any

from satlab.flows.base import FlowResult, FlowSample
from satlab.plan import PlannedFlow


def jain_index(values: list[float]) -> float | None:
    """Jain's fairness index (sum x)^2 / (n sum x^2): 1 when all are equal,
    1/n when one flow takes everything; None without flows or throughput."""
    squares = sum(x * x for x in values)
    if not values or squares == 0:
        return None
    return sum(values) ** 2 / (len(values) * squares)


def goodput_mbps(size_bytes: int, seconds: float | None) -> float | None:
    return size_bytes * 8 / seconds / 1e6 if seconds else None


def power(goodput: float | None, rtt_ms: float | None) -> float | None:
    """Kleinrock's power: throughput over delay, in Mbit/s per second of RTT."""
    return goodput / (rtt_ms / 1e3) if goodput is not None and rtt_ms else None


def flow_summary(planned: PlannedFlow, result: FlowResult, samples: list[FlowSample],
                 iteration: int) -> dict[str, Any]:
    rtts = [s.rtt_ms for s in samples if s.rtt_ms is not None]
    mean_rtt = fmean(rtts) if rtts else None
    goodput = goodput_mbps(result.bytes, result.download_time_s)
    retransmissions = result.retransmissions
    if retransmissions is None:
        retransmissions = next((s.retransmissions for s in reversed(samples) if s.retransmissions is not None), None)
    return {"iteration": iteration, "flow": planned.index, "group": planned.group,
            "transport": planned.transport, "cc": planned.cc, "direction": planned.direction,
            "start_s": planned.start_s, "bytes": result.bytes,
            "download_time_s": result.download_time_s, "goodput_mbps": goodput,
            "retransmissions": retransmissions, "mean_rtt_ms": mean_rtt,
            "power_mbps_per_s": power(goodput, mean_rtt), "error": result.error, **result.details}


def fec_summary(receiver: dict[str, Any] | None) -> dict[str, Any] | None:
    """FEC figures of one tunnel direction from its receiving endpoint's
    summary line: residual loss is the share of source packets that were lost
    and not rebuilt."""
    if receiver is None:
        return None
    rx = receiver["rx"]
    expected = rx["sources"] + rx["lost"]
    residual = rx["lost"] - rx["recovered"]
    return {"sources": rx["sources"], "repairs": rx["repairs"], "lost": rx["lost"],
            "recovered": rx["recovered"], "residual_loss": residual / expected if expected else 0.0,
            "decoding_delay_ms": rx.get("decoding_delay_ms")}


def link_summary(line: dict[str, Any] | None, forward: str = "ba", return_: str = "ab") -> dict[str, Any] | None:
    """satlink's summary line by direction name instead of a->b."""
    if line is None:
        return None
    return {"forward": line[forward], "return": line[return_]}
