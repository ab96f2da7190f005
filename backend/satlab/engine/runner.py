"""The experiment engine: scenario -> plan -> namespaces -> links -> tunnel ->
flows -> samples -> summary, with everything torn down whatever happens.

It knows nothing of HTTP or terminals: it reports through on_event(dict),
where every event has a "type": "state" (with "state"), "sample", "summary"
or "error" (with "message"). The CLI prints them; the API will store and
stream them.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from satlab.engine import captures, fidelity, links, preflight, summary, tcp_stack, topology, tunnel
from satlab.engine.artifacts import ArtifactSink
from satlab.engine.cross_traffic import Iperf3CrossTraffic
from satlab.engine.flows.base import Flow, FlowSample, flow_class
from satlab.engine.hystart import cubic_hystart
from satlab.engine.pep import proxies as pep_proxies
from satlab.engine.pep.planning import splits
from satlab.engine.pep.segments import HOPS, Hop, PepMode, client_hop, end_host_segment
from satlab.engine.plan import Plan, PlannedFlow, make_plan, new_run_id
from satlab.engine.process import JsonLineChild
from satlab.engine.samplers import GoodputMeter, bottleneck_mbps, counters, hop_bottleneck_mbps, netem_counters
from satlab.scenario import Scenario

Event = dict[str, Any]
SAMPLE_HZ = 10
STOP_TIMEOUT_S = 5.0
# A run that needs the opposite Hystart of live runs waits this long for them
# to end (a campaign's CUBIC run beside someone's test), then fails.
HYSTART_PATIENCE_S = 600.0


class Cancelled(Exception):
    pass


class TimeLimitExceeded(TimeoutError):
    """An iteration's flows had not all finished at its time limit
    (_time_limit_s). What each flow had taken by then is kept: a flow still
    running takes at least that long, a censored time and not a failure of
    the path (CUBIC behind long outages can outlast any limit)."""

    def __init__(self, iteration: int, limit_s: float, flows: list[dict[str, Any]]):
        super().__init__(f"the flows did not finish within {limit_s:.0f} s")
        self.iteration, self.limit_s, self.flows = iteration, limit_s, flows
        # The iteration's fidelity evidence, once its tools have stopped (_Iteration.run).
        self.fidelity: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"iteration": self.iteration, "limit_s": self.limit_s, "flows": self.flows}


class CancelToken:
    """Set from any thread (a signal handler, an API request); the engine
    stops at its next tick and tears down."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


@dataclass
class RunResult:
    run_id: str
    status: str  # done | failed | cancelled
    flows: list[dict[str, Any]] = field(default_factory=list)
    iterations: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    fidelity: dict[str, Any] | None = None  # fidelity.run_evidence: whether the host kept up
    timed_out: dict[str, Any] | None = None  # TimeLimitExceeded.to_dict(): the iteration its limit stopped
    artifacts: dict[str, Any] | None = None  # ArtifactSink.summary(): the files kept, those refused

    def to_dict(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "status": self.status, "error": self.error,
                "flows": self.flows, "iterations": self.iterations, "fidelity": self.fidelity,
                "timed_out": self.timed_out, "artifacts": self.artifacts}


def _time_limit_s(plan: Plan, scenario: Scenario) -> float:
    """A generous bound after which a flow that has not finished is a failure:
    100 x the time at the bottleneck rate (CUBIC over a lossy GEO link can
    take 50 x; cancel a run to stop it sooner)."""
    longest = 0.0
    for flow in plan.flows:
        link = scenario.path.forward if flow.direction == "download" else scenario.path.return_
        if flow.duration_s is not None:
            need = flow.duration_s
        else:
            assert flow.size_bytes is not None  # a flow has exactly one of the two
            need = flow.size_bytes * 8 / (link.rate_mbps * 1e6)
        longest = max(longest, flow.start_s + need)
    return 60 + 100 * longest


class _Iteration:
    def __init__(self, scenario: Scenario, plan: Plan, emit: Callable[[Event], None], cancel: CancelToken,
                 artifacts: ArtifactSink | None = None):
        self.scenario, self.plan, self.emit, self.cancel = scenario, plan, emit, cancel
        self.artifacts = artifacts
        self.satlink: JsonLineChild | None = None
        self.lan: JsonLineChild | None = None
        self.tunnels: list[JsonLineChild] = []
        self.peps: pep_proxies.RunningPeps | None = None
        self.cross_traffic: list[Iperf3CrossTraffic] = []
        self.summaries: dict[str, dict[str, Any] | None] = {}
        # Per flow and hop (a split flow has one per connection), on the iteration's clock: samples, live goodput.
        self.samples: dict[tuple[int, Hop], list[summary.TimedSample]] = {}
        self.goodput_meters: dict[tuple[int, Hop], GoodputMeter] = {}
        # The flows the PEPs split, and what a split flow's end host last said of its retransmissions.
        self.split = {planned.index for planned in plan.flows if splits(scenario, planned.transport)}
        self.end_host_retransmissions: dict[int, int | None] = {}
        self.pep_rows_sampled: list[dict[str, Any]] = []  # the PEP rows of the latest sample
        # The iteration's clock starts here: the first data packet of any flow (monotonic), once known.
        self.origin: float | None = None
        self.fidelity = fidelity.FidelityRecorder(run_id=plan.run_id)
        self.keylog = b""  # the QUIC flows' TLS key logs, for the packet captures

    def _state(self, state: str) -> None:
        self.emit({"type": "state", "state": state, "run_id": self.plan.run_id, "iteration": self.plan.iteration})

    def _stop_if_cancelled(self) -> None:
        if self.cancel.cancelled:
            raise Cancelled("the run was cancelled")

    def _stop_tool(self, name: str, child: JsonLineChild) -> None:
        self.fidelity.read_process_cpu(name, child.process.pid)  # while it exists
        self.fidelity.note_ready(name, child.events.get("ready"))
        child.stop(STOP_TIMEOUT_S)
        self.summaries[name] = child.events.get("summary")

    def run(self, workdir: Path) -> dict[str, Any]:
        """The iteration's outcome. At its time limit, TimeLimitExceeded
        carries the host's evidence of the iteration: by then its tools have
        stopped and printed their lateness, so a censored run keeps it too."""
        try:
            return self._run(workdir)
        except TimeLimitExceeded as limit:
            limit.fidelity = self._evidence()
            raise

    def _evidence(self) -> dict[str, Any]:
        """The iteration's fidelity evidence, from its stopped tools' summaries."""
        return self.fidelity.evidence(
            [self.summaries.get("link") if self.plan.satellite else None, self.summaries.get("lan")],
            [self.summaries.get(f"tunnel.{index}") for index in range(len(self.plan.tunnel))])

    def _run(self, workdir: Path) -> dict[str, Any]:
        plan = self.plan
        with contextlib.ExitStack() as stack:
            stack.enter_context(self.fidelity)  # first in, last out: it watches the whole iteration
            self._state("building")
            stack.enter_context(cubic_hystart(plan.hystart, plan.run_id, HYSTART_PATIENCE_S, self._stop_if_cancelled))
            stack.enter_context(topology.namespaces(plan))
            captures.make_directory(plan.captures)
            if plan.satellite is not None:
                self.satlink = links.start_link(plan.satellite, "satlink")
                stack.callback(self._stop_tool, "link", self.satlink)
            if plan.lan is not None:
                self.lan = links.start_link(plan.lan, "satlink-lan")
                stack.callback(self._stop_tool, "lan", self.lan)
            # An end-to-end tunnel's datagrams take the hosts' routes.
            topology.add_routes(plan, ("client", "server"))
            for endpoint in plan.tunnel:
                child = tunnel.start_endpoint(endpoint, f"swf-tunnel-{endpoint.netns}")
                self.tunnels.append(child)
                stack.callback(self._stop_tool, f"tunnel.{len(self.tunnels) - 1}", child)
            topology.add_routes(plan, ("terminal", "gateway"))
            if plan.peps:
                self.peps = stack.enter_context(pep_proxies.running(plan.peps, self._stop_tool, plan.base_rtt_ms))
            flows: list[Flow] = []
            for planned in plan.flows:
                flow_dir = workdir / f"flow{planned.index}"
                flow_dir.mkdir(parents=True)
                flow = flow_class(planned.transport)(planned, flow_dir)
                stack.callback(flow.stop)
                flows.append(flow)
            for flow in flows:
                flow.setup()
                flow.start_server()
            for planned_cross in plan.cross_traffic:
                cross = Iperf3CrossTraffic(planned_cross, workdir / f"cross{planned_cross.index}")
                stack.callback(cross.close)
                self.cross_traffic.append(cross)
                cross.start_server()
            self._state("running")
            self._drive(flows)
            self._state("collecting")
            results = [flow.collect() for flow in flows]
            for flow in flows:
                self._keep_files(flow)
            cross_rows = [cross.collect() for cross in self.cross_traffic]
            if plan.netem:
                self.summaries["link"] = netem_counters(plan.netem)  # while its qdiscs exist
            tcp_counters = ({role: tcp_stack.counters(plan.namespaces[role]) for role in ("server", "client")}
                            if any(planned.transport == "tcp" for planned in plan.flows) else None)
            stack.close()  # stop every process now, so the tools print their summaries
        self._sample_stopped_peps()
        # The tools have stopped and closed their captures (planned only when the run keeps files).
        captured = captures.keep(plan.captures, self.summaries, self.keylog, self.artifacts, plan.iteration) \
            if self.artifacts is not None else []
        series = [self._series(p, flow) for p, flow in zip(plan.flows, flows, strict=True)]
        flow_rows = [{**summary.flow_summary(p, r, s, plan.iteration), **metrics} for p, r, s, metrics
                     in zip(plan.flows, results, series, summary.iteration_flow_metrics(series, plan.base_rtt_ms),
                            strict=True)]
        if self.peps is not None:
            for planned, row in zip(plan.flows, flow_rows, strict=True):
                row.update(self.peps.flow_figures(planned, row["retransmissions"]))
        tunnel_rows = {}
        if len(plan.tunnel) == 2:
            # The terminal's endpoint receives the forward direction, the gateway's the return.
            tunnel_rows = {"forward": summary.fec_summary(self.summaries.get("tunnel.0")),
                           "return": summary.fec_summary(self.summaries.get("tunnel.1"))}
        goodputs = [row["goodput_mbps"] for row in flow_rows if row["goodput_mbps"] is not None]
        return {"iteration": plan.iteration, "flows": flow_rows,
                "jain_index": summary.jain_index(goodputs) if len(flow_rows) > 1 else None,
                "fec": tunnel_rows or None, "link": summary.link_summary(self.summaries.get("link")),
                "lan": summary.link_summary(self.summaries.get("lan")), "cross_traffic": cross_rows,
                "tcp_stack": tcp_counters, "pep": self.peps.summary() if self.peps is not None else None,
                "fidelity": self._evidence(),
                "captures": captured, "seeds": plan.seeds, "plan": plan.to_dict()}

    def _keep_files(self, flow: Flow) -> None:
        """Hand the files the flow left to the run's kept files (if the run
        keeps any), then delete them: a long run's iterations do not pile up."""
        for kept in flow.files:
            if kept.kind == "keylog":
                self.keylog += kept.path.read_bytes()
            if self.artifacts is not None:
                self.artifacts.keep(f"iteration{self.plan.iteration}/flow{flow.planned.index}/{kept.name}",
                                    kept.path, kept.kind, source_gzipped=kept.compressed)
            kept.path.unlink(missing_ok=True)

    def _link_counters(self) -> dict[str, Any] | None:
        return counters(self.satlink) if self.plan.satellite is not None else netem_counters(self.plan.netem)

    def _data_start_s(self, flow: Flow) -> float:
        """When the flow's data connection sent its first packet, on the
        iteration's clock (its client's start when the transport cannot tell)."""
        started = flow.data_started_at() or flow.client_started_at
        assert self.origin is not None and started is not None, "a flow that ran has started"
        return started - self.origin

    def _drive(self, flows: list[Flow]) -> None:
        """Start clients and cross traffic at their offsets (cross traffic also
        stops at its end), sample at SAMPLE_HZ, until every flow is done and
        the PEPs, if any, have seen their connections end (at most their
        drain_timeout_s after the flows).

        One clock: the iteration's starts at the first data packet of any flow
        (self.origin). The flows that start first start at once and open it;
        every other offset (a later flow's, cross traffic's) counts on it, so
        start_s: 3 puts a flow's start 3 s after the first data packet.
        Nothing is sampled before the origin: a flow's samples begin with its
        data, and an iperf3 flow's control connection, which comes first, is
        in none of them (issue 18)."""
        start = time.monotonic()
        limit = _time_limit_s(self.plan, self.scenario)
        pending = list(flows)
        pending_cross = list(self.cross_traffic)
        first_start_s = min((flow.planned.start_s for flow in flows), default=0.0)
        flows_done_at: float | None = None
        drain_s = self.peps.drain_timeout_s if self.peps is not None else 0.0
        tick = 0
        while True:
            self._stop_if_cancelled()
            now = time.monotonic() - start
            clock_s = self._clock_s(flows, pending)
            for flow in [f for f in pending if f.planned.start_s == first_start_s
                         or (clock_s is not None and f.planned.start_s - first_start_s <= clock_s)]:
                flow.client_started_at = time.monotonic()
                flow.start_client()
                pending.remove(flow)
            if clock_s is not None and flows_done_at is None:
                for cross in [c for c in pending_cross if c.planned.start_s - first_start_s <= clock_s]:
                    cross.start()
                    pending_cross.remove(cross)
                for cross in self.cross_traffic:
                    if cross.planned.end_s is not None and cross.planned.end_s - first_start_s <= clock_s:
                        cross.stop()
            # Read before the sample, so that the sample holds every line that made the PEPs idle.
            peps_idle = self.peps is None or self.peps.idle()
            if self.origin is not None:
                self._sample(flows, start + now - self.origin)
            if flows_done_at is None and not pending and all(flow.done() for flow in flows):
                flows_done_at = time.monotonic()
                for cross in self.cross_traffic:
                    cross.stop()  # its time is over when the flows are done
            if flows_done_at is not None and (peps_idle or time.monotonic() - flows_done_at >= drain_s):
                return
            if now > limit:
                raise TimeLimitExceeded(self.plan.iteration, limit, [self._taken(flow) for flow in flows])
            peps = list(self.peps.children.values()) if self.peps is not None else []
            for child in [self.satlink, self.lan, *self.tunnels, *peps]:
                if child is not None and not child.running():
                    raise RuntimeError(f"{child.name} exited {child.process.returncode}: {child.stderr_text()}")
            tick += 1
            # Ticks on an absolute schedule so that slow samples do not drift the rate.
            time.sleep(max(0.0, start + tick / SAMPLE_HZ - time.monotonic()))

    def _taken(self, flow: Flow) -> dict[str, Any]:
        """A flow at its iteration's time limit: whether it had finished, and
        if not, how long it had been sending (from its first data packet):
        the least its download time would have been (None if it never
        started), and how far it had got: its sender's bytes acknowledged at
        its last sample (how much longer it needed, at its pace)."""
        finished = flow.done()
        started = flow.data_started_at() or flow.client_started_at
        samples = self.samples.get((flow.planned.index, self._hop(flow.planned)))
        return {"flow": flow.planned.index, "direction": flow.planned.direction, "finished": finished,
                "download_time_at_least_s": None if finished or started is None else time.monotonic() - started,
                "bytes_acked": samples[-1][1].bytes_acked if samples else 0}

    def _clock_s(self, flows: list[Flow], pending: list[Flow]) -> float | None:
        """The iteration's clock now, setting its origin at the first data
        packet a flow reports; None before. Started flows that all ended
        without one (a connection refused) set it now, so later ones start."""
        if self.origin is None:
            self.origin = min((t for t in (flow.data_started_at() for flow in flows) if t is not None), default=None)
            started = [flow for flow in flows if flow not in pending]
            if self.origin is None and started and all(flow.done() for flow in started):
                self.origin = time.monotonic()
        return None if self.origin is None else time.monotonic() - self.origin

    def _pep_mode(self, planned: PlannedFlow) -> PepMode | None:
        """How the PEPs split the flow; None for a flow they do not split."""
        return self.peps.mode if self.peps is not None and planned.index in self.split else None

    def _hop(self, planned: PlannedFlow) -> Hop:
        """The hop a flow's own sample (its sender's socket) describes."""
        mode = self._pep_mode(planned)
        return "end-to-end" if mode is None else end_host_segment(mode, planned.direction)

    def _hop_bottleneck_mbps(self, planned: PlannedFlow, hop: Hop) -> float | None:
        return hop_bottleneck_mbps(self.scenario.path, planned.direction, self._pep_mode(planned), hop)

    def _goodput(self, flow: Flow, hop: Hop, read_s: float, sample: FlowSample) -> float | None:
        if sample.bytes_acked is None:
            return None
        key = (flow.planned.index, hop)
        if key not in self.goodput_meters:
            self.goodput_meters[key] = GoodputMeter(self._hop_bottleneck_mbps(flow.planned, hop),
                                                    self._data_start_s(flow))
        return self.goodput_meters[key].add(read_s, sample.bytes_acked, sample.rtt_ms)

    def _series(self, planned: PlannedFlow, flow: Flow) -> summary.FlowSeries:
        """The flow over time as its client sees it: end to end, or through
        the PEPs the connection from its client (whose figures the summary's
        start-up and steady state are)."""
        hop = client_hop(self._pep_mode(planned))
        return summary.flow_series(planned, self.samples.get((planned.index, hop), []),
                                   bottleneck_mbps(self.scenario.path, planned.direction), self._data_start_s(flow),
                                   self._hop_bottleneck_mbps(planned, hop))

    def _pep_rows(self) -> list[dict[str, Any]]:
        """Each split flow's PEP counters now (metrics.flow_counters), once the PEPs relay any of its connections."""
        if self.peps is None:
            return []
        rows = []
        for planned in self.plan.flows:
            figures = (self.peps.flow_counters(planned, self.end_host_retransmissions.get(planned.index))
                       if planned.index in self.split else None)
            if figures is not None:
                rows.append({"flow": planned.index, **figures})
        self.pep_rows_sampled = rows
        return rows

    def _sample(self, flows: list[Flow], t_s: float) -> None:
        """One tick's samples, its tick at t_s on the iteration's clock: kept
        per flow, and emitted. A flow's own sample is its sender's socket's,
        on the sender's hop; through the PEPs, each hop where a PEP sends has
        its own (the PEP's socket), and each split flow a row of PEP counters."""
        assert self.origin is not None
        flow_samples = []
        for flow in flows:
            sample = flow.sample() if not flow.done() else None
            if sample is None:
                continue
            planned = flow.planned
            # The moment the counter was read, not the tick's: a slow read must not inflate the rate.
            read_s = time.monotonic() - self.origin
            hops: dict[Hop, FlowSample] = {self._hop(planned): sample}
            if self.peps is not None and planned.index in self.split:
                self.end_host_retransmissions[planned.index] = sample.retransmissions
                client_port = flow.data_client_port()
                for segment, segment_sample in (self.peps.hop_samples(planned, client_port)
                                                if client_port is not None else {}).items():
                    hops[segment] = segment_sample
            for hop in sorted(hops, key=HOPS.index):
                self.samples.setdefault((planned.index, hop), []).append((read_s, hops[hop]))
                flow_samples.append({"flow": planned.index, "hop": hop,
                                     "goodput_mbps": self._goodput(flow, hop, read_s, hops[hop]),
                                     **vars(hops[hop])})
        self.emit({"type": "sample", "run_id": self.plan.run_id, "iteration": self.plan.iteration,
                   "t_s": t_s, "flows": flow_samples, "link": self._link_counters(),
                   "lan": counters(self.lan), "tunnel": [counters(t) for t in self.tunnels],
                   "pep": self._pep_rows(),
                   "cross_traffic": [{"index": c.planned.index, "running": c.running()}
                                     for c in self.cross_traffic]})

    def _sample_stopped_peps(self) -> None:
        """Once the PEPs have stopped: a last sample of their counters if the
        lines they printed as they stopped changed any (a connection that did
        not end within the drain was reset, its closed line then the last),
        so that the samples end where the summary's figures stand."""
        if self.peps is None or self.origin is None:
            return
        sampled = self.pep_rows_sampled
        rows = self._pep_rows()
        if rows != sampled:
            self.emit({"type": "sample", "run_id": self.plan.run_id, "iteration": self.plan.iteration,
                       "t_s": time.monotonic() - self.origin, "flows": [], "link": None, "lan": None, "tunnel": [],
                       "pep": rows, "cross_traffic": []})


def run(scenario: Scenario, on_event: Callable[[Event], None] = lambda event: None,
        cancel: CancelToken | None = None, run_id: str | None = None,
        artifacts: ArtifactSink | None = None) -> RunResult:
    """Run every iteration of scenario; never raises for a failed experiment
    (the result says failed, with the error), only ScenarioError from preflight.check.
    artifacts: where the files the scenario keeps go (scenario.capture); None keeps none."""
    cancel = cancel or CancelToken()
    run_id = run_id or new_run_id()
    preflight.check(scenario)
    result = RunResult(run_id, "done")
    evidence: list[dict[str, Any]] = []  # each iteration's fidelity, the one its time limit stopped too
    on_event({"type": "state", "state": "started", "run_id": run_id})
    try:
        with topology.run_lock(run_id) as workdir:
            for iteration in range(scenario.iterations):
                room = captures.CaptureRoom(workdir / f"iteration{iteration}", artifacts.max_bytes) \
                    if artifacts is not None else None
                plan = make_plan(scenario, run_id, iteration, room)
                outcome = _Iteration(scenario, plan, on_event, cancel, artifacts).run(workdir / f"iteration{iteration}")
                result.iterations.append(outcome)
                result.flows.extend(outcome["flows"])
                evidence.append(outcome["fidelity"])
        failures = [f"iteration {f['iteration']} flow {f['flow']}: {f['error']}" for f in result.flows if f["error"]]
        failures += [f"iteration {i['iteration']} cross traffic {c['index']}: {c['error']}"
                     for i in result.iterations for c in i["cross_traffic"] if c["error"]]
        if failures:
            result.status, result.error = "failed", "; ".join(failures)
            on_event({"type": "error", "run_id": run_id, "message": result.error})
    except Cancelled as error:
        result.status, result.error = "cancelled", str(error)
    except Exception as error:  # reported as an event and in the result: the run failed
        result.status, result.error = "failed", str(error)
        if isinstance(error, TimeLimitExceeded):
            result.timed_out = error.to_dict()
            evidence += [error.fidelity] if error.fidelity is not None else []
        on_event({"type": "error", "run_id": run_id, "message": str(error)})
    result.fidelity = fidelity.run_evidence(scenario, evidence)
    result.artifacts = artifacts.summary() if artifacts is not None else None
    on_event({"type": "state", "state": result.status, "run_id": run_id})
    on_event({"type": "summary", "run_id": run_id, **result.to_dict()})
    return result
