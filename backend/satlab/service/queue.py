"""The run queue: the one way into running (submit: the API's runs, the
command line's, every campaign item's), each run stored as it is admitted,
started while fewer than max_concurrent run, each on a thread of its own,
with every event stored and published.

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
from typing import Any

from satlab.engine import preflight, runner
from satlab.engine.plan import new_run_id
from satlab.scenario import Scenario
from satlab.service.artifacts import RunArtifacts
from satlab.service.broker import Broker, Event
from satlab.service.provenance import provenance
from satlab.service.store import FINISHED, Store
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


class RunQueue:
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
               on_finished: OnFinished | None = None) -> str:
        """Admit a run and queue it: ScenarioError (nothing created) if this
        host cannot run it, RuntimeError once shutting down; else its id."""
        preflight.check(scenario)
        with self.lock:
            if self.closed:
                raise RuntimeError("the run manager is shutting down")
            run_id = new_run_id()
            while self.store.get_run(run_id) is not None:
                run_id = new_run_id()
            self.store.create_run(run_id, scenario.model_dump(mode="json", by_alias=True), provenance(),
                                  campaign_id, item_index)
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
                self._finish(queued, {"run_id": run_id, "status": "cancelled",
                                      "error": "the run was cancelled before it started", "flows": [],
                                      "iterations": []})
                return True
            active = self._active.get(run_id)
            if active is None:
                return False
            active.cancel.cancel()
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

    def _start_what_fits(self) -> None:
        """Start queued runs in order while there is room; a run whose CUBIC
        Hystart setting (host-wide) conflicts with an active run's waits."""
        with self.lock:
            for run in list(self._waiting):
                if len(self._active) >= self.max_concurrent:
                    return
                wanted = run.scenario.hystart
                if wanted is not None and any(active.scenario.hystart not in (None, wanted)
                                              for active in self._active.values()):
                    continue
                self._waiting.remove(run)
                self._active[run.run_id] = run
                run.thread = threading.Thread(target=self._execute, args=(run,), name=f"run-{run.run_id}")
                run.thread.start()

    def _execute(self, run: QueuedRun) -> None:
        self.store.set_run_status(run.run_id, "running")

        def on_event(event: Event) -> None:
            if event["type"] == "sample":
                # Subscribers get the rows as stored: a run looks the same live and stored.
                rows = self.store.add_sample(event)
                event = {"type": "sample", "run_id": event["run_id"], "iteration": event["iteration"],
                         "t_s": event["t_s"], **rows.to_dict(), "cross_traffic": event.get("cross_traffic")}
            if event["type"] != "summary":  # the summary is published once stored, by _finish
                self.broker.publish_run_event(event, run.campaign_id)

        sink = self.artifacts.sink(run.run_id, run.scenario.capture.max_bytes or self.artifact_bytes)
        try:
            result = runner.run(run.scenario, on_event, run.cancel, run.run_id, sink).to_dict()
        except Exception as error:  # preflight on a host that changed since submit; engine bugs
            log.exception("run %s failed", run.run_id)
            result = {"run_id": run.run_id, "status": "failed", "error": str(error), "flows": [], "iterations": []}
        with self.lock:
            del self._active[run.run_id]
            self._finish(run, result)
            self._start_what_fits()

    def _finish(self, run: QueuedRun, result: dict[str, Any]) -> None:
        self.store.finish_run(run.run_id, result)
        self.broker.publish_run_event({"type": "summary", **result}, run.campaign_id)
        self._finished.notify_all()
        if run.on_finished is not None:
            run.on_finished(run.run_id, result["status"])
