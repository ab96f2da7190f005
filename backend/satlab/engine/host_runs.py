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

Room goes to whoever asks first when it frees, which within one process is
its own queue, at once: another process's run that waits would wait for
ever beside a busy campaign. So a run refused room is recorded as waiting
(LEDGER_DIR/waiting-<run id>.json: its demand and since when, flocked by its
process until it is admitted or forgotten), and once it has waited
AGING_S it reserves its room: a run that asked later is admitted only
beside it (as if it ran), until it starts.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from satlab.engine import host
from satlab.engine.admission import Decision, Demand, decide
from satlab.engine.capacity import RUN_KINDS, Calibration

LEDGER_DIR: Path = host.RUN_LOCK_DIR
ADMISSION_LOCK = "admission.lock"
PREFIX = "admitted-"
WAITING_PREFIX = "waiting-"
# A run that waited this long holds its room against later ones: longer than a
# recheck (queue.RECHECK_S), so that runs of one queue still pass each other freely.
AGING_S = 30.0
# This process's runs refused so far: their waiting claims (a flock each), by run id.
_waiting: dict[str, IO[str]] = {}


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
    return _demand_of(_record(text))


def _demand_of(data: dict[str, Any] | None) -> Demand | None:
    if data is None or data.get("kind") not in RUN_KINDS or data.get("hystart") not in (None, True, False):
        return None
    units = data.get("units", 1)  # a claim of a satlab before units: one
    return Demand(data["kind"], data["hystart"], units if type(units) is int and units >= 1 else 1)


def _record(text: str) -> dict[str, Any] | None:
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def _claim_json(name: str, record: dict[str, object]) -> IO[str] | None:
    """Claim LEDGER_DIR/name and write record into it; None if another holds it."""
    claim = host.try_claim(name, LEDGER_DIR)
    if claim is not None:
        claim.truncate(0)
        claim.write(json.dumps(record))
        claim.flush()
    return claim


def _demand_record(demand: Demand) -> dict[str, object]:
    return {"kind": demand.kind, "hystart": demand.hystart, "units": demand.units}


def _reserved(run_id: str, now: float) -> list[tuple[str, float, Demand]]:
    """The runs that waited AGING_S or more and asked before run_id (its own
    waiting claim's time, or now): (id, since, demand), oldest first."""
    mine = _since(LEDGER_DIR / f"{WAITING_PREFIX}{run_id}.json") if run_id in _waiting else None
    asked = mine if mine is not None else now
    reserved = []
    for path in LEDGER_DIR.glob(f"{WAITING_PREFIX}*.json"):
        other = path.name.removeprefix(WAITING_PREFIX).removesuffix(".json")
        if other == run_id or not host.is_claimed(path.name, LEDGER_DIR):
            continue
        with contextlib.suppress(FileNotFoundError):
            text = path.read_text()
            record = _record(text)  # read once: since when, and what it asks
            since, demand = _since_of(record), _demand_of(record)
            if since is not None and demand is not None and since < asked and now - since >= AGING_S:
                reserved.append((other, since, demand))
    return sorted(reserved, key=lambda entry: entry[1])


def _since(path: Path) -> float | None:
    try:
        return _since_of(_record(path.read_text()))
    except FileNotFoundError:
        return None


def _since_of(record: dict[str, Any] | None) -> float | None:
    since = (record or {}).get("since")
    return float(since) if isinstance(since, int | float) else None


def _admitted() -> Iterator[Path]:
    """The ledger's files of the runs admitted on this host now (this
    process's included); files no live process holds are removed (their run
    died; host.is_claimed removes them)."""
    for path in sorted(LEDGER_DIR.glob(f"{PREFIX}*.json")):
        if host.is_claimed(path.name, LEDGER_DIR):
            yield path


def _running() -> list[Demand]:
    """The demands of the runs admitted on this host now."""
    demands = []
    for path in _admitted():
        with contextlib.suppress(FileNotFoundError):
            demand = _parse(path.read_text())
            # A file that is not a demand (another version's) counts as a run that takes the whole host.
            demands.append(demand if demand is not None else Demand("quic", None))
    return demands


def running() -> list[Demand]:
    """What runs on this host now, admitted by any satlab process."""
    with _admitting():
        return _running()


def others(run_id: str) -> int:
    """How many runs besides run_id are admitted on this host now, by any satlab process."""
    with _admitting():
        return sum(1 for path in _admitted() if path.name != _name(run_id))


def admit(run_id: str, demand: Demand, calibration: Calibration | None) -> tuple[Decision, Admitted | None]:
    """Admit run_id beside every run admitted on this host
    (satlab.engine.admission.decide) and every run that has waited long
    enough before it (see the module); when admitted, its place, held until
    released. A refusal says why, and records the run as waiting until it
    is admitted or forgotten (forget: a run that no longer waits)."""
    with _admitting():
        now = time.time()
        running = _running()
        decision = decide(demand, running, calibration)
        reserved = _reserved(run_id, now) if decision.admitted else []
        if reserved and not decide(demand, [*running, *(entry[2] for entry in reserved)], calibration).admitted:
            other, since, _ = reserved[0]
            decision = Decision(False, f"run {other} has waited {now - since:.0f} s for room on this host, longer "
                                       "than this run: it starts first")
        if not decision.admitted:
            if run_id not in _waiting:
                claim = _claim_json(f"{WAITING_PREFIX}{run_id}.json", {**_demand_record(demand), "since": now})
                if claim is not None:
                    _waiting[run_id] = claim
            return decision, None
        claim = _claim_json(_name(run_id), _demand_record(demand))
        if claim is None:
            return Decision(False, f"run {run_id} is admitted already"), None
        _forget(run_id)
        return decision, Admitted(run_id, demand, claim)


def forget(run_id: str) -> None:
    """run_id no longer waits for room (cancelled, or its worker stops): it reserves nothing."""
    with _admitting():
        _forget(run_id)


def _forget(run_id: str) -> None:
    claim = _waiting.pop(run_id, None)
    if claim is not None:
        host.release(f"{WAITING_PREFIX}{run_id}.json", claim, LEDGER_DIR)
