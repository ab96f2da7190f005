"""The metrics a study compares: each named by the column (with its unit)
published.csv gives it in, and taken from a run's result (the flow fields
are satlab.engine.summary's, listed in backend/README.md)."""

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
    aggregated over them) or of the iteration's. A run whose chosen flows do
    not all have the field gives no value."""
    what: str
    field: str
    per: Literal["flow", "iteration"] = "flow"
    direction: Literal["download", "upload"] | None = None  # only flows of this direction
    only_flows: Literal["latecomer", "short_beside_long"] | None = None  # only flows the summary marks so
    aggregate: Literal["mean", "sum", "max"] = "mean"

    def value(self, result: Mapping[str, Any]) -> float | None:
        """The metric of a run (its first iteration), or None."""
        if self.per == "iteration":
            iterations = result.get("iterations") or [{}]
            found = iterations[0].get(self.field)
            return None if found is None else float(found)
        values = [flow.get(self.field) for flow in result.get("flows") or () if flow.get("iteration", 0) == 0
                  and (self.direction is None or flow.get("direction") == self.direction)
                  and (self.only_flows is None or flow.get(self.only_flows))]
        if not values or any(value is None for value in values):
            return None
        numbers = [float(value) for value in values]
        return {"mean": statistics.fmean(numbers), "sum": math.fsum(numbers), "max": max(numbers)}[self.aggregate]


METRICS: dict[str, Metric] = {
    "download_time_s": Metric("transfer time of the flows, connect to last byte, mean over the flows",
                              "download_time_s"),
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
    "retransmissions": Metric("packets the senders retransmitted (QUIC: declared lost), sum over the flows",
                              "retransmissions", aggregate="sum"),
    "ack_frames_sent": Metric("ACK frames the download's receiver sent (counted in its qlog), mean over the "
                              "download flows", "ack_frames_sent", direction="download"),
}
