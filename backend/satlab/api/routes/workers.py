"""Who runs the runs: the workers, their calibrated capacity and what each runs now."""

from __future__ import annotations

import platform
import socket
import time

from fastapi import APIRouter, HTTPException, status

from satlab.api.deps import ManagerDep
from satlab.api.models.common import Refused
from satlab.api.models.fidelity import CalibrationSummary
from satlab.api.models.workers import WorkerPublic, WorkerRunPublic, WorkersPublic
from satlab.distributed.connection import BrokerUnavailable
from satlab.engine import fidelity
from satlab.engine.capacity import run_kind
from satlab.service.runs import RunManager

router = APIRouter(prefix="/workers", tags=["workers"])


def _this_server(manager: RunManager) -> WorkerPublic:
    """The server's own process, the one worker there is without a broker."""
    runs = []
    for run in manager.queue.held_runs():
        stored = manager.store.get_run(run.run_id)
        runs.append(WorkerRunPublic(run_id=run.run_id, kind=run_kind(run.scenario), attempt=1, state="running",
                                    since=stored.started_at if stored else None))
    calibration = manager.queue.calibration
    return WorkerPublic(name="this server", host=socket.gethostname(), kernel=platform.release(),
                        satlab_version=fidelity.host_identity()["satlab_version"], started_at=None,
                        seen_at=time.time(),
                        calibration=CalibrationSummary.model_validate(calibration.summary()) if calibration else None,
                        max_runs=manager.max_concurrent, runs=runs, refused=0, last_refusal=None,
                        waiting_reason=None)


@router.get("", responses={503: {"model": Refused, "description": "Redis, the broker, cannot be used: why."}})
def get_workers(manager: ManagerDep) -> WorkersPublic:
    """The workers and what each runs now: with a broker, every `satlab
    worker` whose heartbeat is alive; without one, this server itself."""
    if manager.remote is None:
        return WorkersPublic(broker="none", workers=[_this_server(manager)])
    try:
        records = manager.remote.workers()
    except BrokerUnavailable as error:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, detail=str(error)) from None
    return WorkersPublic(broker="connected", workers=[WorkerPublic.model_validate(record.model_dump())
                                                      for record in records])
