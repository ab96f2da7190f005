"""A worker's heartbeat: its record in Redis (satlab.distributed.workers)
renewed every HEARTBEAT_S, and at once when its runs change; on each beat
the runs the server cancelled are stopped. If Redis stays away longer than
the record lives, the server has given this worker's runs to another: they
are abandoned (stopped, publishing nothing more).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass
from typing import Any

import redis

from satlab.distributed import claims, workers
from satlab.distributed.workers import WorkerRecord, WorkerRun
from satlab.service.worker.execution import WorkerRuns

log = logging.getLogger("satlab")


@dataclass(frozen=True)
class Identity:
    """What does not change while a worker runs."""
    name: str
    host: str
    kernel: str
    satlab_version: str | None
    calibration: dict[str, Any] | None
    max_runs: int
    started_at: float


class Heartbeat:
    def __init__(self, client: redis.Redis, identity: Identity, runs: WorkerRuns):
        self.client, self.identity, self.runs = client, identity, runs
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self._last_renewed = time.monotonic()
        self._thread = threading.Thread(target=self._beat_until_stopped, name="heartbeat", daemon=True)

    def record(self) -> WorkerRecord:
        identity, gate = self.identity, self.runs.gate
        held = [WorkerRun(run_id=run.run_id, kind=run.demand.kind, attempt=run.attempt,
                          state="running" if run.place is not None else "waiting", since=run.since)
                for run in gate.held()]
        return WorkerRecord(name=identity.name, host=identity.host, pid=os.getpid(), started_at=identity.started_at,
                            seen_at=time.time(), kernel=identity.kernel, satlab_version=identity.satlab_version,
                            calibration=identity.calibration, max_runs=identity.max_runs, runs=held,
                            refused=self.runs.refused, last_refusal=self.runs.last_refusal,
                            waiting_reason=gate.waiting_reason)

    def start(self) -> None:
        workers.announce(self.client, self.record())
        self._thread.start()

    def beat_now(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        """Stop beating and remove the record: the server sees at once that this worker left."""
        self._stopped.set()
        self._wake.set()
        self._thread.join(10)
        try:
            workers.forget(self.client, self.identity.name)
        except redis.RedisError as error:
            log.warning("satlab worker %s: its record could not be removed (%s); it expires within %d s",
                        self.identity.name, error, workers.RECORD_TTL_S)

    def _beat_until_stopped(self) -> None:
        while not self._stopped.is_set():
            self._wake.wait(workers.HEARTBEAT_S)
            self._wake.clear()
            if self._stopped.is_set():
                return
            self._beat()

    def _beat(self) -> None:
        try:
            workers.announce(self.client, self.record())
            if cancelled := claims.cancelled(self.client, self.runs.running()):
                self.runs.cancel(cancelled)
            self._last_renewed = time.monotonic()
        except redis.RedisError as error:
            away_s = time.monotonic() - self._last_renewed
            log.warning("satlab worker %s: Redis did not answer (%s) for %.0f s", self.identity.name, error, away_s)
            if away_s > workers.RECORD_TTL_S and self.runs.running():
                log.error("satlab worker %s: its record expired: the server gives its runs to another worker; "
                          "they stop here", self.identity.name)
                self.runs.abandon()
