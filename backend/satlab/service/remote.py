"""The server's side of runs on `satlab worker`s: what the run queue hands
over goes to the workers as a Celery task (RUN_TASK on RUN_QUEUE, the run
request of satlab.distributed.messages, JSON), and what they publish comes
back through the Redis event stream into the queue's record_event and
finish: the store and the WebSockets see a remote run's events exactly as a
local run's, and its kept files (qlogs, key logs, packet captures) arrive
before its summary into the run's directory, as a local run's are written
(satlab.distributed.files).

Two threads: one reads the event stream (as the consumer group's one
server), one sends what is queued and watches the workers. A worker whose
record expired (satlab.distributed.workers), or that no longer lists a run
it had started, vanished: its run failed with the reason, and is tried once
more (a new run of the same campaign item, attempt 2; MAX_ATTEMPTS) unless
it was the second try already. A queued run claimed by a worker that
vanished before starting it is sent again as it is.

At a restart (reconcile) every run the store has queued or running is taken
back: a running one goes on while its worker lists it (its events kept
arriving, or wait in the stream), a queued one is sent again unless a live
worker claimed it (a copy still in the broker is dropped by the claim of
whichever runs first).

Redis unreachable never blocks a request: sending waits for the watcher's
next look, and `state` says what is wrong (GET /api/workers answers 503
with it).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Literal

import redis

from satlab.distributed import claims, connection, workers
from satlab.distributed.celery_app import RUN_QUEUE, RUN_TASK, make_app
from satlab.distributed.events import EventConsumer, ReceivedEvent
from satlab.distributed.files import FileReceiver
from satlab.distributed.messages import MAX_ATTEMPTS, RunRequest
from satlab.distributed.workers import WorkerRecord
from satlab.engine.plan import new_run_id
from satlab.scenario import ScenarioError, validate
from satlab.service.queue import QueuedRun, RunQueue
from satlab.service.store import item_key

log = logging.getLogger("satlab")

# The consumer group has one server: the same name at every start reads first what it had read and not stored.
CONSUMER = "server"
READ_BLOCK_MS = 1000
READ_COUNT = 200
RECONNECT_S = 2.0
# Fields of a worker's events for the server only (a run's provenance on its worker), never streamed on.
WORKER_FIELDS = ("provenance",)

BrokerState = Literal["connecting", "connected", "unreachable"]


@dataclass
class _Watched:
    """What the server knows of a run a broker carries."""
    worker: str | None = None  # the worker that started it
    suspect_since: float | None = None  # its worker did not list it at the last look (monotonic seconds)


class RemoteRuns:
    def __init__(self, url: str, queue: RunQueue):
        connection.check_url(url)
        self.url, self.queue, self.store = url, queue, queue.store
        self.app = make_app(url)
        self.state: BrokerState = "connecting"
        self.problem: str | None = None  # why Redis cannot be used, as a sentence
        self._client: redis.Redis | None = None
        self._lock = threading.Lock()
        self._unsent: list[str] = []  # run ids, in order
        self._cancels: set[str] = set()  # cancels Redis has not been told yet
        # When the last read of the event stream that found it drained began (monotonic seconds): a run
        # whose worker dropped it is judged only once every event published before then was read.
        self._drained_at = float("-inf")
        self._watched: dict[str, _Watched] = {}
        self.files = FileReceiver(queue.artifacts.directory, self._artifact_cap_bytes)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._read_events, name="remote-events", daemon=True),
                         threading.Thread(target=self._send_and_watch, name="remote-watch", daemon=True)]

    # -- the queue's side (queue.RunSender) ------------------------------------------

    def send(self, run: QueuedRun) -> None:
        """Send run to the workers (at the watcher's next look: never blocks the caller)."""
        self.store.mark_via_broker(run.run_id)
        with self._lock:
            self._watched.setdefault(run.run_id, _Watched())
            self._unsent.append(run.run_id)
        self._wake.set()

    def cancel(self, run: QueuedRun) -> None:
        """Stop run wherever it is: a worker that holds it stops it, one that
        takes it later drops it; a run no worker started ends now. Redis is
        told at the watcher's next look (never while the caller waits)."""
        with self._lock:
            self._cancels.add(run.run_id)
        self._wake.set()
        stored = self.store.get_run(run.run_id)
        if stored is not None and stored.status == "queued":
            with self._lock:
                if run.run_id in self._unsent:
                    self._unsent.remove(run.run_id)
            self.queue.finish(run.run_id, _ended(run.run_id, "cancelled", "the run was cancelled before it started"))

    def _artifact_cap_bytes(self, run_id: str) -> int:
        run = self.queue.active_run(run_id)
        return self.queue.artifact_cap_bytes(run.scenario) if run is not None else 0

    # -- life cycle ---------------------------------------------------------------

    def reconcile(self) -> list[str]:
        """At start: take back every run the store has queued or running that
        went to the broker (a worker holds it, or the broker does); the runs
        taken back. Call before the campaigns resume."""
        taken = []
        for run_id in self.store.unfinished_runs():
            row = self.store.get_run(run_id)
            if row is None or not row.via_broker:
                continue  # a run of a process on this host (satlab run, satlab campaign), or of the dead one
            try:
                scenario = validate(row.scenario)
            except ScenarioError as error:  # stored by a satlab whose scenarios this one refuses
                log.warning("satlab: run %s cannot be taken back: %s", run_id, error)
                continue
            run = QueuedRun(run_id, scenario, row.campaign_id, None)
            self.queue.adopt(run)
            with self._lock:
                self._watched[run_id] = _Watched(worker=row.worker if row.status == "running" else None)
                if row.status == "queued":
                    self._unsent.append(run_id)  # sent again unless a live worker claimed it (_send)
            taken.append(run_id)
        return taken

    def start(self) -> None:
        """Read the events and watch the workers; Redis tried once now, so that
        a start without it says so at once (state, problem)."""
        with contextlib.suppress(connection.BrokerUnavailable):  # the threads try again; the API says why
            self._connected_client()
        for thread in self._threads:
            thread.start()

    def close(self) -> None:
        """Stop reading and sending; the runs go on on their workers (a restart takes them back)."""
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            thread.join(READ_BLOCK_MS / 1000 + connection.CONNECT_TIMEOUT_S + 1)
        if self._client is not None:
            self._client.close()

    def workers(self) -> list[WorkerRecord]:
        """The live workers; BrokerUnavailable with a sentence when Redis cannot be used."""
        try:
            return workers.live_workers(self._connected_client())
        except redis.RedisError as error:
            self._lost(error)
            raise connection.BrokerUnavailable(self.problem or str(error)) from None

    # -- Redis ----------------------------------------------------------------------

    def _connected_client(self) -> redis.Redis:
        with self._lock:
            if self._client is not None:
                return self._client
        try:
            client = connection.connect(self.url)
        except connection.BrokerUnavailable as error:
            self.state, self.problem = "unreachable", f"{error}: queued runs wait until it answers"
            raise connection.BrokerUnavailable(self.problem) from None
        with self._lock:
            self._client = client
        if self.state != "connected":
            log.info("satlab: Redis at %s answers: runs go to the workers", connection.redacted(self.url))
        self.state, self.problem = "connected", None
        return client

    def _lost(self, error: Exception) -> None:
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()
        self.state = "unreachable"
        self.problem = (f"lost Redis at {connection.redacted(self.url)} ({error}): queued runs wait until it "
                        "answers, and the events of running runs wait in it")
        log.error("satlab: %s", self.problem)

    # -- the event stream --------------------------------------------------------------

    def _read_events(self) -> None:
        consumer: EventConsumer | None = None
        while not self._stop.is_set():
            try:
                if consumer is None:
                    consumer = EventConsumer(self._connected_client(), CONSUMER)
                read_began = time.monotonic()
                received = consumer.read(count=READ_COUNT, block_ms=READ_BLOCK_MS)
            except (redis.RedisError, connection.BrokerUnavailable) as error:
                if isinstance(error, redis.RedisError):
                    self._lost(error)
                consumer = None
                self._stop.wait(RECONNECT_S)
                continue
            for refusal in consumer.refused:
                log.warning("satlab: %s", refusal)
            consumer.refused.clear()
            for event in received:
                try:
                    self._handle(event)
                except Exception:  # one bad event must not stop the others
                    log.exception("satlab: the event %s of run %s could not be stored", event.entry_id,
                                  event.event.get("run_id"))
            if consumer.reading_new and len(received) < READ_COUNT:
                self._drained_at = read_began  # everything published before the read is stored
            try:
                consumer.acknowledge(received)
            except redis.RedisError as error:
                self._lost(error)
                consumer = None

    def _handle(self, received: ReceivedEvent) -> None:
        event = dict(received.event)
        extras = {name: event.pop(name) for name in WORKER_FIELDS if name in event}
        run = self.queue.active_run(event["run_id"])
        if run is None:
            return  # finished already (an event read again, a late one of a run given up), or not this server's
        if received.chunk is not None:
            self.files.receive(received.worker, received.chunk)
            return
        if event["type"] == "state" and event.get("state") == "started":
            self.store.set_run_worker(run.run_id, received.worker, extras.get("provenance"))
            self.store.set_run_status(run.run_id, "running")
            with self._lock:
                self._watched.setdefault(run.run_id, _Watched()).worker = received.worker
        if event["type"] == "summary":
            result = {key: value for key, value in event.items() if key != "type"}
            result["artifacts"] = self.files.settle(run.run_id, result.get("artifacts"))
            with self._lock:
                self._watched.pop(run.run_id, None)
            self.queue.finish(run.run_id, result)
        else:
            self.queue.record_event(run, event, once=True)

    # -- sending and watching ----------------------------------------------------------

    def _send_and_watch(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(workers.HEARTBEAT_S)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                client = self._connected_client()
                live = {record.name: record for record in workers.live_workers(client)}
                self._tell_cancels(client)
                self._send(client, live)
                self._watch(client, live)
            except connection.BrokerUnavailable:
                continue
            except redis.RedisError as error:
                self._lost(error)
            except Exception:  # the watcher must outlive a bug in one look
                log.exception("satlab: watching the workers failed")

    def _tell_cancels(self, client: redis.Redis) -> None:
        with self._lock:
            cancels, self._cancels = self._cancels, set()
        try:
            for run_id in cancels:
                claims.request_cancel(client, run_id)
        except redis.RedisError:
            with self._lock:
                self._cancels |= cancels
            raise

    def _send(self, client: redis.Redis, live: dict[str, WorkerRecord]) -> None:
        with self._lock:
            unsent = list(self._unsent)
        for run_id, holder in claims.holders(client, unsent).items():
            run = self.queue.active_run(run_id)
            if run is None or (holder is not None and holder in live):
                self._forget_unsent(run_id)  # ended meanwhile, or a live worker has it
                continue
            if holder is not None:
                claims.drop_claim(client, run_id)  # its worker vanished before starting it
            row = self.store.get_run(run_id)
            if row is None:
                self._forget_unsent(run_id)
                continue
            key = item_key(row.campaign_id, row.item_index) if row.campaign_id and row.item_index is not None \
                else run_id
            request = RunRequest(run_id, key, row.attempt, run.scenario, self.queue.artifact_cap_bytes(run.scenario))
            # JSON only (the app's serializer); task_id is the run's id, to find it in the broker.
            self.app.send_task(RUN_TASK, args=[request.to_message()], queue=RUN_QUEUE, task_id=run_id)
            self._forget_unsent(run_id)

    def _forget_unsent(self, run_id: str) -> None:
        with self._lock:
            if run_id in self._unsent:
                self._unsent.remove(run_id)

    def _watch(self, client: redis.Redis, live: dict[str, WorkerRecord]) -> None:
        """Runs whose worker vanished: a started run its worker does not list,
        a queued one claimed by a worker that does not list it; at two looks
        in a row (a record written just before a run was taken may not list
        it yet)."""
        now = time.monotonic()
        with self._lock:
            watched = [(run_id, state) for run_id, state in self._watched.items() if run_id not in self._unsent]
        queued = [run_id for run_id, state in watched if state.worker is None]
        holders = claims.holders(client, queued)
        for run_id, state in watched:
            worker = state.worker or holders.get(run_id)
            if worker is None:
                continue  # in the broker's queue
            record = live.get(worker)
            if record is not None and any(held.run_id == run_id for held in record.runs):
                state.suspect_since = None
                continue
            if state.suspect_since is None:
                state.suspect_since = now
            # Its last events (a summary published just before its worker let it go) must have been read.
            elif now - state.suspect_since >= workers.HEARTBEAT_S and self._drained_at > state.suspect_since:
                if state.worker is None:
                    log.warning("satlab: run %s was taken by worker %s, which vanished before starting it: sent "
                                "again", run_id, worker)
                    state.suspect_since = None
                    with self._lock:
                        self._unsent.append(run_id)  # _send drops the dead worker's claim
                else:
                    self._vanished(run_id, worker, gone=record is None)

    def _vanished(self, run_id: str, worker: str, gone: bool) -> None:
        with self.queue.lock:
            run = self.queue.active_run(run_id)
            row = self.store.get_run(run_id)
            with self._lock:
                self._watched.pop(run_id, None)
            if run is None or row is None:
                return
            how = "stopped answering" if gone else "restarted"
            reason = f"its worker {worker} {how} mid-run (killed, crashed, stopped or cut off from Redis)"
            if row.attempt >= MAX_ATTEMPTS:
                log.warning("satlab: run %s failed: %s; attempt %d of %d", run_id, reason, row.attempt, MAX_ATTEMPTS)
                self.queue.finish(run_id, _ended(run_id, "failed", f"{reason}; it was attempt {row.attempt} of "
                                                                    f"{MAX_ATTEMPTS}, so it is not tried again"))
                return
            retry_id = new_run_id()
            while self.store.get_run(retry_id) is not None:
                retry_id = new_run_id()
            # A campaign's run comes from its campaign and is its owner's: a lone run's own, copied.
            lone = row.campaign_id is None
            self.store.create_run(retry_id, row.scenario, row.provenance, row.campaign_id, row.item_index,
                                  attempt=row.attempt + 1, origin=row.origin if lone else None)
            if lone and row.owner is not None:
                self.store.set_run_owner(retry_id, row.owner)
            retry = QueuedRun(retry_id, run.scenario, run.campaign_id, run.on_finished)
            run.on_finished = None  # the item goes on with its retry
            log.warning("satlab: run %s failed: %s; tried again as run %s", run_id, reason, retry_id)
            self.queue.finish(run_id, _ended(run_id, "failed", f"{reason}; tried again as run {retry_id} "
                                                                f"(attempt {row.attempt + 1} of {MAX_ATTEMPTS})"))
            if row.campaign_id is not None and row.item_index is not None:
                self.store.set_item(row.campaign_id, row.item_index, "running", retry_id)
            self.queue.adopt(retry)
            self.queue.broker.publish_run_event({"type": "state", "state": "queued", "run_id": retry_id},
                                                retry.campaign_id)
            self.send(retry)


def _ended(run_id: str, status: str, error: str) -> dict[str, Any]:
    return {"run_id": run_id, "status": status, "error": error, "flows": [], "iterations": [], "fidelity": None}
