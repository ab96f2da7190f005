"""`satlab worker`: a Celery worker that takes runs from the queue
(satlab.distributed.celery_app) and runs them on this host with the engine.

Start: root, a broker URL that answers, a name no other live worker holds
(claimed in SATLAB_LOCK_DIR on this host and checked against the records in
Redis), what a killed predecessor left swept away, this host's calibration
loaded. Then Celery consumes RUN_QUEUE on a pool of threads (each run on a
thread of its own: the engine's children are tied to the thread that starts
them), reading a message only when the admission gate has room for one
(gate.AdmissionGate, through the channel's can_consume: the hook Celery's
own worker_disable_prefetch uses). A warm shutdown (SIGTERM, Ctrl-C) stops
the runs and removes the worker's record: the server tries them elsewhere.
"""

from __future__ import annotations

import logging
import os
import platform
import re
import shutil
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

import redis
from celery import bootsteps, signals
from celery.exceptions import Reject
from celery.worker import state as worker_state
from celery.worker.consumer.tasks import Tasks

from satlab.distributed import connection, workers
from satlab.distributed.celery_app import RUN_QUEUE, RUN_TASK, longest_run_s, make_app
from satlab.engine import calibration as calibrating
from satlab.engine import capacity, fidelity, host, runner, topology
from satlab.engine.capacity import Calibration
from satlab.service.worker.execution import GiveBack, WorkerRuns
from satlab.service.worker.gate import AdmissionGate
from satlab.service.worker.heartbeat import Heartbeat, Identity

log = logging.getLogger("satlab")

NAME_VARIABLE = "SATLAB_WORKER_NAME"


class WorkerError(RuntimeError):
    """The worker cannot start: a sentence saying why and what to do."""


@dataclass(frozen=True)
class WorkerOptions:
    name: str | None = None  # default: SATLAB_WORKER_NAME, else the host's name
    max_runs: int | None = None  # an upper bound besides the calibration


def worker_name(given: str | None) -> str:
    name = given or os.environ.get(NAME_VARIABLE) or socket.gethostname()
    if not re.fullmatch(workers.NAME_PATTERN, name):
        raise WorkerError(f"--name: {name!r} is not a worker name: 1 to 64 letters, digits and _.@- "
                          "(starting with a letter or digit)")
    return name


def max_runs_of(calibration: Calibration | None, bound: int | None) -> int:
    """The most runs at once the calibration could allow (its largest kind's
    count), within bound; without a calibration, bound (the operator's
    choice) or one at a time."""
    if calibration is None:
        return bound or 1
    calibrated = max((kind.max_concurrent for kind in calibration.kinds.values()), default=1)
    return min(calibrated, bound) if bound is not None else calibrated


def _claim_name(name: str) -> IO[str]:
    host.remove_unclaimed("worker-*.lock")  # the names SIGKILLed workers left
    claim = host.try_claim(f"worker-{name}.lock")
    if claim is None:
        raise WorkerError(f"another satlab worker named {name} runs on this host with lock directory "
                          f"{host.LOCK_DIR}: give this one another --name")
    return claim


def _check_no_namesake(client: Any, name: str) -> None:
    record = workers.read_record(client, name)
    # On this host, the name's claim (held now) proves a namesake dead: a predecessor killed moments ago.
    if record is not None and record.host != socket.gethostname():
        raise WorkerError(f"a worker named {name} is alive on host {record.host} (seen "
                          f"{time.time() - record.seen_at:.0f} s ago): give this one another --name")


def _load_calibration() -> Calibration | None:
    try:
        calibration = capacity.load()
    except ValueError as error:
        raise WorkerError(str(error)) from None
    if calibration is None:
        log.warning("satlab worker: no calibration at %s: it runs one run at a time; `satlab worker --calibrate` "
                    "measures how many of each kind this host runs faithfully", capacity.CALIBRATION_PATH)
    return calibration


def _gated_consumption(gate: AdmissionGate) -> type:
    """A consumer bootstep that reads the queue only while the gate has room."""

    class GatedConsumption(bootsteps.StartStopStep):  # type: ignore[misc]  # Celery is untyped
        requires = (Tasks,)

        def start(self, consumer: Any) -> None:
            qos = consumer.task_consumer.channel.qos
            can_consume = qos.can_consume
            qos.can_consume = lambda: gate.may_take_another(len(worker_state.reserved_requests)) and can_consume()
            if consumer.hub is not None:
                hub = consumer.hub
                # A run ended on its thread: wake Celery's loop to ask can_consume again.
                gate.on_room = lambda: hub.call_soon(lambda: None)

    return GatedConsumption


def run_worker(options: WorkerOptions) -> int:
    """Run the worker until it is stopped; its exit status. WorkerError or
    connection.BrokerUnavailable if it cannot start."""
    if os.geteuid() != 0:
        raise WorkerError("satlab worker must run as root: its runs create network namespaces and TUN devices")
    url = connection.broker_url()
    if url is None:
        raise WorkerError(f"{connection.BROKER_URL_VARIABLE} is not set: a worker takes runs from Redis "
                          "(redis://:<secret>@<host>:<port>/<db>, the secret from the stack's .env)")
    name = worker_name(options.name)
    client = connection.connect(url)
    name_claim = _claim_name(name)
    try:
        _check_no_namesake(client, name)
        if removed := topology.sweep():
            log.warning("satlab worker %s: removed %d namespaces left by runs of a killed predecessor", name,
                        len(removed))
        calibration = _load_calibration()
        max_runs = max_runs_of(calibration, options.max_runs)
        longest_s = longest_run_s()
        gate = AdmissionGate(calibration, max_runs)
        identity = fidelity.host_identity()
        # What a killed predecessor of this name left of its runs' kept files goes.
        files_root = host.WORK_ROOT / f"worker-{name}"
        shutil.rmtree(files_root, ignore_errors=True)
        runs = WorkerRuns(name, client, gate, longest_s, files_root)
        heartbeat = Heartbeat(client, Identity(name, identity["host_name"], platform.release(),
                                               identity["satlab_version"],
                                               calibration.summary() if calibration else None, max_runs,
                                               time.time()), runs)
        runs.on_change = heartbeat.beat_now  # the record shows a run as soon as it is taken or ends
        app = make_app(url, longest_s)

        @app.task(name=RUN_TASK)  # type: ignore[untyped-decorator]  # Celery is untyped
        def run_one(message: Any) -> None:
            try:
                runs.handle(message)
            except GiveBack:
                raise Reject("the worker stopped before the run started", requeue=True) from None
            except redis.RedisError as error:  # before the run started (claiming it): another worker may
                raise Reject(f"Redis failed before the run started ({error})", requeue=True) from None

        app.steps["consumer"].add(_gated_consumption(gate))

        def on_shutting_down(**_: Any) -> None:
            runs.stop()
        signals.worker_shutting_down.connect(on_shutting_down, weak=False)
        heartbeat.start()
        try:
            worker = app.Worker(hostname=f"{name}@{identity['host_name']}", pool="threads",
                                concurrency=max_runs + 1, queues=[RUN_QUEUE], without_gossip=True,
                                without_mingle=True, without_heartbeat=True, loglevel="INFO")
            log.info("satlab worker %s: up to %d runs at once (%s)", name, max_runs,
                     f"calibrated {calibration.measured_at}" if calibration else "not calibrated")
            worker.start()
            return int(worker.exitcode or 0)
        finally:
            runs.stop()
            heartbeat.stop()
            signals.worker_shutting_down.disconnect(on_shutting_down)
    finally:
        host.release(f"worker-{name}.lock", name_claim)
        client.close()


def calibrate_and_save(quick: bool, on_step: Callable[[dict[str, Any]], None],
                       cancel: runner.CancelToken) -> Calibration:
    """`satlab worker --calibrate`: measure this host (calibration.calibrate;
    quick: the check that it works, in seconds per kind) and save the record
    where workers and the server read it (SATLAB_CALIBRATION)."""
    if os.geteuid() != 0:
        raise WorkerError("satlab worker --calibrate must run as root: its runs create network namespaces")
    parameters = calibrating.CalibrationParameters.quick() if quick else calibrating.CalibrationParameters()
    measured = calibrating.calibrate(parameters, cancel, on_step)
    capacity.save(measured)
    return measured
