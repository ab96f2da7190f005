"""What one run of a student may ask for (satlab.settings.Limits' student_*
quotas), read from its scenario alone: pure, no store, no host.

Each problem names the field it is about and the quota, in a sentence that
starts with the field. Time is what a run costs the class, so every flow's
end is bounded, a flow that moves a size included: at best it ends when its
bytes have crossed the slowest link on its way (the satellite direction, the
LAN segment, the lowest rate of a rate trace), with what the cross traffic
in that direction and the FEC tunnel's repairs take from it, after the other
size-bound flows of its direction and the duration-bound ones, from the
latest start among them. Losses can only make it later, so a scenario whose
best case is already too long is refused; one that passes may still run
longer on a lossy channel (satlab.engine does not stop it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from satlab.scenario import Direction, Scenario, lowest_rate_mbps
from satlab.settings import Limits

# Bytes on the wire per byte of payload: a 1500-byte packet carries 1448 bytes of TCP payload (MSS with timestamps).
WIRE_PER_PAYLOAD = 1500 / 1448


@dataclass(frozen=True)
class Problem:
    """A refusal's reason: field is the dotted path it is about in the request
    ("" for the request as a whole); sentence starts with it when there is one."""
    field: str
    sentence: str


@dataclass(frozen=True)
class Bottleneck:
    """The slowest rate a flow meets in one direction, and where."""
    rate_mbps: float
    field: str


def _satellite(scenario: Scenario, upload: bool) -> tuple[str, Direction]:
    return ("path.return", scenario.path.return_) if upload else ("path.forward", scenario.path.forward)


def bottleneck(scenario: Scenario, upload: bool) -> Bottleneck:
    """The slowest link a download (upload: False) or an upload crosses."""
    name, direction = _satellite(scenario, upload)
    candidates = [Bottleneck(direction.rate_mbps, f"{name}.rate_mbps")]
    if direction.rate_trace is not None and (lowest := lowest_rate_mbps(direction.rate_trace)) is not None:
        candidates.append(Bottleneck(lowest, f"{name}.rate_trace"))
    if scenario.path.lan is not None and scenario.path.lan.rate_mbps is not None:
        candidates.append(Bottleneck(scenario.path.lan.rate_mbps, "path.lan.rate_mbps"))
    return min(candidates, key=lambda candidate: candidate.rate_mbps)


def best_case_end_s(scenario: Scenario, upload: bool) -> tuple[float, Bottleneck, float]:
    """When the last size-bound flow of a direction ends at best (math.inf if
    the cross traffic leaves no capacity), the bottleneck, and the Mbit/s left
    on it for the flows."""
    link = "return" if upload else "forward"
    groups = [group for group in scenario.flows if (group.direction == "upload") == upload]
    sized = [group for group in groups if group.size_bytes is not None]
    if not sized:
        return 0.0, bottleneck(scenario, upload), 0.0
    narrowest = bottleneck(scenario, upload)
    left_mbps = narrowest.rate_mbps - sum(cross.rate_mbps for cross in scenario.cross_traffic if cross.link == link)
    if scenario.tunnel is not None:
        left_mbps *= scenario.tunnel.k / (scenario.tunnel.k + 1)  # one repair after every k sources
    if left_mbps <= 0:
        return math.inf, narrowest, left_mbps
    payload_bytes = sum((group.size_bytes or 0) * group.count for group in sized)
    beside_s = sum((group.duration_s or 0.0) for group in groups if group.duration_s is not None)
    latest_start_s = max(group.start_s for group in groups)
    return latest_start_s + beside_s + payload_bytes * WIRE_PER_PAYLOAD * 8 / (left_mbps * 1e6), narrowest, left_mbps


def problems(scenario: Scenario, limits: Limits) -> list[Problem]:
    """Everything in scenario beyond what a student's run may ask for."""
    found: list[Problem] = []
    if scenario.iterations > limits.student_iterations:
        found.append(Problem("iterations", f"iterations: {scenario.iterations} is more than a student's run may "
                                           f"have ({limits.student_iterations}, student_iterations)"))
    rates = [("path.forward.rate_mbps", scenario.path.forward.rate_mbps),
             ("path.return.rate_mbps", scenario.path.return_.rate_mbps)]
    if scenario.path.lan is not None and scenario.path.lan.rate_mbps is not None:
        rates.append(("path.lan.rate_mbps", scenario.path.lan.rate_mbps))
    for field, rate_mbps in rates:
        if rate_mbps > limits.student_link_rate_mbps:
            found.append(Problem(field, f"{field}: {rate_mbps:g} Mbit/s is more than a student's link may carry "
                                        f"({limits.student_link_rate_mbps}, student_link_rate_mbps)"))
    longest_s = limits.student_flow_duration_s
    for index, group in enumerate(scenario.flows):
        where = f"flows.{index}"
        if group.size_bytes is not None and group.size_bytes > limits.student_flow_bytes:
            found.append(Problem(f"{where}.size_bytes", f"{where}.size_bytes: {group.size_bytes} bytes is more than "
                                                        "a student's flow may move "
                                                        f"({limits.student_flow_bytes}, student_flow_bytes)"))
        if group.duration_s is not None and group.start_s + group.duration_s > longest_s:
            found.append(Problem(where, f"{where}: it would last until {group.start_s + group.duration_s:g} s, later "
                                        f"than a student's flow may ({longest_s} s, student_flow_duration_s)"))
    for upload in (False, True):
        end_s, narrowest, left_mbps = best_case_end_s(scenario, upload)
        if end_s <= longest_s:
            continue
        direction = "upload" if upload else "download"
        field = next(f"flows.{index}" for index, group in enumerate(scenario.flows)
                     if group.size_bytes is not None and (group.direction == "upload") == upload)
        if math.isinf(end_s):
            found.append(Problem(field, f"{field}: the cross traffic leaves its {direction}s no capacity on "
                                        f"{narrowest.field} ({narrowest.rate_mbps:g} Mbit/s), so it would never end; "
                                        f"a student's flow may last {longest_s} s (student_flow_duration_s)"))
        else:
            found.append(Problem(field, f"{field}: its {direction}s' bytes over the slowest link "
                                        f"({narrowest.field}: {left_mbps:.3g} Mbit/s left for them) end at "
                                        f"{end_s:.0f} s at best, later than a student's flow may "
                                        f"({longest_s} s, student_flow_duration_s)"))
    for index, cross in enumerate(scenario.cross_traffic):
        last_s = cross.start_s + (cross.duration_s or 0.0)
        if last_s > longest_s:
            found.append(Problem(f"cross_traffic.{index}", f"cross_traffic.{index}: it would last until {last_s:g} s, "
                                                           f"later than a student's flow may ({longest_s} s, "
                                                           "student_flow_duration_s)"))
    capture = scenario.capture
    kept_bytes = capture.max_bytes or (limits.run_artifact_bytes if capture.packets else 0)
    if kept_bytes > limits.student_capture_bytes:
        given = "" if capture.max_bytes else " (null: run_artifact_bytes, as it captures packets)"
        found.append(Problem("capture.max_bytes", f"capture.max_bytes: {kept_bytes} bytes{given} is more than a "
                                                  f"student's run may keep ({limits.student_capture_bytes}, "
                                                  "student_capture_bytes)"))
    cross_mbps = sum(cross.rate_mbps for cross in scenario.cross_traffic)
    if cross_mbps > limits.student_cross_traffic_mbps:
        found.append(Problem("cross_traffic", f"cross_traffic: {cross_mbps:g} Mbit/s in all is more than a student's "
                                              f"run may send ({limits.student_cross_traffic_mbps}, "
                                              "student_cross_traffic_mbps)"))
    return found
