"""The runs admitted on this host, by every satlab process on it (a server,
a `satlab worker`, the command line), so that admission by cost weighs the
whole host: two workers on one machine (`docker compose up --scale
worker=2`) share its calibrated capacity instead of each taking all of it.

Each admitted run holds an flock on LEDGER_DIR/admitted-<run id>.json,
which holds its demand (kind, Hystart, units), from its admission to its end.
LEDGER_DIR is the host-wide RUN_LOCK_DIR whatever SATLAB_LOCK_DIR says
(satlab.engine.host; containers bind the host's), and the kernel drops a dead process's flocks,
so a crash never leaves a run counted. Reading the runs, deciding and
recording the new one happen under one host-wide lock, so two processes
never both take the last room.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from satlab.engine import host
from satlab.engine.admission import Decision, Demand, decide
from satlab.engine.capacity import RUN_KINDS, Calibration

LEDGER_DIR: Path = host.RUN_LOCK_DIR
ADMISSION_LOCK = "admission.lock"
PREFIX = "admitted-"


@dataclass
class Admitted:
    """A run's place on the host: held until release()."""
    run_id: str
    demand: Demand
    claim: IO[str]

    def release(self) -> None:
        host.release(_name(self.run_id), self.claim, LEDGER_DIR)


def _name(run_id: str) -> str:
    return f"{PREFIX}{run_id}.json"


@contextlib.contextmanager
def _admitting() -> Iterator[None]:
    # ADMISSION_LOCK is permanent by design, never removed: every admission on
    # the host takes turns on this one empty file. Were it removed, a process
    # waiting on the removed file and one opening a new one would admit at
    # once (host.claim shows the care removal takes).
    LEDGER_DIR.mkdir(parents=True, exist_ok=True)
    with open(LEDGER_DIR / ADMISSION_LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _parse(text: str) -> Demand | None:
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict) or data.get("kind") not in RUN_KINDS or data.get("hystart") not in (None, True,
                                                                                                        False):
        return None
    units = data.get("units", 1)  # a claim of a satlab before units: one
    return Demand(data["kind"], data["hystart"], units if type(units) is int and units >= 1 else 1)


def _running() -> list[Demand]:
    """The demands of the runs admitted on this host now (this process's
    included); files no live process holds are removed (their run died;
    host.is_claimed removes them)."""
    demands = []
    for path in sorted(LEDGER_DIR.glob(f"{PREFIX}*.json")):
        if not host.is_claimed(path.name, LEDGER_DIR):
            continue
        with contextlib.suppress(FileNotFoundError):
            demand = _parse(path.read_text())
            # A file that is not a demand (another version's) counts as a run that takes the whole host.
            demands.append(demand if demand is not None else Demand("quic", None))
    return demands


def running() -> list[Demand]:
    """What runs on this host now, admitted by any satlab process."""
    with _admitting():
        return _running()


def admit(run_id: str, demand: Demand, calibration: Calibration | None) -> tuple[Decision, Admitted | None]:
    """Admit run_id beside every run admitted on this host
    (satlab.engine.admission.decide); when admitted, its place, held until
    released. A refusal says why."""
    with _admitting():
        decision = decide(demand, _running(), calibration)
        if not decision.admitted:
            return decision, None
        claim = host.try_claim(_name(run_id), LEDGER_DIR)
        if claim is None:
            return Decision(False, f"run {run_id} is admitted already"), None
        claim.truncate(0)
        claim.write(json.dumps({"kind": demand.kind, "hystart": demand.hystart, "units": demand.units}))
        claim.flush()
        return decision, Admitted(run_id, demand, claim)
