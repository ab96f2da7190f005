"""Runs: create (from a lab or a scenario), list, get, cancel, stream, export;
share and delete (the instructor). A student sees their own runs and those
shared with the class (another's is "not found"), and cancels only their own."""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Response, WebSocket, status
from fastapi.responses import StreamingResponse

from satlab.api.auth import INSTRUCTOR, LOCAL, Principal
from satlab.api.deps import InstructorDep, ManagerDep, Offset, PageSize, SettingsDep, StoreDep, StreamSlot, UserDep
from satlab.api.downloads import EXPORT_RESPONSES, download
from satlab.api.models.common import Message, Refused
from satlab.api.models.events import RunSnapshotEvent
from satlab.api.models.runs import QueuePlace, RunBase, RunCreate, RunOwner, RunPublic, RunsPublic, RunSummary
from satlab.api.responses import CSV_RESPONSES, csv_attachment, found
from satlab.api.stream import Event, forward_events
from satlab.scenario import apply_override, validate
from satlab.service import export
from satlab.service.export import selection
from satlab.service.export.selection import Format as ExportFormat
from satlab.service.export.selection import What as ExportWhat
from satlab.service.labs import check_sheet, confine_traces, load_lab
from satlab.service.store import FINISHED, RunRow, RunSummaryRow, SampleRows

router = APIRouter(prefix="/runs", tags=["runs"])

RUN_NOT_FOUND = "Run not found"


class RunStatus(StrEnum):
    queued = "queued"
    running = "running"
    done = "done"
    failed = "failed"
    cancelled = "cancelled"



def _run_or_404(store: StoreDep, run_id: str, principal: Principal) -> RunRow:
    """The run, if principal may see it."""
    visible = principal.is_instructor or store.run_visible_to(run_id, principal.id)
    return found(store.get_run(run_id) if visible else None, "Run")


# The owners that are no student, by the id runs record (satlab.api.auth).
_PRINCIPAL_NAMES = {INSTRUCTOR.id: INSTRUCTOR.name, LOCAL.id: LOCAL.name}


def _seen_by[Model: RunBase](model: type[Model], run: RunSummaryRow, principal: Principal) -> Model:
    """The run as principal may see it: its owner named, to a student only
    on their own runs (one the instructor shared is not theirs to name)."""
    owner = None
    if run.owner is not None and (principal.is_instructor or run.owner == principal.id):
        owner = RunOwner(id=run.owner, name=_PRINCIPAL_NAMES.get(run.owner) or run.owner_name
                         or f"a removed student ({run.owner})")
    fields = {name: getattr(run, name) for name in model.model_fields if hasattr(run, name)}
    return model.model_validate({**fields, "owner": owner})


@router.post("", status_code=status.HTTP_201_CREATED, response_model_exclude_unset=True,
             responses={422: {"description": "The scenario is invalid or cannot run on this host; "
                                             "each problem names its field."}})
def create_run(body: RunCreate, manager: ManagerDep, settings: SettingsDep, principal: UserDep) -> RunPublic:
    """Queue a run; it starts as soon as fewer than max_concurrent_runs run.
    A student's run is a preset the instructor enabled, within the quotas
    (GET /api/limits): 403 beyond what a student may run, 429 beyond what
    they, or everyone, may have queued now."""
    if body.lab is not None:
        scenario = load_lab(settings.labs_dir, body.lab, body.overrides)
    else:
        data = dict(body.scenario or {})
        for assignment in body.overrides:
            apply_override(data, assignment)
        scenario = validate(data)
    confine_traces(scenario, settings.labs_dir)
    if body.sheet is not None:
        check_sheet(settings.labs_dir, body.sheet)
    run_id = manager.submit(scenario, principal.caller, body.origin)
    return _seen_by(RunPublic, found(manager.store.get_run(run_id), "Run"), principal)


@router.get("", response_model_exclude_unset=True)
def list_runs(store: StoreDep, principal: UserDep,
              run_status: Annotated[RunStatus | None, Query(alias="status")] = None,
              campaign_id: str | None = None, limit: PageSize = 100, offset: Offset = 0) -> RunsPublic:
    """Newest first (a student's: their own and those shared with the class)."""
    runs, count = store.list_runs(status=run_status, campaign_id=campaign_id, limit=limit, offset=offset,
                                  visible_to=None if principal.is_instructor else principal.id)
    return RunsPublic(data=[_seen_by(RunSummary, run, principal) for run in runs], count=count)


@router.get("/{run_id}", response_model_exclude_unset=True, responses={404: {"model": Refused}})
def get_run(run_id: str, store: StoreDep, principal: UserDep) -> RunPublic:
    return _seen_by(RunPublic, _run_or_404(store, run_id, principal), principal)


@router.get("/{run_id}/queue", responses={404: {"model": Refused}})
def get_queue_place(run_id: str, manager: ManagerDep, principal: UserDep) -> QueuePlace:
    """A queued run's place in line (1: next; null once it runs) and about
    when it starts, in seconds from now (null until a run has finished)."""
    run = _run_or_404(manager.store, run_id, principal)
    position = manager.store.queue_position(run.run_id) if run.status == "queued" else None
    typical_s = manager.store.median_run_duration_s()  # of recent runs; None before any
    estimate = None
    if position is not None and typical_s is not None and manager.max_concurrent > 0:
        estimate = math.ceil(position / manager.max_concurrent) * typical_s  # runs start in waves of max_concurrent
    return QueuePlace(queue_position=position, estimated_start_s=estimate)


@router.post("/{run_id}/share", responses={404: {"model": Refused}})
def share_run(run_id: str, store: StoreDep, principal: InstructorDep, shared: bool = True) -> Message:
    """Show the run to every student (shared=false: no longer)."""
    _run_or_404(store, run_id, principal)
    store.set_run_shared(run_id, shared)
    return Message(message="The class sees the run." if shared else "Only the instructor and its owner see the run.")


@router.delete("/{run_id}", responses={404: {"model": Refused}, 409: {"model": Refused}})
def delete_run(run_id: str, store: StoreDep, principal: InstructorDep) -> Message:
    """A finished run, with its samples and summaries."""
    run = _run_or_404(store, run_id, principal)
    if run.status not in FINISHED:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=f"The run is {run.status}: cancel it first.")
    store.delete_run(run_id)
    return Message(message="The run is deleted.")


@router.post("/{run_id}/cancel", status_code=status.HTTP_202_ACCEPTED,
             responses={404: {"model": Refused}, 409: {"model": Refused}})
def cancel_run(run_id: str, manager: ManagerDep, principal: UserDep) -> Message:
    """Stop a queued or running run; it tears down and ends `cancelled`."""
    run = _run_or_404(manager.store, run_id, principal)
    if not principal.is_instructor and manager.store.run_owner(run_id) != principal.id:
        raise HTTPException(status.HTTP_403_FORBIDDEN, detail="You may cancel only your own runs.")
    if not manager.cancel(run_id):
        raise HTTPException(status.HTTP_409_CONFLICT, detail=f"The run is {run.status}, not queued or running.")
    return Message(message="The run is being cancelled.")


@router.get("/{run_id}/samples", responses={404: {"model": Refused}})
def get_samples(run_id: str, store: StoreDep, principal: UserDep) -> SampleRows:
    """Every sample so far (10 per second): per flow and hop, per link direction, per tunnel direction, and
    per flow split by a PEP."""
    _run_or_404(store, run_id, principal)
    return store.samples(run_id)


@router.get("/{run_id}/csv/{kind}", response_class=Response, responses=CSV_RESPONSES)
def export_csv(run_id: str, kind: export.RunTable, store: StoreDep, principal: UserDep) -> Response:
    _run_or_404(store, run_id, principal)
    return csv_attachment(lambda out: export.RUN_TABLE_WRITERS[kind.value](store, run_id, out),
                          f"satlab-{run_id}-{kind.value}.csv")


@router.get("/{run_id}/export", response_class=StreamingResponse, responses=EXPORT_RESPONSES)
def export_run(run_id: str, store: StoreDep, principal: UserDep, what: ExportWhat = "summaries",
               export_format: Annotated[ExportFormat, Query(alias="format")] = "csv") -> StreamingResponse:
    """A finished run's results, as `satlab export run ID --what ... --format ...`
    writes them: `samples` (flow, link, tunnel and PEP tables), `summaries`, `qlog`
    (each QUIC flow's, both ends, as qvis opens them), `pcap` (packet captures
    with each packet's fate), or `all` (a zip archive with a manifest)."""
    _run_or_404(store, run_id, principal)
    return download(lambda: selection.export_run(store, run_id, what, export_format))


@router.websocket("/{run_id}/stream", dependencies=[StreamSlot])
async def stream_run(websocket: WebSocket, run_id: str, manager: ManagerDep, principal: UserDep) -> None:
    """First {"type": "run", "run": RunPublic}, then the run's events as the
    engine emits them ("state", "sample", "error"), until "summary"."""
    await websocket.accept()
    if manager.store.get_run(run_id) is None or not (principal.is_instructor
                                                     or manager.store.run_visible_to(run_id, principal.id)):
        await websocket.close(code=4404, reason=RUN_NOT_FOUND)
        return

    def snapshot() -> Event:
        run = _seen_by(RunPublic, found(manager.store.get_run(run_id), "Run"), principal)
        return RunSnapshotEvent(type="run", run=run).model_dump(mode="json", exclude_unset=True)

    await forward_events(websocket, manager, run_id, snapshot,
                         lambda event: event["type"] == "summary"
                         or (event["type"] == "run" and event["run"]["status"] in FINISHED))
