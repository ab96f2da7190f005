"""Campaigns: a parameter matrix x iterations over one scenario. The
instructor's (students' too where student_campaigns allows): a student sees
and controls only their own."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, HTTPException, Query, Response, WebSocket, status

from satlab.api import quotas
from satlab.api.auth import Principal
from satlab.api.deps import AuthDep, InstructorDep, ManagerDep, SettingsDep, StoreDep, StreamSlot, UserDep
from satlab.api.models import CampaignDetail, CampaignsPublic, Message
from satlab.api.responses import CSV_RESPONSES, csv_attachment, found
from satlab.api.stream import forward_events
from satlab.service import export
from satlab.service.campaign import campaign_from_dict
from satlab.service.labs import confine_traces

router = APIRouter(prefix="/campaigns", tags=["campaigns"])

CAMPAIGN_NOT_FOUND = "Campaign not found"
EXAMPLE = {"name": "cubic-vs-bbr", "scenario": "geo-optical", "set": {"flows.0.size_bytes": 2000000},
           "matrix": {"flows.0.cc": ["cubic", "bbr"], "tunnel": [None, {"k": 5, "z": 100}]},
           "iterations": 3, "parallel": 1, "seed": 1}


def _campaign_or_404(store: StoreDep, campaign_id: str, principal: Principal) -> dict[str, Any]:
    """The campaign, if principal may see it."""
    campaign = store.get_campaign(campaign_id)
    visible = campaign is not None and (principal.is_instructor or campaign["owner"] == principal.id)
    return found(campaign if visible else None, "Campaign")


@router.post("", status_code=status.HTTP_201_CREATED, response_model=CampaignDetail,
             responses={422: {"description": "The campaign or one of its scenarios is invalid; "
                                             "each problem names its field."}})
def create_campaign(manager: ManagerDep, settings: SettingsDep, auth: AuthDep, principal: UserDep,
                    spec: Annotated[dict[str, Any], Body(examples=[EXAMPLE])]) -> dict[str, Any]:
    """The body is a campaign file as JSON; `scenario` names a lab or is a
    whole scenario. Every run is validated before the first starts; at most
    max_campaign_runs runs."""
    quotas.check_campaign(principal, spec, auth)
    quotas.check_everyone(manager.store, auth, str(spec.get("description", "")))
    spec_model, items = campaign_from_dict(spec, settings.labs_dir, settings.labs_dir)
    for item in items:
        confine_traces(item.scenario, settings.labs_dir)
    campaign_id = manager.start_campaign(spec_model, items)
    manager.store.set_owner("campaigns", campaign_id, principal.id)
    return _campaign_or_404(manager.store, campaign_id, principal)


@router.get("", response_model=CampaignsPublic)
def list_campaigns(store: StoreDep, principal: UserDep, limit: Annotated[int, Query(ge=1, le=1000)] = 100,
                   offset: Annotated[int, Query(ge=0)] = 0) -> dict[str, Any]:
    """Newest first (a student's own only)."""
    campaigns, count = store.list_campaigns(limit=limit, offset=offset,
                                            owner=None if principal.is_instructor else principal.id)
    return {"data": campaigns, "count": count}


@router.get("/{campaign_id}", response_model=CampaignDetail, responses={404: {"model": Message}})
def get_campaign(campaign_id: str, store: StoreDep, principal: UserDep) -> dict[str, Any]:
    return _campaign_or_404(store, campaign_id, principal)


@router.delete("/{campaign_id}", response_model=Message, responses={404: {"model": Message}, 409: {"model": Message}})
def delete_campaign(campaign_id: str, store: StoreDep, principal: InstructorDep) -> dict[str, str]:
    """A campaign that is not running, with its runs, their samples and summaries."""
    campaign = _campaign_or_404(store, campaign_id, principal)
    if campaign["status"] == "running":
        raise HTTPException(status.HTTP_409_CONFLICT, detail="The campaign is running: cancel it first.")
    store.delete_campaign(campaign_id)
    return {"message": "The campaign and its runs are deleted."}


@router.post("/{campaign_id}/cancel", status_code=status.HTTP_202_ACCEPTED, response_model=Message,
             responses={404: {"model": Message}, 409: {"model": Message}})
def cancel_campaign(campaign_id: str, manager: ManagerDep, principal: UserDep) -> dict[str, str]:
    campaign = _campaign_or_404(manager.store, campaign_id, principal)
    if not manager.cancel_campaign(campaign_id):
        raise HTTPException(status.HTTP_409_CONFLICT, detail=f"The campaign is {campaign['status']}, not running.")
    return {"message": "The campaign is being cancelled; POST .../resume runs what it has left."}


@router.post("/{campaign_id}/resume", status_code=status.HTTP_202_ACCEPTED, response_model=Message,
             responses={404: {"model": Message}, 409: {"model": Message}})
def resume_campaign(campaign_id: str, manager: ManagerDep, principal: UserDep) -> dict[str, str]:
    campaign = _campaign_or_404(manager.store, campaign_id, principal)
    if campaign["status"] == "done":
        raise HTTPException(status.HTTP_409_CONFLICT, detail="The campaign is done: every run has run.")
    manager.resume_campaign(campaign_id)
    return {"message": "The campaign runs what it has left."}


@router.get("/{campaign_id}/csv", response_class=Response, responses=CSV_RESPONSES)
def export_campaign(campaign_id: str, store: StoreDep, principal: UserDep) -> Response:
    """One row per run and flow, one column per matrix parameter."""
    _campaign_or_404(store, campaign_id, principal)
    return csv_attachment(lambda out: export.campaign_csv(store, campaign_id, out), f"satlab-{campaign_id}.csv")


@router.websocket("/{campaign_id}/stream", dependencies=[StreamSlot])
async def stream_campaign(websocket: WebSocket, campaign_id: str, manager: ManagerDep, principal: UserDep) -> None:
    """First {"type": "campaign", "status", "progress"}, then the state of each
    of its runs and the progress after each, until the campaign is over."""
    await websocket.accept()
    campaign = manager.store.get_campaign(campaign_id)
    if campaign is None or not (principal.is_instructor or campaign["owner"] == principal.id):
        await websocket.close(code=4404, reason=CAMPAIGN_NOT_FOUND)
        return

    def snapshot() -> dict[str, Any]:
        campaign = _campaign_or_404(manager.store, campaign_id, principal)
        return {"type": "campaign", "campaign_id": campaign_id, "status": campaign["status"],
                "progress": campaign["progress"]}

    await forward_events(websocket, manager, campaign_id, snapshot,
                         lambda event: event["type"] == "campaign" and event["status"] != "running",
                         wanted=lambda event: event["type"] != "sample")
