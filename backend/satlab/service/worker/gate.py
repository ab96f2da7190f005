"""A worker's door: which runs it takes from the queue, and when each may start.

The worker takes a message only while it has room for another run and holds
none that waits (may_take_another: Celery asks before each read of the
queue), so it reserves at most one run it cannot start yet, and a run it
cannot start leaves the queue to a worker that can. A run taken waits in
admit() until this host's admission (satlab.engine.host_runs: the costs of
every run on the host, by its calibration; never opposite Hystart settings
together) lets it start, or until the worker stops.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from satlab.engine import admission, host_runs
from satlab.engine.admission import Demand
from satlab.engine.capacity import Calibration

# Runs of other processes on the host end without telling this one: look again this often.
RECHECK_S = 0.5


@dataclass(frozen=True)
class HeldRun:
    """A run the gate holds: waiting for room, or running (then with its place on the host)."""
    run_id: str
    demand: Demand
    attempt: int
    since: float  # unix seconds
    place: host_runs.Admitted | None = None


class AdmissionGate:
    def __init__(self, calibration: Calibration | None, max_runs: int):
        self.calibration, self.max_runs = calibration, max_runs
        self._changed = threading.Condition()
        self._running: dict[str, HeldRun] = {}
        self._waiting: dict[str, HeldRun] = {}
        self.waiting_reason: str | None = None
        self.closed = False
        # Called when room may have opened (a run ended): wakes the worker's loop to read the queue again.
        self.on_room: Callable[[], object] = lambda: None

    def held(self) -> list[HeldRun]:
        """The runs running, then those waiting."""
        with self._changed:
            return [*self._running.values(), *self._waiting.values()]

    def may_take_another(self, reserved: int) -> bool:
        """Whether to read another message, holding `reserved` (running, waiting, or on their way to admit)."""
        with self._changed:
            if self.closed or reserved > len(self._running) or len(self._running) >= self.max_runs:
                return False
            demands = [run.demand for run in self._running.values()]
            return self.calibration is None or admission.used(demands, self.calibration) < admission.WHOLE_HOST

    def admit(self, run_id: str, demand: Demand, attempt: int, cancelled: Callable[[], bool]) -> bool:
        """Wait until the run may start, and count it running: True; False if
        the worker stops or cancelled() says so first."""
        waiting = HeldRun(run_id, demand, attempt, time.time())
        with self._changed:
            self._waiting[run_id] = waiting
            try:
                while not self.closed and not cancelled():
                    if len(self._running) < self.max_runs:
                        decision, place = host_runs.admit(run_id, demand, self.calibration)
                        if place is not None:
                            self._running[run_id] = HeldRun(run_id, demand, attempt, time.time(), place)
                            self.waiting_reason = None
                            return True
                        self.waiting_reason = decision.reason
                    else:
                        self.waiting_reason = f"this worker runs {self.max_runs} at most (--max-runs)"
                    self._changed.wait(RECHECK_S)
                host_runs.forget(run_id)  # it waits no more: it reserves no room
                return False
            finally:
                del self._waiting[run_id]

    def release(self, run_id: str) -> None:
        """The run ended: its place on the host is free."""
        with self._changed:
            run = self._running.pop(run_id, None)
            if run is not None and run.place is not None:
                run.place.release()
            self._changed.notify_all()
        self.on_room()

    def close(self) -> None:
        """Take nothing more; runs waiting give up."""
        with self._changed:
            self.closed = True
            self._changed.notify_all()
        self.on_room()
