"""Campaigns as they run: each keeps `parallel` of its items going through
the run queue (which admits them by cost), item after item, until all ran
or it is cancelled; with a broker too, `parallel` stays the upper bound
(each worker then admits by its own calibration), so that a student's
campaign never runs more at once than its admission counted; its progress
is published after each change. A campaign is claimed (a lock
file, host.try_claim) by the process that drives it, so that a second
satlab process on the host neither drives it too nor takes it for
abandoned; the claim and its file go when the campaign ends or the process
stops, and a crashed process's claim is free at once (a flock) and its file
removed by the next start (resume_abandoned).

The driver takes the run queue's lock: a finishing run calls back into the
driver while the queue holds it, and the driver submits and cancels through
the queue; with one lock the two never wait for each other in turn.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
from dataclasses import dataclass, field
from typing import IO, Any

from satlab.engine import host, preflight
from satlab.scenario import ScenarioError, validate
from satlab.service.broker import Broker
from satlab.service.campaign import CampaignItem, CampaignSpec
from satlab.service.queue import RunQueue
from satlab.service.store import CampaignItemWithScenario, Store

log = logging.getLogger("satlab")

ORPHANED = ("the satlab process that ran it stopped before it finished (killed, or its machine stopped); "
            "its campaign item ran again when the campaign resumed")


@dataclass
class _Campaign:
    parallel: int
    claim: IO[str]  # tells other satlab processes that this one drives the campaign
    running: dict[int, str] = field(default_factory=dict)  # item index -> run id
    cancelled: bool = False


def campaign_claim(campaign_id: str) -> str:
    return f"campaign-{campaign_id}.lock"


class CampaignClaimed(RuntimeError):
    """Another satlab process drives the campaign."""


class CampaignRunning(RuntimeError):
    """The campaign has not finished: what is asked of it waits until it has."""


class CampaignDriver:
    def __init__(self, store: Store, queue: RunQueue, broker: Broker):
        self.store, self._queue, self._broker = store, queue, broker
        self._lock = queue.lock
        self._campaigns: dict[str, _Campaign] = {}

    def start(self, spec: CampaignSpec, items: list[CampaignItem], study: str | None = None,
              study_quick: bool = False, owner: str | None = None) -> str:
        """Store the campaign and start its first runs; ScenarioError if this
        host cannot run one of its scenarios (nothing created). study: the
        study the campaign runs (satlab.studies); owner: who started it (its
        runs are theirs, counted in their quotas from the first)."""
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
        if owner is not None:
            self.store.set_campaign_owner(campaign_id, owner)
        with self._lock:
            self._campaigns[campaign_id] = _Campaign(spec.parallel, _claim(campaign_id))
            self._advance(campaign_id)
        return campaign_id

    def resume(self, campaign_id: str, parallel: int | None = None) -> None:
        """Run what a campaign has left: pending items, those cancelled, and
        those whose run's process died mid-run (the run fails, with why).
        parallel: runs at once from now on (None: its spec's `parallel`).
        CampaignClaimed if another satlab process drives it."""
        campaign = self.store.get_campaign(campaign_id)
        if campaign is None:
            raise KeyError(f"no campaign {campaign_id!r}")
        with self._lock:
            current = self._campaigns.get(campaign_id)
            if current is not None and not current.cancelled:
                return  # running here already
            if current is None:
                current = _Campaign(int(campaign.spec.get("parallel", 1)), _claim(campaign_id))
                self._campaigns[campaign_id] = current
            current.cancelled = False
            if parallel is not None:
                current.parallel = parallel
            for item in campaign.items:
                if item.status == "cancelled":
                    self.store.set_item(campaign_id, item.item_index, "pending", item.run_id)
                elif item.status == "running" and item.run_id is not None:
                    if self._queue.active_run(item.run_id) is None and not host.run_alive(item.run_id):
                        # Its process died mid-run (SIGKILL, a machine that stopped): the item runs again.
                        self.store.set_run_status(item.run_id, "failed", ORPHANED)
                        self.store.set_item(campaign_id, item.item_index, "pending")
                    else:
                        self._follow(campaign_id, current, item.item_index, item.run_id)
            self.store.set_campaign_status(campaign_id, "running")
            self._advance(campaign_id)

    def cancel(self, campaign_id: str) -> bool:
        """Stop a campaign: pending items are cancelled, running runs too. False if it is not running."""
        with self._lock:
            campaign = self._campaigns.get(campaign_id)
            if campaign is None or campaign.cancelled:
                return False
            campaign.cancelled = True
            for item in self.store.pending_items(campaign_id):
                self.store.set_item(campaign_id, item.item_index, "cancelled")
            for run_id in list(campaign.running.values()):
                self._queue.cancel(run_id)
            self._advance(campaign_id)
            return True

    def resume_abandoned(self) -> list[str]:
        """Resume the campaigns still running in the store that no live satlab
        process drives. The claims dead processes left (of any store) go."""
        host.remove_unclaimed(campaign_claim("*"))
        abandoned = []
        for campaign_id in self.store.campaigns_with_status("running"):
            if host.is_claimed(campaign_claim(campaign_id)):
                continue
            try:
                self.resume(campaign_id)
            except CampaignClaimed:
                continue  # another satlab process starting too claimed it since the look
            abandoned.append(campaign_id)
        return abandoned

    def release(self) -> None:
        """Let go of every campaign (the process stops): they stay running in
        the store, their claims go (the next start finds them abandoned)."""
        with self._lock:
            for campaign_id, campaign in self._campaigns.items():
                host.release(campaign_claim(campaign_id), campaign.claim)
            self._campaigns.clear()

    def _follow(self, campaign_id: str, campaign: _Campaign, index: int, run_id: str) -> None:
        """An item whose run goes on after a restart (a worker holds it): its end advances the campaign."""
        run = self._queue.active_run(run_id)
        if run is not None:
            run.on_finished = lambda run_id, status: self._item_finished(campaign_id, index, run_id, status)
            campaign.running[index] = run_id

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
                    host.release(campaign_claim(campaign_id), campaign.claim)
            self._publish_progress(campaign_id)

    def _start_item(self, campaign_id: str, campaign: _Campaign, item: CampaignItemWithScenario) -> None:
        index = item.item_index
        try:
            run_id = self._queue.submit(validate(item.scenario), campaign_id, index,
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
            if not self._queue.closed:
                self._advance(campaign_id)

    def _publish_progress(self, campaign_id: str) -> None:
        campaign = self.store.get_campaign(campaign_id)
        if campaign is not None:
            self._broker.publish({"type": "campaign", "campaign_id": campaign_id, "status": campaign.status,
                                  "progress": dataclasses.asdict(campaign.progress)})


def _claim(campaign_id: str) -> IO[str]:
    claim = host.try_claim(campaign_claim(campaign_id))
    if claim is None:
        raise CampaignClaimed(f"campaign {campaign_id} is being run by another satlab process")
    return claim


def _parameters(parameters: dict[str, Any]) -> str:
    return ", ".join(f"{path}={value}" for path, value in parameters.items())
