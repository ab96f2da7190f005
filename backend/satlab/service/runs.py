"""Runs and campaigns as a service: the one place where scenarios become
engine runs. The HTTP API and the CLI are two thin faces of it.

RunManager puts together the run queue (queue.py: admission, the queue, a
thread per run), the campaigns driven through it (campaign_driver.py) and
the fan-out of their events (broker.py); and owns their life cycle: what a
killed predecessor left is removed at start (recover), everything is
cancelled and torn down at the end (shutdown).
"""

from __future__ import annotations

from satlab.engine import host, topology
from satlab.scenario import Scenario
from satlab.service.broker import Broker
from satlab.service.campaign import CampaignItem, CampaignSpec
from satlab.service.campaign_driver import CampaignDriver
from satlab.service.queue import OnFinished, RunQueue, host_calibration
from satlab.service.remote import RemoteRuns
from satlab.service.store import Store
from satlab.settings import Limits

INTERRUPTED = ("the backend stopped before the run finished (it was restarted or killed); "
               "what the run had created was removed")
INTERRUPTED_LEFT = ("the backend stopped before the run finished (it was restarted or killed); "
                    "satlab could not remove all that dead runs left ({}): `satlab cleanup` as root retries")


class RunManager:
    def __init__(self, store: Store, max_concurrent: int = 4, artifact_bytes: int = Limits().run_artifact_bytes):
        self.store = store
        self.broker = Broker()
        self.queue = RunQueue(store, self.broker, max_concurrent, artifact_bytes)
        self.campaigns = CampaignDriver(store, self.queue, self.broker)
        self.queue.calibration = host_calibration()
        self.remote: RemoteRuns | None = None  # see use_broker

    @property
    def max_concurrent(self) -> int:
        return self.queue.max_concurrent

    # -- runs: see queue.RunQueue ------------------------------------------------

    def submit(self, scenario: Scenario, campaign_id: str | None = None, item_index: int | None = None,
               on_finished: OnFinished | None = None) -> str:
        return self.queue.submit(scenario, campaign_id, item_index, on_finished)

    def cancel(self, run_id: str) -> bool:
        return self.queue.cancel(run_id)

    def wait(self, run_id: str, timeout: float | None = None) -> str | None:
        return self.queue.wait(run_id, timeout)

    # -- campaigns: see campaign_driver.CampaignDriver ---------------------------

    def start_campaign(self, spec: CampaignSpec, items: list[CampaignItem], study: str | None = None,
                       study_quick: bool = False) -> str:
        return self.campaigns.start(spec, items, study, study_quick)

    def resume_campaign(self, campaign_id: str) -> None:
        self.campaigns.resume(campaign_id)

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
