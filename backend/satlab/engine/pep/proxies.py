"""The PEPs of an iteration: each one's interception set up in its
namespace, then its satlab-pep process started (like satlink and
swf-tunnel: a child that dies with the backend, stopped by the run's
teardown); on exit, whatever happened, the processes stopped, then the
interceptions removed and checked gone.

After a run's flows, the runner gives the PEPs a little time to see their
connections end (the ends' FINs cross the satellite; drain_timeout_s), and
samples on meanwhile, so that every connection's last line has its final
counters and the samples end with them; after a failure or a cancel they
stop at once.

If the backend is killed, its children die with it (PR_SET_PDEATHSIG) and
the rules stay in the run's namespaces, which the next sweep deletes (the
rules with them: they exist nowhere else).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from satlab.engine.flows.base import FlowSample
from satlab.engine.pep.hops import hop_samples
from satlab.engine.pep.interception import (
    PEP_LISTEN_IP,
    PEP_PORT,
    Interception,
    install_interception,
    remove_interception,
)
from satlab.engine.pep.metrics import PepLines, flow_counters, flow_figures
from satlab.engine.pep.planning import PlannedPep
from satlab.engine.pep.segments import PepMode, Segment
from satlab.engine.plan import PlannedFlow
from satlab.engine.process import JsonLineChild, start_ready
from satlab.tools import tool

# How long the PEPs may take to see their connections end: a FIN across
# the satellite and its answer back, twice over, and a stats interval.
DRAIN_ROUND_TRIPS = 2
DRAIN_MARGIN_S = 0.5


class RunningPeps:
    """An iteration's PEPs: their processes and what their lines said."""

    def __init__(self, peps: list[PlannedPep], drain_timeout_s: float):
        self.mode: PepMode = "distributed" if any(p.role == "terminal" for p in peps) else "gateway"
        self.lines = {planned.role: PepLines(planned.role) for planned in peps}
        self.children: dict[str, JsonLineChild] = {}
        self.drain_timeout_s = drain_timeout_s  # how long the PEPs may take to see their connections end

    def summary(self) -> dict[str, Any]:
        """The iteration's figures: the mode, and each PEP's summary line
        (accepted, refused, finished, failed, bytes each way)."""
        return {"mode": self.mode, **{role: {key: value for key, value in lines.summary.items() if key != "event"}
                                      if lines.summary is not None else None
                                      for role, lines in self.lines.items()}}

    def idle(self) -> bool:
        """True once every PEP's latest stats line counts no open connection."""
        return all(lines.open_connections() == 0 for lines in self.lines.values())

    def hop_samples(self, planned: PlannedFlow, client_port: int) -> dict[Segment, FlowSample]:
        """A split flow's samples on the hops where a PEP sends (hops.hop_samples)."""
        return hop_samples(self.mode, planned, client_port, self.lines)

    def flow_counters(self, planned: PlannedFlow, end_host_retransmissions: int | None) -> dict[str, int | None] | None:
        """A flow's PEP counters now (metrics.flow_counters), for a live sample."""
        return flow_counters(self.mode, planned, end_host_retransmissions, self.lines)

    def flow_figures(self, planned: PlannedFlow, end_host_retransmissions: int | None) -> dict[str, Any]:
        """A flow's figures through the PEPs (metrics.flow_figures), once they have stopped."""
        return flow_figures(self.mode, planned, end_host_retransmissions, self.lines)


def pep_args(planned: PlannedPep) -> list[str]:
    return [tool("satlab-pep"), "--role", planned.role, "--listen", f"{PEP_LISTEN_IP}:{PEP_PORT}", *planned.args]


@contextlib.contextmanager
def running(peps: list[PlannedPep], stop_tool: Callable[[str, JsonLineChild], None],
            base_rtt_ms: float) -> Iterator[RunningPeps]:
    """Intercept and start each planned PEP; on exit stop each with
    stop_tool(name, child) (the runner's: it also reads the process's CPU
    time) and remove the interceptions, raising if any remains. The caller
    lets them drain after its flows, sampling on (until RunningPeps.idle, at
    most drain_timeout_s: two base round trips and a margin)."""
    started = RunningPeps(peps, DRAIN_ROUND_TRIPS * base_rtt_ms / 1e3 + DRAIN_MARGIN_S)
    with contextlib.ExitStack() as stack:
        for planned in peps:
            interception = Interception(planned.netns, planned.inbound_dev)
            install_interception(interception)
            stack.callback(remove_interception, interception)
            name = f"satlab-pep-{planned.role}"
            child = start_ready(pep_args(planned), planned.netns, name, on_line=started.lines[planned.role])
            started.children[planned.role] = child
            stack.callback(stop_tool, f"pep.{planned.role}", child)
        yield started
