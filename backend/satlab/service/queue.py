"""The run queue: the one way into running (submit: the API's runs, the
command line's, every campaign item's), each run stored as it is admitted,
started when this host admits it by cost (satlab.engine.host_runs: the
costs of every run on the host by its calibration, never opposite Hystart
settings together) and fewer than max_concurrent of its own run, each on a
thread of its own, with every event stored and published. With a broker
(remote), every queued run goes to the `satlab worker`s instead, which
admit by their own calibrations; their events come back through
record_event and finish, as a local run's do.

A run's thread lives exactly as long as the run: the engine's children are
tied to the thread that started them (PR_SET_PDEATHSIG), and die with the
process if it is killed; runs.RunManager.recover at the next start removes
what they leave and marks the runs failed.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from satlab.engine import capacity, host_runs, preflight, runner
from satlab.engine.admission import demand
from satlab.engine.plan import new_run_id
from satlab.scenario import Scenario
from satlab.service.artifacts import RunArtifacts
from satlab.service.broker import Broker, Event
from satlab.service.provenance import provenance
from satlab.service.store import FINISHED, RunOrigin, Store
from satlab.settings import Limits

log = logging.getLogger("satlab")

# Told when a run has finished: its id and final status.
OnFinished = Callable[[str, str], None]


@dataclass
class QueuedRun:
    run_id: str
    scenario: Scenario
    campaign_id: str | None
    on_finished: OnFinished | None
    cancel: runner.CancelToken = field(default_factory=runner.CancelToken)
    thread: threading.Thread | None = None
    place: host_runs.Admitted | None = None  # its room on this host while it runs here


class RunSender(Protocol):
    """Where queued runs go when a broker carries them to workers (satlab.service.remote.RemoteRuns)."""

    def send(self, run: QueuedRun) -> None: ...

    def cancel(self, run: QueuedRun) -> None: ...


# A run that waits for room another process's run holds looks again this often.
RECHECK_S = 1.0


def host_calibration() -> capacity.Calibration | None:
    """This host's calibration (SATLAB_CALIBRATION), by which runs here are
    admitted; None, with a warning, when its file is not one."""
    try:
        return capacity.load()
    except (OSError, ValueError) as error:
        log.warning("satlab: runs are admitted by count and Hystart, not by cost: %s", error)
        return None


class RunQueue:
    # Set by RunManager once made: this host's calibration (None: admission by count and Hystart only) ...
    calibration: capacity.Calibration | None = None
    # ... and the broker's side when one carries the runs to workers (None: they run in this process).
    remote: RunSender | None = None
    _recheck: threading.Timer | None = None
    def __init__(self, store: Store, broker: Broker, max_concurrent: int = 4,
                 artifact_bytes: int = Limits().run_artifact_bytes):
        self.store = store
        self.broker = broker
        self.max_concurrent = max_concurrent
        # Each run's kept files (scenario.capture), within its scenario's cap or this one.
        self.artifacts = RunArtifacts.beside(store.path)
        self.artifact_bytes = artifact_bytes
        # Reentrant: a finishing run calls its on_finished (a campaign's next
        # step, which submits) while the queue holds it. campaign_driver takes
        # this same lock, so the two never wait for each other in turn.
        self.lock = threading.RLock()
        self._finished = threading.Condition(self.lock)
        self._waiting: list[QueuedRun] = []
        self._active: dict[str, QueuedRun] = {}
        self.closed = False

    def submit(self, scenario: Scenario, campaign_id: str | None = None, item_index: int | None = None,
               on_finished: OnFinished | None = None, origin: RunOrigin | None = None) -> str:
        """Admit a run and queue it: ScenarioError (nothing created) if this
        host cannot run it, RuntimeError once shutting down; else its id.
        origin: where a lone run comes from (store.create_run)."""
        preflight.check(scenario)
        with self.lock:
            if self.closed:
                raise RuntimeError("the run manager is shutting down")
            run_id = new_run_id()
            while self.store.get_run(run_id) is not None:
                run_id = new_run_id()
            self.store.create_run(run_id, scenario.model_dump(mode="json", by_alias=True), provenance(),
                                  campaign_id, item_index, origin=origin)
            self._waiting.append(QueuedRun(run_id, scenario, campaign_id, on_finished))
            self.broker.publish_run_event({"type": "state", "state": "queued", "run_id": run_id}, campaign_id)
            self._start_what_fits()
        return run_id

    def cancel(self, run_id: str) -> bool:
        """Cancel a queued or running run; False if it is not (or no longer) either."""
        with self.lock:
            queued = next((run for run in self._waiting if run.run_id == run_id), None)
            if queued is not None:
                self._waiting.remove(queued)
                host_runs.forget(run_id)  # it reserves no room any more
                self._finish(queued, {"run_id": run_id, "status": "cancelled",
                                      "error": "the run was cancelled before it started", "flows": [],
                                      "iterations": []})
                return True
            active = self._active.get(run_id)
            if active is None:
                return False
            active.cancel.cancel()
            if self.remote is not None and active.thread is None:
                self.remote.cancel(active)
            return True

    def wait(self, run_id: str, timeout: float | None = None) -> str | None:
        """The run's final status once it has one (None on timeout)."""
        def status() -> str | None:
            run = self.store.get_run(run_id)
            return run.status if run is not None and run.status in FINISHED else None
        with self._finished:
            self._finished.wait_for(lambda: status() is not None, timeout)
        return status()

    def close(self, timeout: float) -> None:
        """Admit nothing more; cancel every queued and running run and wait for their teardown."""
        with self.lock:
            self.closed = True
            for run in list(self._waiting):
                self.cancel(run.run_id)
            threads = [run.thread for run in self._active.values() if run.thread is not None]
            for run in self._active.values():
                run.cancel.cancel()
        for thread in threads:
            thread.join(timeout)

    def active_run(self, run_id: str) -> QueuedRun | None:
        """A run started here or handed to the broker, not finished yet."""
        with self.lock:
            return self._active.get(run_id)

    def held_runs(self) -> list[QueuedRun]:
        """The runs started here or handed to the broker, not finished yet."""
        with self.lock:
            return list(self._active.values())

    def adopt(self, run: QueuedRun) -> None:
        """A run a worker still holds after a restart of this process: its events go on as before."""
        with self.lock:
            self._active[run.run_id] = run

    def _start_what_fits(self) -> None:
        """Start queued runs in order while this host admits them and fewer
        than max_concurrent of them run (a run that does not fit may let a
        later one pass: a cheaper kind, the other Hystart); with a broker,
        hand every queued run to it."""
        with self.lock:
            for run in list(self._waiting):
                if self.remote is None and len(self._active) >= self.max_concurrent:
                    break
                if self.remote is None:
                    run.place = host_runs.admit(run.run_id, demand(run.scenario), self.calibration)[1]
                    if run.place is None:
                        continue
                self._waiting.remove(run)
                self._active[run.run_id] = run
                if self.remote is not None:
                    self.remote.send(run)
                    continue
                run.thread = threading.Thread(target=self._execute, args=(run,), name=f"run-{run.run_id}")
                run.thread.start()
            # Runs of other processes on the host end without telling this queue.
            if self._waiting and not self.closed and (self._recheck is None or not self._recheck.is_alive()):
                self._recheck = threading.Timer(RECHECK_S, self._look_again)
                self._recheck.daemon = True
                self._recheck.start()

    def _look_again(self) -> None:
        """The recheck timer fired. It forgets itself first: while its own
        thread runs it is alive, and a queue whose runs all wait (nothing of
        its own ends to look again) would never set another."""
        with self.lock:
            self._recheck = None
            self._start_what_fits()

    def record_event(self, run: QueuedRun, event: Event, once: bool = False) -> None:
        """Store a run's event (its samples as rows) and publish it, whether
        the run runs here or on a worker; the summary is published once
        stored, by finish. once: a sample stored already (an event read
        again after a restart) is neither stored nor published again."""
        if event["type"] == "sample":
            rows = self.store.add_sample_once(event) if once else self.store.add_sample(event)
            if rows is None:
                return
            # Subscribers get the rows as stored: a run looks the same live and stored.
            event = {"type": "sample", "run_id": event["run_id"], "iteration": event["iteration"],
                     "t_s": event["t_s"], **rows.to_dict(), "cross_traffic": event.get("cross_traffic")}
        if event["type"] != "summary":
            self.broker.publish_run_event(event, run.campaign_id)

    def artifact_cap_bytes(self, scenario: Scenario) -> int:
        """The most bytes a run's kept files may take: its scenario's capture.max_bytes, or this server's."""
        return scenario.capture.max_bytes or self.artifact_bytes

    def finish(self, run_id: str, result: dict[str, Any]) -> None:
        """A started run ended with result (RunResult.to_dict()): stored,
        published, its on_finished told, and the next runs started."""
        with self.lock:
            run = self._active.pop(run_id, None)
            if run is None:
                return
            self._finish(run, result)
            self._start_what_fits()

    def _execute(self, run: QueuedRun) -> None:
        self.store.set_run_status(run.run_id, "running")

        def on_event(event: Event) -> None:
            self.record_event(run, event)

        sink = self.artifacts.sink(run.run_id, self.artifact_cap_bytes(run.scenario))
        try:
            result = runner.run(run.scenario, on_event, run.cancel, run.run_id, sink).to_dict()
        except Exception as error:  # preflight on a host that changed since submit; engine bugs
            log.exception("run %s failed", run.run_id)
            result = {"run_id": run.run_id, "status": "failed", "error": str(error), "flows": [], "iterations": []}
        self.finish(run.run_id, result)

    def _finish(self, run: QueuedRun, result: dict[str, Any]) -> None:
        if run.place is not None:
            run.place.release()
        if not self.store.finish_run(run.run_id, result):
            return  # it had ended already: a result is counted once
        self.broker.publish_run_event({"type": "summary", **result}, run.campaign_id)
        self._finished.notify_all()
        if run.on_finished is not None:
            run.on_finished(run.run_id, result["status"])
