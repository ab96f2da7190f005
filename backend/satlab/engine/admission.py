"""May this run start on this host now, beside the runs already running?

Pure: it decides from what the runs ask (their kind and Hystart setting),
the host's calibration and an upper bound on the number of runs (a
campaign's `parallel`), and touches nothing. Rules, in order:

1. at most max_runs runs at once (when given);
2. runs whose CUBIC Hystart settings differ never run together: Hystart is
   one host-wide module parameter (satlab.engine.hystart);
3. with a calibration, the runs' costs add up to at most 1; an idle host
   always takes one run, and a kind the calibration lacks costs 1 (it runs
   alone). Without a calibration only rules 1 and 2 apply.

A run's cost is its kind's (1 / max_concurrent: the calibration measured
runs of one flow) times its units: a quic run weighs one unit per QUIC
flow, since each flow is its own pair of userspace processes doing per-
packet work (five picoquic flows load the host as five one-flow runs do);
a tunnel or kernel TCP run is one unit whatever its flows, since the work
that grows with load (satlink, the tunnel) is per packet of the link,
bounded by its rate, not per flow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from satlab.engine.capacity import Calibration, RunKind, run_kind
from satlab.scenario import Scenario

WHOLE_HOST = Fraction(1)


@dataclass(frozen=True)
class Demand:
    """What a run asks of the host it runs on."""
    kind: RunKind
    hystart: bool | None  # CUBIC's Hystart on, off, or None: whatever the host has
    units: int = 1  # how many of its kind's one-flow runs it weighs (see the module)


def demand(scenario: Scenario) -> Demand:
    kind = run_kind(scenario)
    units = sum(group.count for group in scenario.flows if group.transport != "tcp") if kind == "quic" else 1
    return Demand(kind, scenario.hystart, units)


@dataclass(frozen=True)
class Decision:
    admitted: bool
    reason: str | None = None  # why not, as a sentence


def cost(run: Demand, calibration: Calibration) -> Fraction:
    """The share of the host a run takes: its units at its kind's cost (a
    kind the calibration lacks takes the whole host)."""
    capacity = calibration.kinds.get(run.kind)
    return capacity.exact_cost * run.units if capacity is not None else WHOLE_HOST


def used(running: Sequence[Demand], calibration: Calibration) -> Fraction:
    """The share of the host the running runs take."""
    return sum((cost(run, calibration) for run in running), Fraction(0))


def _hystart_word(enabled: bool) -> str:
    return "on" if enabled else "off"


def decide(candidate: Demand, running: Sequence[Demand], calibration: Calibration | None,
           max_runs: int | None = None) -> Decision:
    """Whether candidate may start now beside running (see the module's rules)."""
    if max_runs is not None and len(running) >= max_runs:
        return Decision(False, f"{len(running)} runs are running, the most allowed at once (parallel: {max_runs})")
    if candidate.hystart is not None:
        for run in running:
            if run.hystart is not None and run.hystart != candidate.hystart:
                return Decision(False, f"it needs CUBIC's Hystart {_hystart_word(candidate.hystart)} and a running "
                                       f"run needs it {_hystart_word(run.hystart)}: Hystart is host-wide, so the two "
                                       "never run together")
    if calibration is None or not running:
        return Decision(True)
    taken, wanted = used(running, calibration), cost(candidate, calibration)
    if taken + wanted > WHOLE_HOST:
        capacity = calibration.kinds.get(candidate.kind)
        measured = (f"this host runs {capacity.max_concurrent} at once faithfully" if capacity is not None
                    else "this host's calibration lacks the kind, so it runs alone")
        weighs = f" of {candidate.units} QUIC flows (one run's share each)" if candidate.units > 1 else ""
        return Decision(False, f"the running runs take {float(taken):.0%} of this host and a {candidate.kind} run"
                               f"{weighs} takes {float(wanted):.0%} ({measured})")
    return Decision(True)
