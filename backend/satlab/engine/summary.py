"""Numbers of a finished iteration: per flow, across flows, and of the tunnel.

Figures over time come from each flow's samples on the iteration's clock (the
engine's: seconds since the first data packet of any of its flows; iperf3's
control connection comes before and is not sampled), each flow's measured from
its own data connection's first packet, through the live goodput's
own curve (samplers.GoodputMeter: the delivered count kept monotone and no
faster than the bottleneck) and its one definition of goodput over an
interval (samplers.window_goodput_mbps).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from satlab.engine.flows.base import FlowResult, FlowSample
from satlab.engine.plan import PlannedFlow
from satlab.engine.samplers import GoodputMeter, window_goodput_mbps

# Start-up ends when the live goodput first reaches this share of the bottleneck's rate.
STARTUP_SHARE = 0.9
# A latecomer has converged once its goodput stays within this fraction of its fair share...
FAIR_SHARE_TOLERANCE = 0.2
# ...measured over this many base round trips (propagation only), at least CONVERGENCE_WINDOW_MIN_S.
CONVERGENCE_WINDOW_RTTS = 4
CONVERGENCE_WINDOW_MIN_S = 1.0

TimedSample = tuple[float, FlowSample]  # (t_s on the iteration's clock, the sample read then)


@dataclass(frozen=True)
class Point:
    """A flow's sample: what its receiver had got, as a count (monotone) and
    on the goodput curve (the count through a server of the bottleneck's
    rate, which spreads a burst released at once, e.g. by a cumulative ACK
    after a hole filled, over the time the link needed to carry it)."""
    t_s: float
    delivered_bytes: int  # the highest count read so far
    served_bytes: float  # the goodput curve
    goodput_mbps: float | None  # live: over the last smoothed RTT (None at the first point)
    rtt_ms: float | None
    retransmissions: int | None  # cumulative


@dataclass(frozen=True)
class FlowSeries:
    """One flow of an iteration over time."""
    flow: int
    group: int
    direction: str
    start_s: float  # its data connection's first packet, on the iteration's clock: its figures' origin
    scheduled_s: float  # the start the scenario gave it (its role: who came later)
    size_bytes: int | None
    bottleneck_mbps: float  # of its direction, end to end (samplers.bottleneck_mbps)
    points: list[Point]

    @property
    def end_s(self) -> float:
        """Its last sample (the engine samples a flow until it is done)."""
        return self.points[-1].t_s if self.points else self.start_s


def flow_series(planned: PlannedFlow, samples: list[TimedSample], bottleneck_mbps: float, start_s: float,
                hop_bottleneck_mbps: float | None) -> FlowSeries:
    """The samples of the connection the flow's client sees (through a PEP,
    its first hop; hop_bottleneck_mbps that hop's, samplers.hop_bottleneck_mbps)
    through a goodput meter of that hop, as the live samples went; start_s
    is when its data connection sent its first packet, on the samples'
    clock. A sample without a delivered count (a QUIC receiver that has not
    reported yet) keeps the counts where they were, and has no live goodput."""
    meter = GoodputMeter(hop_bottleneck_mbps, start_s)
    points: list[Point] = []
    for t_s, sample in samples:
        if points and t_s <= points[-1].t_s:
            continue  # the meter's clock never goes back; neither do the points
        goodput = None if sample.bytes_acked is None else meter.add(t_s, sample.bytes_acked, sample.rtt_ms)
        delivered = max(sample.bytes_acked or 0, points[-1].delivered_bytes if points else 0)
        points.append(Point(t_s, delivered, meter.curve[-1][1], goodput, sample.rtt_ms, sample.retransmissions))
    return FlowSeries(planned.index, planned.group, planned.direction, start_s, planned.start_s, planned.size_bytes,
                      bottleneck_mbps, points)


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


def _mean_rtt_ms(points: list[Point]) -> float | None:
    rtts = [point.rtt_ms for point in points if point.rtt_ms is not None]
    return fmean(rtts) if rtts else None


def _retransmissions(points: list[Point]) -> int | None:
    """The cumulative count by the last of points (its highest: a count never falls)."""
    counts = [point.retransmissions for point in points if point.retransmissions is not None]
    return max(counts) if counts else None


def phase_summary(series: FlowSeries) -> dict[str, Any]:
    """Start-up vs steady state. Start-up runs from the flow's start to its
    first sample whose live goodput (over the last smoothed RTT, at least
    0.2 s, once the goodput curve spans that window from the start: a
    shorter interval says little) reaches STARTUP_SHARE of its direction's
    bottleneck rate (startup_s after the start); the steady state from there to its last
    sample. In each: goodput (the bytes delivered in it, from the count,
    over its time: the curve's spreading matters within a window, not over a
    phase, and would push the last bytes past the flow's end), mean RTT,
    retransmissions. A flow that never reaches it is all start-up:
    startup_s and the steady figures are None."""
    points, threshold_mbps = series.points, STARTUP_SHARE * series.bottleneck_mbps
    end = next((i for i, point in enumerate(points)
                if point.goodput_mbps is not None and point.goodput_mbps >= threshold_mbps
                and point.t_s - GoodputMeter.window_s(point.rtt_ms) >= series.start_s), None)
    startup, steady = (points, []) if end is None else (points[:end + 1], points[end:])
    result: dict[str, Any] = {"startup_s": None if end is None else points[end].t_s - series.start_s,
                              "startup_goodput_mbps": None, "startup_mean_rtt_ms": _mean_rtt_ms(startup),
                              "startup_retransmissions": _retransmissions(startup),
                              "steady_goodput_mbps": None, "steady_mean_rtt_ms": _mean_rtt_ms(steady[1:]),
                              "steady_retransmissions": None}
    if startup and startup[-1].t_s > series.start_s:
        # Nothing is delivered before the flow starts.
        result["startup_goodput_mbps"] = window_goodput_mbps(
            [(series.start_s, 0), (startup[-1].t_s, startup[-1].delivered_bytes)], 1, math.inf)
    if len(steady) > 1:
        result["steady_goodput_mbps"] = window_goodput_mbps([(p.t_s, p.delivered_bytes) for p in steady],
                                                            len(steady) - 1, math.inf)
        before, total = _retransmissions(startup), _retransmissions(points)
        result["steady_retransmissions"] = None if total is None else total - (before or 0)
    return result


def flow_summary(planned: PlannedFlow, result: FlowResult, series: FlowSeries, iteration: int) -> dict[str, Any]:
    mean_rtt = _mean_rtt_ms(series.points)
    goodput = goodput_mbps(result.bytes, result.download_time_s)
    retransmissions = result.retransmissions
    if retransmissions is None:
        retransmissions = _retransmissions(series.points)
    return {"iteration": iteration, "flow": planned.index, "group": planned.group,
            "transport": planned.transport, "cc": planned.cc, "direction": planned.direction,
            "start_s": planned.start_s, "bytes": result.bytes,
            "download_time_s": result.download_time_s, "goodput_mbps": goodput,
            "retransmissions": retransmissions, "mean_rtt_ms": mean_rtt,
            "power_mbps_per_s": power(goodput, mean_rtt), "bottleneck_mbps": series.bottleneck_mbps,
            "link_utilisation_ratio": None if goodput is None else goodput / series.bottleneck_mbps,
            **phase_summary(series), "error": result.error, **result.details}


def convergence_window_s(base_rtt_ms: float) -> float:
    return max(CONVERGENCE_WINDOW_RTTS * base_rtt_ms / 1e3, CONVERGENCE_WINDOW_MIN_S)


def latecomer_convergence_s(late: FlowSeries, flows: list[FlowSeries], window_s: float) -> float | None:
    """How long a flow that starts after another of its direction took to
    converge: from its start to its first sample from which on, to the end
    of the overlap (its end or the last end of the earlier flows, whichever
    comes first), its goodput over the last window_s stays within
    FAIR_SHARE_TOLERANCE of its fair share, the bottleneck rate over the
    number of flows of its direction active then (started, not yet done).
    Only samples a whole window after its first count. None if it never
    does (also when the overlap is shorter than a window)."""
    peers = [flow for flow in flows if flow.direction == late.direction and flow is not late]
    earlier = [flow for flow in peers if flow.scheduled_s < late.scheduled_s]
    if not earlier or not late.points:
        return None
    overlap_end = min(late.end_s, max(flow.end_s for flow in earlier))
    curve = [(point.t_s, point.served_bytes) for point in late.points]
    first_t = curve[0][0]
    converged_at = None
    for index, (t_s, _) in enumerate(curve):
        if t_s < first_t + window_s or t_s > overlap_end:
            continue
        active = 1 + sum(1 for flow in peers if flow.start_s <= t_s <= flow.end_s)
        share_mbps = late.bottleneck_mbps / active
        goodput = window_goodput_mbps(curve, index, window_s)
        within = goodput is not None and abs(goodput - share_mbps) <= FAIR_SHARE_TOLERANCE * share_mbps
        if not within:
            converged_at = None
        elif converged_at is None:
            converged_at = t_s
    return None if converged_at is None else converged_at - late.start_s


def short_beside_long(short: FlowSeries, flows: list[FlowSeries]) -> bool:
    """A flow of a fixed size with a flow of another group active for its
    whole life (scheduled no later, done no earlier): a mouse beside an
    elephant, whose download_time_s is the completion time to look at.
    Scheduled, as latecomers are: two flows started together open their
    connections a few milliseconds apart."""
    return short.size_bytes is not None and any(
        flow.group != short.group and flow.scheduled_s <= short.scheduled_s and flow.end_s >= short.end_s
        for flow in flows)


def iteration_flow_metrics(flows: list[FlowSeries], base_rtt_ms: float) -> list[dict[str, Any]]:
    """Per flow, the figures that depend on the iteration's other flows:
    whether it is a latecomer (starts after another flow of its direction)
    and its convergence time, and whether it is a short flow beside a long one."""
    window_s = convergence_window_s(base_rtt_ms)
    rows = []
    for flow in flows:
        latecomer = any(other.direction == flow.direction and other.scheduled_s < flow.scheduled_s for other in flows)
        rows.append({"latecomer": latecomer,
                     "latecomer_convergence_s": latecomer_convergence_s(flow, flows, window_s) if latecomer else None,
                     "short_beside_long": short_beside_long(flow, flows)})
    return rows


def fec_summary(receiver: dict[str, Any] | None) -> dict[str, Any] | None:
    """FEC figures of one tunnel direction from its receiving endpoint's
    summary line: residual loss is the share of source packets that were lost
    and not rebuilt; with in-order delivery, the packets held behind a gap,
    the gaps passed over at the hold time, and how long packets were held;
    and how late the endpoint was (the host's share in its figures)."""
    if receiver is None:
        return None
    rx = receiver["rx"]
    expected = rx["sources"] + rx["lost"]
    residual = rx["lost"] - rx["recovered"]
    return {"sources": rx["sources"], "repairs": rx["repairs"], "lost": rx["lost"],
            "recovered": rx["recovered"], "residual_loss": residual / expected if expected else 0.0,
            "rejected": rx.get("rejected"), "unauthenticated": rx.get("unauthenticated"),
            "decoding_delay_ms": rx.get("decoding_delay_ms"), "held": rx.get("held"),
            "hold_timeouts": rx.get("hold_timeouts"), "hold_delay_ms": rx.get("hold_delay_ms"),
            "lateness_ms": receiver.get("lateness_ms")}


def link_summary(line: dict[str, Any] | None, forward: str = "ba", return_: str = "ab") -> dict[str, Any] | None:
    """satlink's summary line by direction name instead of a->b."""
    if line is None:
        return None
    return {"forward": line[forward], "return": line[return_]}
