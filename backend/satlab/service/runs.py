"""Runs and campaigns as a service: the one place where scenarios become engine
runs, each on a thread of its own, with every event stored and fanned out.
The HTTP API and the CLI are two thin faces of it.

A run's thread lives exactly as long as the run: the engine's children are
tied to the thread that started them (PR_SET_PDEATHSIG), and die with the
process if it is killed; `recover()` at the next start removes what they
leave (namespaces, Hystart claims) and marks the runs failed.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from satlab.engine import host, preflight, runner, topology
from satlab.engine.plan import new_run_id
from satlab.scenario import Scenario, ScenarioError, validate
from satlab.service.campaign import CampaignItem, CampaignSpec
from satlab.service.provenance import provenance
from satlab.service.store import FINISHED, Store

log = logging.getLogger("satlab")

Event = dict[str, Any]
INTERRUPTED = ("the backend stopped before the run finished (it was restarted or killed); "
               "what the run had created was removed")
INTERRUPTED_LEFT = ("the backend stopped before the run finished (it was restarted or killed); "
                    "satlab could not remove all that dead runs left ({}): `satlab cleanup` as root retries")


class Broker:
    """Hands each event to the subscribers of its run or campaign (or of
    everything). Callbacks run on the publishing thread: they must be quick."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[tuple[str | None, Callable[[Event], object]]] = []

    def subscribe(self, callback: Callable[[Event], object], key: str | None = None) -> Callable[[], None]:
        """Events whose run_id or campaign_id is key (all events if None); returns the unsubscriber."""
        entry = (key, callback)
        with self._lock:
            self._subscribers.append(entry)

        def unsubscribe() -> None:
            with self._lock:
                if entry in self._subscribers:
                    self._subscribers.remove(entry)
        return unsubscribe

    def publish(self, event: Event) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for key, callback in subscribers:
            if key is None or key in (event.get("run_id"), event.get("campaign_id")):
                try:
                    callback(event)
                except Exception:  # one broken subscriber must not stop a run
                    log.exception("an event subscriber failed")


@dataclass
class _Run:
    run_id: str
    scenario: Scenario
    campaign_id: str | None
    on_finished: Callable[[str, str], None] | None
    cancel: runner.CancelToken = field(default_factory=runner.CancelToken)
    thread: threading.Thread | None = None


@dataclass
class _Campaign:
    parallel: int
    claim: IO[str]  # tells other satlab processes that this one drives the campaign
    running: dict[int, str] = field(default_factory=dict)  # item index -> run id
    cancelled: bool = False


class RunManager:
    def __init__(self, store: Store, max_concurrent: int = 4):
        self.store = store
        self.max_concurrent = max_concurrent
        self.broker = Broker()
        self._lock = threading.RLock()
        self._finished = threading.Condition(self._lock)
        self._queue: list[_Run] = []
        self._active: dict[str, _Run] = {}
        self._campaigns: dict[str, _Campaign] = {}
        self._closed = False

    # -- runs ---------------------------------------------------------------

    def submit(self, scenario: Scenario, campaign_id: str | None = None, item_index: int | None = None,
               on_finished: Callable[[str, str], None] | None = None) -> str:
        """Queue a run; ScenarioError (nothing created) if this host cannot run it."""
        preflight.check(scenario)
        with self._lock:
            if self._closed:
                raise RuntimeError("the run manager is shutting down")
            run_id = new_run_id()
            while self.store.get_run(run_id) is not None:
                run_id = new_run_id()
            self.store.create_run(run_id, scenario.model_dump(mode="json", by_alias=True), provenance(),
                                  campaign_id, item_index)
            self._queue.append(_Run(run_id, scenario, campaign_id, on_finished))
            self._publish({"type": "state", "state": "queued", "run_id": run_id}, campaign_id)
            self._start_what_fits()
        return run_id

    def cancel(self, run_id: str) -> bool:
        """Cancel a queued or running run; False if it is not (or no longer) either."""
        with self._lock:
            queued = next((run for run in self._queue if run.run_id == run_id), None)
            if queued is not None:
                self._queue.remove(queued)
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
            return run["status"] if run is not None and run["status"] in FINISHED else None
        with self._finished:
            self._finished.wait_for(lambda: status() is not None, timeout)
        return status()

    def _start_what_fits(self) -> None:
        """Start queued runs in order while there is room; a run whose CUBIC
        Hystart setting (host-wide) conflicts with an active run's waits."""
        with self._lock:
            for run in list(self._queue):
                if len(self._active) >= self.max_concurrent:
                    return
                wanted = run.scenario.hystart
                if wanted is not None and any(active.scenario.hystart not in (None, wanted)
                                              for active in self._active.values()):
                    continue
                self._queue.remove(run)
                self._active[run.run_id] = run
                run.thread = threading.Thread(target=self._execute, args=(run,), name=f"run-{run.run_id}")
                run.thread.start()

    def _execute(self, run: _Run) -> None:
        self.store.set_run_status(run.run_id, "running")

        def on_event(event: Event) -> None:
            if event["type"] == "sample":
                # Subscribers get the rows as stored: a run looks the same live and stored.
                rows = self.store.add_sample(event)
                event = {"type": "sample", "run_id": event["run_id"], "iteration": event["iteration"],
                         "t_s": event["t_s"], **rows, "cross_traffic": event.get("cross_traffic")}
            if event["type"] != "summary":  # the summary is published once stored, by _finish
                self._publish(event, run.campaign_id)

        try:
            result = runner.run(run.scenario, on_event, run.cancel, run.run_id).to_dict()
        except Exception as error:  # preflight on a host that changed since submit; engine bugs
            log.exception("run %s failed", run.run_id)
            result = {"run_id": run.run_id, "status": "failed", "error": str(error), "flows": [], "iterations": []}
        with self._lock:
            del self._active[run.run_id]
            self._finish(run, result)
            self._start_what_fits()

    def _finish(self, run: _Run, result: dict[str, Any]) -> None:
        self.store.finish_run(run.run_id, result)
        self._publish({"type": "summary", **result}, run.campaign_id)
        self._finished.notify_all()
        if run.on_finished is not None:
            run.on_finished(run.run_id, result["status"])

    def _publish(self, event: Event, campaign_id: str | None) -> None:
        self.broker.publish({**event, "campaign_id": campaign_id} if campaign_id else event)

    # -- campaigns ------------------------------------------------------------

    def start_campaign(self, spec: CampaignSpec, items: list[CampaignItem], study: str | None = None,
                       study_quick: bool = False) -> str:
        """Store the campaign and start its first runs; ScenarioError if this
        host cannot run one of its scenarios (nothing created). study: the
        study the campaign runs (satlab.studies)."""
        for item in items:
            try:
                preflight.check(item.scenario)
            except ScenarioError as error:
                # Each problem still starts with its field (the API's loc).
                raise ScenarioError([f"{problem} (configuration {item.configuration}: "
                                     f"{_parameters(item.parameters)})" for problem in error.problems]) from None
        campaign_id = f"c{secrets.token_hex(4)}"
        self.store.create_campaign(campaign_id, spec.name, spec.model_dump(mode="json"),
                                   [item.to_dict() for item in items], study, study_quick)
        with self._lock:
            self._campaigns[campaign_id] = _Campaign(spec.parallel, self._claim_campaign(campaign_id))
            self._advance(campaign_id)
        return campaign_id

    @staticmethod
    def _claim_campaign(campaign_id: str) -> IO[str]:
        claim = host.try_claim(_campaign_claim(campaign_id))
        if claim is None:
            raise RuntimeError(f"campaign {campaign_id} is being run by another satlab process")
        return claim

    def resume_campaign(self, campaign_id: str) -> None:
        """Run what a campaign has left: pending items and those cancelled.
        RuntimeError if another satlab process drives it."""
        campaign = self.store.get_campaign(campaign_id)
        if campaign is None:
            raise KeyError(f"no campaign {campaign_id!r}")
        with self._lock:
            current = self._campaigns.get(campaign_id)
            if current is not None and not current.cancelled:
                return  # running here already
            if current is None:
                current = _Campaign(campaign["spec"].get("parallel", 1), self._claim_campaign(campaign_id))
                self._campaigns[campaign_id] = current
            current.cancelled = False
            for item in campaign["items"]:
                if item["status"] == "cancelled":
                    self.store.set_item(campaign_id, item["item_index"], "pending", item["run_id"])
            self.store.set_campaign_status(campaign_id, "running")
            self._advance(campaign_id)

    def cancel_campaign(self, campaign_id: str) -> bool:
        """Stop a campaign: pending items are cancelled, running runs too. False if it is not running."""
        with self._lock:
            campaign = self._campaigns.get(campaign_id)
            if campaign is None or campaign.cancelled:
                return False
            campaign.cancelled = True
            for item in self.store.pending_items(campaign_id):
                self.store.set_item(campaign_id, item["item_index"], "cancelled")
            for run_id in list(campaign.running.values()):
                self.cancel(run_id)
            self._advance(campaign_id)
            return True

    def _advance(self, campaign_id: str) -> None:
        """Keep `parallel` runs of the campaign going; close it when all ran."""
        with self._lock:
            campaign = self._campaigns.get(campaign_id)
            if campaign is None:  # closed already: cancelling its last queued run closed it
                return
            if not campaign.cancelled:
                pending = self.store.pending_items(campaign_id)
                while len(campaign.running) < campaign.parallel and pending:
                    self._start_item(campaign_id, campaign, pending.pop(0))
            if not campaign.running:
                finished = "cancelled" if campaign.cancelled else "done"
                if campaign.cancelled or not self.store.pending_items(campaign_id):
                    self.store.set_campaign_status(campaign_id, finished)
                    del self._campaigns[campaign_id]
                    host.release(_campaign_claim(campaign_id), campaign.claim)
            self._publish_progress(campaign_id)

    def _start_item(self, campaign_id: str, campaign: _Campaign, item: dict[str, Any]) -> None:
        index = item["item_index"]
        try:
            run_id = self.submit(validate(item["scenario"]), campaign_id, index,
                                 lambda run_id, status: self._item_finished(campaign_id, index, run_id, status))
        except ScenarioError as error:  # the host changed since the campaign was checked
            log.warning("campaign %s item %d cannot run: %s", campaign_id, index, error)
            self.store.set_item(campaign_id, index, "failed")
            return
        campaign.running[index] = run_id
        self.store.set_item(campaign_id, index, "running", run_id)

    def _item_finished(self, campaign_id: str, index: int, run_id: str, status: str) -> None:
        with self._lock:
            self.store.set_item(campaign_id, index, status, run_id)
            campaign = self._campaigns.get(campaign_id)
            if campaign is None:
                return
            campaign.running.pop(index, None)
            if not self._closed:
                self._advance(campaign_id)

    def _publish_progress(self, campaign_id: str) -> None:
        campaign = self.store.get_campaign(campaign_id)
        if campaign is not None:
            self.broker.publish({"type": "campaign", "campaign_id": campaign_id, "status": campaign["status"],
                                 "progress": campaign["progress"]})

    # -- life cycle -------------------------------------------------------------

    def recover(self) -> dict[str, list[str]]:
        """At start: remove what runs of a dead satlab process left, mark those
        runs failed, and resume the campaigns no live process drives. (A run
        another live process has queued but not started yet is taken for
        dead: its process's claim covers running runs only.)"""
        removed = topology.sweep()
        left = topology.leftovers()
        message = INTERRUPTED_LEFT.format(", ".join(left[:4]) + (", …" if left[4:] else "")) if left else INTERRUPTED
        interrupted = self.store.interrupt_unfinished(message, alive=host.run_alive)
        resumed = [campaign_id for campaign_id in self.store.campaigns_with_status("running")
                   if not host.is_claimed(_campaign_claim(campaign_id))]
        for campaign_id in resumed:
            self.resume_campaign(campaign_id)
        return {"removed_namespaces": removed, "interrupted_runs": interrupted, "resumed_campaigns": resumed}

    def shutdown(self, timeout: float = 60.0) -> None:
        """Cancel every queued and running run and wait for their teardown.
        Campaigns stay `running` in the store: the next start resumes them."""
        with self._lock:
            self._closed = True
            for run in list(self._queue):
                self.cancel(run.run_id)
            threads = [run.thread for run in self._active.values() if run.thread is not None]
            for run in self._active.values():
                run.cancel.cancel()
        for thread in threads:
            thread.join(timeout)
        with self._lock:
            for campaign in self._campaigns.values():
                campaign.claim.close()
            self._campaigns.clear()


def _campaign_claim(campaign_id: str) -> str:
    return f"campaign-{campaign_id}.lock"


def _parameters(parameters: dict[str, Any]) -> str:
    return ", ".join(f"{path}={value}" for path, value in parameters.items())
