"""What a worker does with one message of the run queue (the Celery task
RUN_TASK), in order, stopping at the first step that says no:

1. validate it like an API request (satlab.distributed.messages): a
   message that is not a run request is refused, nothing runs, and the
   refusal is logged and shown in the worker's record; one that names a
   run the server may know fails that run with the reason;
2. drop it if the server cancelled the run, or if a worker claimed it
   already (the broker delivered it again): a run never runs twice;
3. wait for room on this host (gate.AdmissionGate);
4. run it with the engine, publishing every event to the server, and the
   files it keeps (within the cap the request gives) before its summary.

A worker that is stopping publishes nothing more of its runs: it leaves,
its record goes, and the server tries its runs once more elsewhere.
"""

from __future__ import annotations

import logging
import re
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis

from satlab.distributed import claims
from satlab.distributed.celery_app import visibility_timeout_s
from satlab.distributed.events import EventPublisher
from satlab.distributed.messages import RUN_ID_PATTERN, MessageRefused, RunRequest, parse_run_request
from satlab.engine import runner
from satlab.engine.admission import demand
from satlab.engine.artifacts import ArtifactSink
from satlab.service.artifacts import RunArtifacts
from satlab.service.provenance import provenance
from satlab.service.worker.gate import AdmissionGate

log = logging.getLogger("satlab")

REFUSAL_MAX_CHARS = 2000


class GiveBack(Exception):  # noqa: N818 (an outcome, not an error)
    """The worker stops before the run could start: the message goes back to the queue for another."""


class WorkerRuns:
    """The runs of one worker: its gate, its cancel tokens, its publisher."""

    def __init__(self, name: str, client: redis.Redis, gate: AdmissionGate, longest_run_s: float,
                 files_root: Path, on_change: Callable[[], object] = lambda: None):
        self.name, self.client, self.gate = name, client, gate
        self.files_root = files_root  # a directory per run of the files it keeps, until they are sent
        self.publisher = EventPublisher(client, name)
        self.claim_ttl_s = 2 * visibility_timeout_s(longest_run_s)  # outlives any redelivery of the message
        self.on_change = on_change
        self._lock = threading.Lock()
        self._cancels: dict[str, runner.CancelToken] = {}
        self._abandoned: set[str] = set()  # runs whose events go nowhere any more (see abandon)
        self.stopping = False
        self.refused = 0
        self.last_refusal: str | None = None

    def handle(self, message: Any) -> None:
        """One message of the queue, start to end (see the module)."""
        try:
            request = parse_run_request(message)
        except MessageRefused as refusal:
            self._refuse(message, refusal)
            return
        if claims.cancelled(self.client, [request.run_id]):
            log.info("satlab worker %s: run %s was cancelled before it started: dropped", self.name, request.run_id)
            return
        holder = claims.claim(self.client, request.run_id, self.name, self.claim_ttl_s)
        if holder is not None:
            log.warning("satlab worker %s: run %s was taken by %s already (the broker delivered it again): "
                        "not run twice", self.name, request.run_id, holder)
            return
        cancel = runner.CancelToken()
        with self._lock:
            self._cancels[request.run_id] = cancel
        try:
            self._admit_and_run(request, cancel)
        finally:
            with self._lock:
                del self._cancels[request.run_id]
                self._abandoned.discard(request.run_id)
            self.on_change()

    def running(self) -> list[str]:
        with self._lock:
            return list(self._cancels)

    def cancel(self, run_ids: set[str]) -> None:
        """Stop these runs (the server cancelled them)."""
        with self._lock:
            tokens = [token for run_id, token in self._cancels.items() if run_id in run_ids]
        for token in tokens:
            token.cancel()

    def abandon(self) -> None:
        """Redis stayed away longer than this worker's record lives: the server
        gives its runs to another worker, so these stop and publish nothing more."""
        with self._lock:
            self._abandoned.update(self._cancels)
            tokens = list(self._cancels.values())
        for token in tokens:
            token.cancel()

    def stop(self) -> None:
        """The worker stops: nothing more is published, every run is cancelled and torn down."""
        self.stopping = True
        self.gate.close()
        with self._lock:
            tokens = list(self._cancels.values())
        for token in tokens:
            token.cancel()

    def _admit_and_run(self, request: RunRequest, cancel: runner.CancelToken) -> None:
        self.on_change()
        if not self.gate.admit(request.run_id, demand(request.scenario), request.attempt,
                               lambda: cancel.cancelled):
            if self.stopping:
                claims.drop_claim(self.client, request.run_id)
                raise GiveBack(request.run_id)
            self._publish_end(request.run_id, "cancelled", "the run was cancelled before it started")
            return
        self.on_change()
        sink = RunArtifacts(self.files_root).sink(request.run_id, request.artifact_bytes)

        def publish(event: dict[str, Any]) -> None:
            if event["type"] == "summary":
                self._publish_files(request.run_id, sink)  # before the summary, which ends the run on the server
            self._publish(event)
        try:
            self._publish({"type": "state", "state": "started", "run_id": request.run_id,
                           "provenance": provenance()})
            runner.run(request.scenario, publish, cancel, request.run_id, sink)
        except Exception as error:  # preflight on this host (it differs from the server's); engine bugs
            log.exception("satlab worker %s: run %s failed", self.name, request.run_id)
            self._publish_end(request.run_id, "failed", f"on worker {self.name}: {error}")
        finally:
            shutil.rmtree(sink.directory, ignore_errors=True)
            self.gate.release(request.run_id)

    def _publish_files(self, run_id: str, sink: ArtifactSink) -> None:
        """Send the files the run kept to the server; one Redis refused is not
        sent (the server then lists it among those the run could not keep)."""
        if self._silenced(run_id):
            return
        for kept in sink.files:
            try:
                self.publisher.publish_file(run_id, kept, sink.directory / kept.name)
            except redis.RedisError as error:
                log.warning("satlab worker %s: the file %s of run %s did not reach Redis: %s", self.name,
                            kept.name, run_id, error)

    def _silenced(self, run_id: str | None) -> bool:
        """Nothing more of the run reaches the server: this worker stops, or gave the run up."""
        return self.stopping or run_id in self._abandoned

    def _publish(self, event: dict[str, Any]) -> None:
        if self._silenced(event.get("run_id")):
            return
        try:
            self.publisher.publish(event)
        except redis.RedisError as error:
            # The server tries the run elsewhere once this worker's record expires (it cannot renew it either).
            log.warning("satlab worker %s: an event of run %s did not reach Redis: %s", self.name,
                        event.get("run_id"), error)

    def _publish_end(self, run_id: str, status: str, error: str) -> None:
        if status == "failed":
            self._publish({"type": "error", "run_id": run_id, "message": error})
        self._publish({"type": "state", "state": status, "run_id": run_id})
        self._publish({"type": "summary", "run_id": run_id, "status": status, "error": error, "flows": [],
                       "iterations": [], "fidelity": None})

    def _refuse(self, message: Any, refusal: MessageRefused) -> None:
        reason = str(refusal)[:REFUSAL_MAX_CHARS]
        self.refused += 1
        self.last_refusal = reason
        log.error("satlab worker %s: refused a queue message without running anything: %s", self.name, reason)
        # A message that names a run in the server's form is that run's request (from a server whose
        # satlab differs from this worker's, say): the run fails with the reason instead of waiting for ever.
        run_id = message.get("run_id") if isinstance(message, dict) else None
        if isinstance(run_id, str) and _is_run_id(run_id) and claims.claim(self.client, run_id, self.name,
                                                                         self.claim_ttl_s) is None:
            self._publish_end(run_id, "failed", f"worker {self.name} refused the run request: {reason}")
        self.on_change()


def _is_run_id(text: str) -> bool:
    return re.fullmatch(RUN_ID_PATTERN, text) is not None
