"""The metrics a study compares: each named by the column (with its unit)
published.csv gives it in, and taken from a run's result (the flow fields
are satlab.engine.summary's, listed in backend/README.md; the iteration's
are the runner's: its TCP counters per host, its tunnel's figures, its
fidelity evidence)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True)
class Metric:
    """What a study compares, taken from a run's result (satlab.engine.summary):
    a field of each flow's summary (of the flows the filters keep,
    aggregated over them, or each flow its own value: `pool`) or of the
    iteration's (a dotted path into it: fec.forward.decoding_delay_ms.p99).
    A run whose chosen flows do not all have the field gives no value."""
    what: str
    field: str
    per: Literal["flow", "iteration"] = "flow"
    direction: Literal["download", "upload"] | None = None  # only flows of this direction
    only_flows: Literal["latecomer", "short_beside_long"] | None = None  # only flows the summary marks so
    # pool: every flow's value is a sample of its own (a run of 5 flows gives 5 values), as a study that
    # takes the median over every flow of every run; n then counts flows, not runs.
    aggregate: Literal["mean", "sum", "max", "pool"] = "mean"
    # A percentile of a tool's delay histogram ({p50, p99, max}): none where the old histogram saturated it.
    delay_percentile: bool = False

    def values(self, result: Mapping[str, Any]) -> list[float]:
        """The metric's values in a run (its first iteration): one, or one
        per flow for a pooled metric; none if the run does not give it."""
        if self.per == "iteration":
            iterations = result.get("iterations") or [{}]
            found = _dotted(iterations[0], self.field)
            if found is None or self.delay_percentile and _saturated(
                    found, _dotted(iterations[0], self.field.rpartition(".")[0] + ".max")):
                return []
            return [float(found)]
        values = [flow.get(self.field) for flow in result.get("flows") or () if flow.get("iteration", 0) == 0
                  and (self.direction is None or flow.get("direction") == self.direction)
                  and (self.only_flows is None or flow.get(self.only_flows))]
        if not values or any(value is None for value in values):
            return []
        return self._aggregated([float(value) for value in values])

    def at_least(self, result: Mapping[str, Any]) -> list[float]:
        """The metric's lower bounds in a run its time limit stopped in its
        first iteration (the runner's timed_out): a download time is censored,
        at least what its flows had taken. None unless every chosen flow was
        still running: a finished flow's own time went with its iteration."""
        timed_out = result.get("timed_out")
        if (self.field != "download_time_s" or self.per == "iteration" or self.only_flows is not None
                or not timed_out or timed_out.get("iteration") != 0):
            return []
        bounds = [flow.get("download_time_at_least_s") for flow in timed_out.get("flows") or ()
                  if self.direction is None or flow.get("direction") == self.direction]
        if not bounds or any(bound is None for bound in bounds):
            return []
        return self._aggregated([float(bound) for bound in bounds])

    def _aggregated(self, numbers: list[float]) -> list[float]:
        if self.aggregate == "pool":
            return numbers
        return [{"mean": statistics.fmean(numbers), "sum": math.fsum(numbers), "max": max(numbers)}[self.aggregate]]


# The tools' delay histogram before its log-linear buckets (f6c1c10) put
# every delay of 100 ms or more in its last bucket and reported that bucket
# as 100.000 ms: such a percentile says "100 ms or more", a bound and not a
# figure. The new histogram never reports exactly 100.000 below a larger maximum.
OLD_HISTOGRAM_TOP_MS = 100.0


def _saturated(percentile_ms: Any, max_ms: Any) -> bool:
    return bool(percentile_ms == OLD_HISTOGRAM_TOP_MS and isinstance(max_ms, int | float)
                and max_ms > OLD_HISTOGRAM_TOP_MS)


def _dotted(data: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted path of nested mappings, or None where a part is missing."""
    found: Any = data
    for part in path.split("."):
        if not isinstance(found, Mapping):
            return None
        found = found.get(part)
    return found


METRICS: dict[str, Metric] = {
    "download_time_s": Metric("transfer time of the flows, connect to last byte, mean over the flows",
                              "download_time_s"),
    "flow_download_time_s": Metric("transfer time of each flow, connect to last byte, every flow a value of its "
                                   "own (n counts flows: runs x flows)", "download_time_s", aggregate="pool"),
    "goodput_mbps": Metric("goodput of the flows (bytes delivered over their time), mean over the flows",
                           "goodput_mbps"),
    "download_goodput_mbps": Metric("forward goodput: goodput of the download flows, mean over them (beside "
                                    "an upload, the download's alone)", "goodput_mbps", direction="download"),
    "upload_goodput_mbps": Metric("return goodput: goodput of the upload flows, mean over them",
                                  "goodput_mbps", direction="upload"),
    "jain_index": Metric("Jain's fairness index of the flows' goodputs: 1 when all are equal, 1/n when one "
                         "takes everything", "jain_index", per="iteration"),
    "link_utilisation_ratio": Metric("link utilisation: the download flows' goodput over the forward "
                                     "bottleneck rate, summed over them (1: the link is full)",
                                     "link_utilisation_ratio", direction="download", aggregate="sum"),
    "startup_s": Metric("start-up: seconds until the live goodput first reaches 90 % of the bottleneck rate, "
                        "mean over the flows", "startup_s"),
    "startup_goodput_mbps": Metric("goodput during start-up, mean over the flows", "startup_goodput_mbps"),
    "steady_goodput_mbps": Metric("goodput in steady state (after start-up), mean over the flows",
                                  "steady_goodput_mbps"),
    "startup_mean_rtt_ms": Metric("mean RTT during start-up, mean over the flows", "startup_mean_rtt_ms"),
    "steady_mean_rtt_ms": Metric("mean RTT in steady state, mean over the flows", "steady_mean_rtt_ms"),
    "mean_rtt_ms": Metric("mean RTT of the whole flow, mean over the flows", "mean_rtt_ms"),
    "power_mbps_per_s": Metric("Kleinrock's power: goodput over mean RTT, mean over the flows",
                               "power_mbps_per_s"),
    "latecomer_convergence_s": Metric("latecomer convergence: seconds from a late flow's start until its "
                                      "goodput stays within 20 % of its fair share, the slowest late flow",
                                      "latecomer_convergence_s", only_flows="latecomer", aggregate="max"),
    "latecomer_goodput_mbps": Metric("a late flow's goodput over its whole life (its share while it overlaps "
                                     "the others), mean over the late flows", "goodput_mbps",
                                     only_flows="latecomer"),
    "short_flow_time_s": Metric("completion time of the short flows beside a long one, mean over them",
                                "download_time_s", only_flows="short_beside_long"),
    "time_to_first_byte_ms": Metric("time to first byte: a download's first packet (the SYN, or QUIC's Initial) "
                                    "to its first byte of data at the client, mean over the download flows "
                                    "(TCP and picoquic; none from ngtcp2)", "time_to_first_byte_ms",
                                    direction="download"),
    "retransmissions": Metric("packets the senders retransmitted (QUIC: declared lost), sum over the flows",
                              "retransmissions", aggregate="sum"),
    "ack_frames_sent": Metric("ACK frames the download's receiver sent (counted in its qlog), mean over the "
                              "download flows", "ack_frames_sent", direction="download"),
    # The download's sender's kernel counters (its namespace's, satlab.engine.tcp_stack): every TCP flow of
    # the run together, kernel TCP only.
    "sender_loss_recoveries": Metric("fast recoveries the download's sender entered (loss events its ACK clock "
                                     "survived), all its flows", "tcp_stack.server.loss_recoveries",
                                     per="iteration"),
    "sender_rtos": Metric("retransmission timeouts of the download's sender, all its flows",
                          "tcp_stack.server.rtos", per="iteration"),
    "sender_dsack_undos": Metric("recoveries the download's sender undid on a DSACK (the retransmission was "
                                 "spurious: the packet had only been late)", "tcp_stack.server.dsack_undos",
                                 per="iteration"),
    "sender_loss_undos": Metric("loss recoveries the download's sender undid after a timeout turned out "
                                "spurious", "tcp_stack.server.loss_undos", per="iteration"),
    "sender_sack_reorders": Metric("reordering the download's sender detected from SACKs (each raises its "
                                   "reordering tolerance)", "tcp_stack.server.sack_reorders", per="iteration"),
    "fec_decoding_delay_p99_ms": Metric("the forward tunnel's decoding delay, 99th percentile: how late its "
                                        "rebuilt packets reached the receiver", "fec.forward.decoding_delay_ms.p99",
                                        per="iteration", delay_percentile=True),
    "fec_residual_loss_ratio": Metric("the forward tunnel's residual loss: sources lost and not rebuilt, of all "
                                      "sources", "fec.forward.residual_loss", per="iteration"),
    "satlink_lateness_p99_ms": Metric("satlink's lateness p99: how late the emulated link let its packets go "
                                      "(at 1 ms or more the host did not keep up)",
                                      "fidelity.satlink_lateness_p99_ms", per="iteration"),
    "tunnel_lateness_p99_ms": Metric("the tunnel's lateness p99: how long its endpoints let datagrams wait or "
                                     "timers pass (at 1 ms or more the host did not keep up)",
                                     "fidelity.tunnel_lateness_p99_ms", per="iteration"),
}
