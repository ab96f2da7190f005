"""Runs and campaigns as a service: the one place where scenarios become
engine runs. The HTTP API and the CLI are two thin faces of it.

RunManager puts together the quotas every queueing passes (admission.py),
the run queue (queue.py: the queue, a thread per run), the campaigns driven
through it (campaign_driver.py) and the fan-out of their events
(broker.py); and owns their life cycle: what a killed predecessor left is
removed at start (recover), everything is cancelled and torn down at the
end (shutdown).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from satlab.engine import host, topology
from satlab.scenario import Scenario, validate
from satlab.service.admission import OPERATOR, Admission, Caller, CampaignRequest, Policy
from satlab.service.broker import Broker
from satlab.service.campaign import CampaignItem, CampaignSpec
from satlab.service.campaign_driver import CampaignDriver, CampaignRunning
from satlab.service.labs import preset_of
from satlab.service.queue import RunQueue, host_calibration
from satlab.service.remote import RemoteRuns
from satlab.service.store import CampaignItemWithScenario, CampaignRow, RunOrigin, Store
from satlab.settings import Limits

INTERRUPTED = ("the backend stopped before the run finished (it was restarted or killed); "
               "what the run had created was removed")
INTERRUPTED_LEFT = ("the backend stopped before the run finished (it was restarted or killed); "
                    "satlab could not remove all that dead runs left ({}): `satlab cleanup` as root retries")


class RunManager:
    def __init__(self, store: Store, max_concurrent: int = 4, artifact_bytes: int = Limits().run_artifact_bytes,
                 policy: Callable[[], Policy] | None = None):
        """policy: the rules in force (the API's: the instructor's quotas and
        presets); by default the environment's limits (SATLAB_LIMIT_<NAME>)."""
        self.store = store
        self.broker = Broker()
        self.queue = RunQueue(store, self.broker, max_concurrent, artifact_bytes)
        self.campaigns = CampaignDriver(store, self.queue, self.broker)
        self.queue.calibration = host_calibration()
        self.remote: RemoteRuns | None = None  # see use_broker
        environment = Policy(Limits.from_env())
        self.admission = Admission(store, policy or (lambda: environment))

    @property
    def max_concurrent(self) -> int:
        return self.queue.max_concurrent

    # -- runs: see queue.RunQueue ------------------------------------------------

    def submit(self, scenario: Scenario, caller: Caller = OPERATOR, origin: RunOrigin | None = None) -> str:
        """Queue a run for caller, from origin (its page or tool, and its
        preset: origin.lab, None for a scenario of their own; None: not
        known): admission.Refused, or ScenarioError if this host cannot run
        it; nothing is created then."""
        with self.queue.lock:  # the check and the queueing at once: a burst passes no quota
            self.admission.run(caller, scenario, None if origin is None else origin.lab)
            run_id = self.queue.submit(scenario, origin=origin)
            if caller.owner is not None:
                self.store.set_run_owner(run_id, caller.owner)
        return run_id

    def cancel(self, run_id: str) -> bool:
        return self.queue.cancel(run_id)

    def wait(self, run_id: str, timeout: float | None = None) -> str | None:
        return self.queue.wait(run_id, timeout)

    # -- campaigns: see campaign_driver.CampaignDriver ---------------------------

    def start_campaign(self, spec: CampaignSpec, items: list[CampaignItem], caller: Caller = OPERATOR,
                       study: str | None = None, study_quick: bool = False) -> str:
        """Start a campaign for caller: admission.Refused, or ScenarioError if
        this host cannot run one of its scenarios; nothing is created then."""
        request = _campaign_request([(item.configuration, item.parameters, item.scenario) for item in items],
                                    spec.model_dump(mode="json"), study)
        with self.queue.lock:
            self.admission.campaign(caller, request)
            return self.campaigns.start(spec, items, study, study_quick, owner=caller.owner)

    def resume_campaign(self, campaign_id: str, caller: Caller = OPERATOR, parallel: int | None = None) -> None:
        """Run what a campaign has left (its cancelled items; its pending ones
        unless it is running), admitted for caller like a new campaign of
        those runs: admission.Refused, KeyError for an unknown campaign.
        parallel: runs at once (None: the campaign's own)."""
        campaign = self._campaign(campaign_id)
        wanted = ("cancelled",) if campaign.status == "running" else ("cancelled", "pending")
        left = [item for item in self.store.campaign_items(campaign_id) if item.status in wanted]
        self._admit_and_resume(campaign, left, caller, parallel=parallel)

    def redo_unfaithful(self, campaign_id: str, caller: Caller = OPERATOR, parallel: int | None = None) -> int:
        """Run again the runs of a finished campaign whose host did not keep
        up, admitted for caller like a new campaign of those runs: their items
        go back to pending (the runs stay stored, with their evidence and the
        campaign's id) and the campaign resumes; how many. parallel: runs at
        once (None: the campaign's own; fewer than the first time when the
        host could not keep up with that many). KeyError for an unknown
        campaign, CampaignRunning for one still running, admission.Refused."""
        campaign = self._campaign(campaign_id)
        if campaign.status == "running":
            raise CampaignRunning(f"campaign {campaign_id} is still running: redo its runs once it has finished")
        redo = self.store.unfaithful_items(campaign_id)
        if redo:
            self._admit_and_resume(campaign, redo, caller, again=True, parallel=parallel)
        return len(redo)

    def _campaign(self, campaign_id: str) -> CampaignRow:
        campaign = self.store.get_campaign(campaign_id)
        if campaign is None:
            raise KeyError(f"no campaign {campaign_id!r}")
        return campaign

    def _admit_and_resume(self, campaign: CampaignRow, items: list[CampaignItemWithScenario], caller: Caller,
                          again: bool = False, parallel: int | None = None) -> None:
        """Admit items for caller like a new campaign of those runs (again:
        items that ran, put back to pending first), then resume the campaign."""
        request = _campaign_request([(item.configuration, item.parameters, item.scenario) for item in items],
                                    campaign.spec, campaign.study)
        with self.queue.lock:
            if items:
                self.admission.campaign(caller, request)
            for item in items if again else []:
                self.store.set_item(campaign.campaign_id, item.item_index, "pending")
            self.campaigns.resume(campaign.campaign_id, parallel)

    def cancel_campaign(self, campaign_id: str) -> bool:
        return self.campaigns.cancel(campaign_id)

    # -- life cycle ----------------------------------------------------------------

    def use_broker(self, url: str | None) -> None:
        """Runs go to `satlab worker`s through the Redis at url (None: they run
        in this process). Before recover: ValueError for a URL without a
        password; Redis unreachable is a state (remote.state), not an error."""
        if url is None:
            return
        self.remote = RemoteRuns(url, self.queue)
        self.queue.remote = self.remote

    def recover(self) -> dict[str, list[str]]:
        """At start: remove what runs of a dead satlab process left, mark those
        runs failed, and resume the campaigns no live process drives. (A run
        another live process has queued but not started yet is taken for
        dead: its process's claim covers running runs only.) With a broker,
        runs still queued or running are taken back instead (the workers hold
        them: remote.RemoteRuns.reconcile), then its events are read again."""
        removed = topology.sweep()
        self.queue.artifacts.remove_partials()
        left = topology.leftovers()
        message = INTERRUPTED_LEFT.format(", ".join(left[:4]) + (", …" if left[4:] else "")) if left else INTERRUPTED
        if self.remote is not None:
            self.remote.reconcile()
        interrupted = self.store.interrupt_unfinished(
            message, alive=lambda run_id: host.run_alive(run_id) or self.queue.active_run(run_id) is not None)
        resumed = self.campaigns.resume_abandoned()
        if self.remote is not None:
            self.remote.start()
        return {"removed_namespaces": removed, "interrupted_runs": interrupted, "resumed_campaigns": resumed}

    def shutdown(self, timeout: float = 60.0) -> None:
        """Cancel every queued and running run and wait for their teardown.
        Campaigns stay `running` in the store: the next start resumes them.
        Runs on workers go on: the next start takes them back."""
        if self.remote is not None:
            self.remote.close()
        self.queue.close(timeout)
        self.campaigns.release()


def _campaign_request(items: list[tuple[int, dict[str, Any], Scenario | dict[str, Any]]], spec: dict[str, Any],
                      study: str | None) -> CampaignRequest:
    """A campaign's runs (configuration, parameters, its scenario, or as
    stored) as admission sees them: each configuration's scenario once."""
    first: dict[int, tuple[dict[str, Any], Scenario | dict[str, Any]]] = {}
    for configuration, parameters, scenario in items:
        first.setdefault(configuration, (parameters, scenario))
    labelled = [(f"{configuration}: " + (", ".join(f"{path}={value}" for path, value in parameters.items())
                                         or "the scenario"),
                 scenario if isinstance(scenario, Scenario) else validate(scenario))
                for configuration, (parameters, scenario) in sorted(first.items())]
    return CampaignRequest(labelled, runs=len(items), parallel=int(spec.get("parallel", 1)),
                           lab=preset_of(spec["scenario"]), description=str(spec.get("description", "")),
                           from_recipe=study is not None)
