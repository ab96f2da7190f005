"""Calibration: how many runs of each kind this host runs at once faithfully.

For each kind of run (satlab.engine.capacity: kernel TCP, a FEC tunnel, a
userspace QUIC stack) a short reference run on the studies' GEO path runs
alone a few times, then k copies run at once for growing k (2, 4, 8, ... up to a
bound, then bisecting between the last k that held and the first that did
not). k holds when the median download time of its runs stays within
tolerance_ratio of the lone runs' median and every run's lateness p99
(satlink's, and the tunnel endpoints') stays under the limit; the kind's
capacity is the largest k that held, its cost 1 / k. Every step is kept as
evidence, with the host's load.

It assumes that a k that fails would fail for every larger k too, which a
noisy host can contradict: the steps say what was measured. The numbers
describe the host as it was while calibrating (other processes included):
calibrate a worker when it is as loaded as it will be when running.
"""

from __future__ import annotations

import contextlib
import dataclasses
import statistics
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from satlab.engine import fidelity, preflight, runner
from satlab.engine.capacity import RUN_KINDS, Calibration, KindCapacity, RunKind
from satlab.engine.process import Child
from satlab.scenario import Scenario, ScenarioError, validate


class CalibrationError(RuntimeError):
    """The calibration could not measure (a reference run failed, or no kind can run here)."""


@dataclass(frozen=True)
class CalibrationParameters:
    """What a calibration runs. The defaults: the studies' GEO path
    (12/3 Mbit/s, 250 ms one way, 1.2 x BDP buffers), one 5 MB download per
    run (seconds each), up to 16 at once. The path is lossless except for
    the tunnel kind: a tunnel decodes only when packets are lost, and its
    decoding is the work lossy tunnel runs add (on a lossless path the
    tunnel held 12 runs at once while lossy tunnel runs were late at 8)."""
    kinds: tuple[RunKind, ...] = RUN_KINDS
    forward_rate_mbps: float = 12.0
    return_rate_mbps: float = 3.0
    delay_ms: float = 250.0
    buffer_bdp: float = 1.2
    size_bytes: int = 5_000_000
    lone_repeats: int = 3  # lone reference runs, one after another
    max_concurrent_tried: int = 16
    tolerance_ratio: float = 0.02  # of the lone median download time
    lateness_p99_limit_ms: float = fidelity.LATENESS_P99_LIMIT_MS
    tcp_cc: str = "cubic"  # Hystart off for every TCP run, so that they may share the host
    tunnel_k: int = 5  # the tunnel kind's S(k,z)
    tunnel_z: int = 100
    # The tunnel kind's forward loss, independent per packet: the UDP packet loss Petrou et al. measured on
    # their optical channel (2.70 %), well within S(5,100)'s repair, so that every loss is rebuilt and the
    # download time stays as steady as a lossless one's (the tolerance needs that).
    tunnel_loss: float = 0.027
    quic_transport: str = "quic-picoquic"
    quic_cc: str = "bbr1"
    # CPU-bound processes kept busy meanwhile, to show how the capacity moves with background load.
    background_busy_loops: int = 0
    seed: int = 1

    @classmethod
    def quick(cls, kinds: tuple[RunKind, ...] = RUN_KINDS) -> CalibrationParameters:
        """A check that calibration works, in seconds per kind: a fast short
        path (50/10 Mbit/s, 5 ms), 1 MB, one lone run, at most 2 at once.
        Its capacities say little: timing noise on such short transfers
        exceeds the tolerance."""
        return cls(kinds=kinds, forward_rate_mbps=50.0, return_rate_mbps=10.0, delay_ms=5.0, size_bytes=1_000_000,
                   lone_repeats=1, max_concurrent_tried=2)


def reference_scenario(kind: RunKind, parameters: CalibrationParameters) -> Scenario:
    """The run that stands for kind (see CalibrationParameters)."""
    if kind == "quic":
        flow: dict[str, Any] = {"transport": parameters.quic_transport, "cc": parameters.quic_cc}
    else:
        flow = {"transport": "tcp", "cc": parameters.tcp_cc,
                "hystart": False if parameters.tcp_cc == "cubic" else None}
    link = {"delay_ms": parameters.delay_ms, "buffer": {"bdp": parameters.buffer_bdp}}
    lossy = kind == "tunnel" and parameters.tunnel_loss > 0
    channel = {"channel": {"model": "bernoulli", "loss": parameters.tunnel_loss}} if lossy else {}
    return validate({
        "name": f"calibration-{kind}",
        "description": f"satlab's calibration: a {kind} run on "
                       + (f"a path losing {parameters.tunnel_loss:.2%} of its forward packets" if lossy
                          else "an ideal path"),
        "seed": parameters.seed,
        "path": {"forward": {"rate_mbps": parameters.forward_rate_mbps, **link, **channel},
                 "return": {"rate_mbps": parameters.return_rate_mbps, **link}},
        "tunnel": {"k": parameters.tunnel_k, "z": parameters.tunnel_z} if kind == "tunnel" else None,
        "flows": [{**flow, "size_bytes": parameters.size_bytes}]})


@dataclass(frozen=True)
class Step:
    """k reference runs at once, and what the host did meanwhile."""
    concurrent: int
    download_times_s: list[float]
    lateness_p99_ms: float | None  # the worst run's satlink
    load_avg_1m_max: float | None
    cpu_steal_ratio_max: float | None  # the worst run's, over its own time
    failures: list[str]  # runs that did not finish, with their errors
    tunnel_lateness_p99_ms: float | None = None  # the worst run's tunnel endpoint (None: no tunnel)
    tunnel_recovered: int | None = None  # packets the runs' tunnels rebuilt, all together (None: no tunnel)

    @property
    def median_download_time_s(self) -> float | None:
        return statistics.median(self.download_times_s) if self.download_times_s else None

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "median_download_time_s": self.median_download_time_s}


def _largest(values: list[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return max(present) if present else None


def _recovered(result: runner.RunResult) -> int | None:
    """Packets result's tunnel rebuilt, both directions (None: it has none)."""
    rows = [row for iteration in result.iterations for row in (iteration.get("fec") or {}).values() if row]
    return sum(row["recovered"] for row in rows) if rows else None


def run_together(scenario: Scenario, concurrent: int, cancel: runner.CancelToken) -> Step:
    """Run `concurrent` copies of scenario at once (each its own run, its own thread)."""
    with ThreadPoolExecutor(concurrent, thread_name_prefix="calibration") as pool:
        results = list(pool.map(lambda _: runner.run(scenario, cancel=cancel), range(concurrent)))
    if cancel.cancelled:
        raise runner.Cancelled("the calibration was cancelled")
    evidence = [result.fidelity or {} for result in results]
    recovered = [count for count in map(_recovered, results) if count is not None]
    return Step(concurrent,
                download_times_s=[result.flows[0]["download_time_s"] for result in results
                                  if result.status == "done" and result.flows[0]["download_time_s"] is not None],
                lateness_p99_ms=_largest([item.get("satlink_lateness_p99_ms") for item in evidence]),
                tunnel_lateness_p99_ms=_largest([item.get("tunnel_lateness_p99_ms") for item in evidence]),
                load_avg_1m_max=_largest([item.get("load_avg_1m_max") for item in evidence]),
                cpu_steal_ratio_max=_largest([item.get("cpu_steal_ratio") for item in evidence]),
                tunnel_recovered=sum(recovered) if recovered else None,
                failures=[f"run {result.run_id}: {result.error}" for result in results if result.status != "done"])


def step_problems(step: Step, lone_median_s: float, parameters: CalibrationParameters) -> list[str]:
    """Why step did not keep the lone run's fidelity, in sentences (none: it did)."""
    problems = list(step.failures)
    median = step.median_download_time_s
    if median is not None:
        change = median / lone_median_s - 1
        if abs(change) > parameters.tolerance_ratio:
            problems.append(f"the median download took {median:.3f} s, {change:+.1%} from the lone run's "
                            f"{lone_median_s:.3f} s (tolerance ±{parameters.tolerance_ratio:.0%})")
    if step.lateness_p99_ms is None:
        problems.append("satlink measured no lateness")
    for tool, p99 in (("satlink", step.lateness_p99_ms), ("swf-tunnel", step.tunnel_lateness_p99_ms)):
        if p99 is not None and p99 >= parameters.lateness_p99_limit_ms:
            problems.append(f"{tool}'s lateness p99 reached {p99:g} ms (limit {parameters.lateness_p99_limit_ms:g} ms)")
    return problems


def largest_holding(holds: Callable[[int], bool], most: int) -> int:
    """The largest k in [1, most] for which holds(k), trying 2, 4, 8, ...
    (and most itself) until one fails, then bisecting between the last
    that held and the first that failed; k = 1 is taken to hold. Assumes
    that once k fails every larger k does."""
    held, failed = 1, None
    k = min(2, most)
    while k > held:
        if not holds(k):
            failed = k
            break
        held = k
        k = min(2 * k, most)
    while failed is not None and failed - held > 1:
        middle = (held + failed) // 2
        if holds(middle):
            held = middle
        else:
            failed = middle
    return held


def calibrate_kind(kind: RunKind, parameters: CalibrationParameters, cancel: runner.CancelToken,
                   on_step: Callable[[dict[str, Any]], None]) -> KindCapacity:
    """kind's capacity on this host (see the module)."""
    scenario = reference_scenario(kind, parameters)
    lone = [run_together(scenario, 1, cancel) for _ in range(parameters.lone_repeats)]
    failures = [failure for step in lone for failure in step.failures]
    if failures:
        raise CalibrationError(f"{kind}: a lone reference run failed: {failures[0]}")
    lone_times_s = [time_s for step in lone for time_s in step.download_times_s]
    lone_median_s = statistics.median(lone_times_s)
    lone_satlink = _largest([step.lateness_p99_ms for step in lone])
    lone_worst = _largest([lone_satlink, *(step.tunnel_lateness_p99_ms for step in lone)])
    lone_kept_up = lone_satlink is not None and lone_worst is not None and \
        lone_worst < parameters.lateness_p99_limit_ms
    for step in lone:
        on_step({"kind": kind, **step.to_dict(), "lone": True, "problems": []})
    steps: list[dict[str, Any]] = []

    def holds(concurrent: int) -> bool:
        step = run_together(scenario, concurrent, cancel)
        problems = step_problems(step, lone_median_s, parameters)
        steps.append({**step.to_dict(), "problems": problems})
        on_step({"kind": kind, **steps[-1], "lone": False})
        return not problems

    # A host already late with one run cannot run two faithfully: it runs them one at a time.
    max_concurrent = largest_holding(holds, parameters.max_concurrent_tried) if lone_kept_up else 1
    return KindCapacity(max_concurrent=max_concurrent, evidence={
        "reference": {"forward_rate_mbps": parameters.forward_rate_mbps,
                      "return_rate_mbps": parameters.return_rate_mbps,
                      "delay_ms": parameters.delay_ms, "size_bytes": parameters.size_bytes,
                      "forward_channel": scenario.path.forward.channel.model_dump(exclude_none=True),
                      "transport": scenario.flows[0].transport, "cc": scenario.flows[0].cc},
        "lone": [step.to_dict() for step in lone], "lone_median_download_time_s": lone_median_s,
        # The lone runs' own spread: a tolerance below it cannot tell load from noise.
        "lone_spread_ratio": (max(lone_times_s) - min(lone_times_s)) / lone_median_s,
        "lone_kept_up": lone_kept_up, "steps": steps})


@contextlib.contextmanager
def busy_loops(count: int) -> Iterator[list[Child]]:
    """count processes that each keep a CPU busy, for the body."""
    loops = [Child([sys.executable, "-c", "while True: pass"], name="busy-loop") for _ in range(count)]
    try:
        yield loops
    finally:
        for loop in loops:
            loop.stop()


def calibrate(parameters: CalibrationParameters | None = None, cancel: runner.CancelToken | None = None,
              on_step: Callable[[dict[str, Any]], None] = lambda step: None) -> Calibration:
    """This host's capacity for each of parameters.kinds that it can run
    (the others are listed as unavailable, with why); on_step sees every
    step as it is measured. CalibrationError if no kind can run here."""
    parameters = parameters or CalibrationParameters()
    cancel = cancel or runner.CancelToken()
    kinds: dict[RunKind, KindCapacity] = {}
    unavailable: dict[RunKind, str] = {}
    with busy_loops(parameters.background_busy_loops):
        for kind in parameters.kinds:
            try:
                preflight.check(reference_scenario(kind, parameters))
            except ScenarioError as error:
                unavailable[kind] = str(error)
                continue
            kinds[kind] = calibrate_kind(kind, parameters, cancel, on_step)
    if not kinds:
        raise CalibrationError("no kind of run can run on this host: "
                               + "; ".join(f"{kind}: {why}" for kind, why in unavailable.items()))
    return Calibration(measured_at=datetime.now(UTC).isoformat(timespec="seconds"), host=fidelity.host_identity(),
                       parameters={**dataclasses.asdict(parameters), "kinds": list(parameters.kinds)},
                       kinds=kinds, unavailable=unavailable)
