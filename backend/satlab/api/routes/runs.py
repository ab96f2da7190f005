"""Runs: create (from a lab or a scenario), list, get, cancel, stream, export."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Response, WebSocket, status

from satlab import export
from satlab.api.deps import ManagerDep, SettingsDep, StoreDep
from satlab.api.models import Message, RunCreate, RunPublic, RunsPublic
from satlab.api.responses import CSV_RESPONSES, csv_attachment, found
from satlab.api.stream import forward_events
from satlab.labs import confine_traces, load_lab
from satlab.scenario import apply_override, validate
from satlab.store import FINISHED

router = APIRouter(prefix="/runs", tags=["runs"])

RUN_NOT_FOUND = "Run not found"


class RunStatus(StrEnum):
    queued = "queued"
    running = "running"
    done = "done"
    failed = "failed"
    cancelled = "cancelled"


class ExportKind(StrEnum):
    summary = "summary"
    flow_samples = "flow-samples"
    link_samples = "link-samples"
    tunnel_samples = "tunnel-samples"


def _run_or_404(store: StoreDep, run_id: str) -> dict[str, Any]:
    return found(store.get_run(run_id), "Run")


@router.post("", status_code=status.HTTP_201_CREATED, response_model=RunPublic,
             responses={422: {"description": "The scenario is invalid or cannot run on this host; "
                                             "each problem names its field."}})
def create_run(body: RunCreate, manager: ManagerDep, settings: SettingsDep) -> dict[str, Any]:
    """Queue a run; it starts as soon as fewer than max_concurrent_runs run."""
    if body.lab is not None:
        scenario = load_lab(settings.labs_dir, body.lab, body.overrides)
    else:
        data = dict(body.scenario or {})
        for assignment in body.overrides:
            apply_override(data, assignment)
        scenario = validate(data)
    confine_traces(scenario, settings.labs_dir)
    run_id = manager.submit(scenario)
    return found(manager.store.get_run(run_id), "Run")


@router.get("", response_model=RunsPublic)
def list_runs(store: StoreDep, run_status: Annotated[RunStatus | None, Query(alias="status")] = None,
              campaign_id: str | None = None, limit: Annotated[int, Query(ge=1, le=1000)] = 100,
              offset: Annotated[int, Query(ge=0)] = 0) -> dict[str, Any]:
    """Newest first."""
    runs, count = store.list_runs(status=run_status, campaign_id=campaign_id, limit=limit, offset=offset)
    return {"data": runs, "count": count}


@router.get("/{run_id}", response_model=RunPublic, responses={404: {"model": Message}})
def get_run(run_id: str, store: StoreDep) -> dict[str, Any]:
    return _run_or_404(store, run_id)


@router.post("/{run_id}/cancel", status_code=status.HTTP_202_ACCEPTED, response_model=Message,
             responses={404: {"model": Message}, 409: {"model": Message}})
def cancel_run(run_id: str, manager: ManagerDep) -> dict[str, str]:
    """Stop a queued or running run; it tears down and ends `cancelled`."""
    run = _run_or_404(manager.store, run_id)
    if not manager.cancel(run_id):
        raise HTTPException(status.HTTP_409_CONFLICT, detail=f"The run is {run['status']}, not queued or running.")
    return {"message": "The run is being cancelled."}


@router.get("/{run_id}/samples", responses={404: {"model": Message}})
def get_samples(run_id: str, store: StoreDep) -> dict[str, list[dict[str, Any]]]:
    """Every sample so far (10 per second): per flow, per link direction, per tunnel direction."""
    _run_or_404(store, run_id)
    return {"flows": store.flow_samples(run_id), "links": store.link_samples(run_id),
            "tunnel": store.tunnel_samples(run_id)}


@router.get("/{run_id}/csv/{kind}", response_class=Response, responses=CSV_RESPONSES)
def export_csv(run_id: str, kind: ExportKind, store: StoreDep) -> Response:
    _run_or_404(store, run_id)
    return csv_attachment(lambda out: export.KIND_WRITERS[kind.value](store, run_id, out),
                          f"satlab-{run_id}-{kind.value}.csv")


@router.websocket("/{run_id}/stream")
async def stream_run(websocket: WebSocket, run_id: str, manager: ManagerDep) -> None:
    """First {"type": "run", "run": RunPublic}, then the run's events as the
    engine emits them ("state", "sample", "error"), until "summary"."""
    await websocket.accept()
    if manager.store.get_run(run_id) is None:
        await websocket.close(code=4404, reason=RUN_NOT_FOUND)
        return

    def snapshot() -> dict[str, Any]:
        run = manager.store.get_run(run_id)
        return {"type": "run", "run": RunPublic.model_validate(run).model_dump(mode="json")}

    await forward_events(websocket, manager, run_id, snapshot,
                         lambda event: event["type"] == "summary"
                         or (event["type"] == "run" and event["run"]["status"] in FINISHED))
