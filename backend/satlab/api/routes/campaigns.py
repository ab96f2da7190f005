"""Campaigns: a parameter matrix x iterations over one scenario. The
instructor's (students' too where student_campaigns allows): a student sees
and controls only their own."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, HTTPException, Query, Response, WebSocket, status
from fastapi.responses import StreamingResponse

from satlab.api.auth import Principal
from satlab.api.deps import InstructorDep, ManagerDep, Offset, PageSize, SettingsDep, StoreDep, StreamSlot, UserDep
from satlab.api.downloads import EXPORT_RESPONSES, download
from satlab.api.models.campaigns import CampaignDetail, CampaignPublic, CampaignsPublic
from satlab.api.models.common import Message, Refused
from satlab.api.models.events import CampaignEvent
from satlab.api.responses import CSV_RESPONSES, csv_attachment, found
from satlab.api.stream import Event, forward_events
from satlab.service import export
from satlab.service.campaign import campaign_from_dict, campaign_runs
from satlab.service.campaign_driver import CampaignClaimed
from satlab.service.export import selection
from satlab.service.export.selection import Format as ExportFormat
from satlab.service.export.selection import What as ExportWhat
from satlab.service.labs import confine_traces, preset_of
from satlab.service.store import CampaignDetailRow

router = APIRouter(prefix="/campaigns", tags=["campaigns"])

CAMPAIGN_NOT_FOUND = "Campaign not found"
EXAMPLE = {"name": "cubic-vs-bbr", "scenario": "geo-optical", "set": {"flows.0.size_bytes": 2000000},
           "matrix": {"flows.0.cc": ["cubic", "bbr"], "tunnel": [None, {"k": 5, "z": 100}]},
           "iterations": 3, "parallel": 1, "seed": 1}


def _campaign_or_404(store: StoreDep, campaign_id: str, principal: Principal) -> CampaignDetailRow:
    """The campaign, if principal may see it."""
    campaign = store.get_campaign(campaign_id)
    visible = campaign is not None and (principal.is_instructor or campaign.owner == principal.id)
    return found(campaign if visible else None, "Campaign")


@router.post("", status_code=status.HTTP_201_CREATED,
             responses={422: {"description": "The campaign or one of its scenarios is invalid; "
                                             "each problem names its field."}})
def create_campaign(manager: ManagerDep, settings: SettingsDep, principal: UserDep,
                    spec: Annotated[dict[str, Any], Body(examples=[EXAMPLE])]) -> CampaignDetail:
    """The body is a campaign file as JSON; `scenario` names a lab or is a
    whole scenario. Every run is validated before the first starts; at most
    max_campaign_runs runs."""
    manager.admission.campaign_allowed(principal.caller)  # before reading the campaign at all
    manager.admission.campaign_allowed(principal.caller, runs=campaign_runs(spec),  # before making its runs
                                       lab=preset_of(spec.get("scenario")))
    spec_model, items = campaign_from_dict(spec, settings.labs_dir, settings.labs_dir)
    for item in items:
        confine_traces(item.scenario, settings.labs_dir)
    campaign_id = manager.start_campaign(spec_model, items, principal.caller)
    return CampaignDetail.model_validate(_campaign_or_404(manager.store, campaign_id, principal))


@router.get("")
def list_campaigns(store: StoreDep, principal: UserDep, limit: PageSize = 100, offset: Offset = 0) -> CampaignsPublic:
    """Newest first (a student's own only)."""
    campaigns, count = store.list_campaigns(limit=limit, offset=offset,
                                            owner=None if principal.is_instructor else principal.id)
    return CampaignsPublic(data=[CampaignPublic.model_validate(campaign) for campaign in campaigns], count=count)


@router.get("/{campaign_id}", responses={404: {"model": Refused}})
def get_campaign(campaign_id: str, store: StoreDep, principal: UserDep) -> CampaignDetail:
    return CampaignDetail.model_validate(_campaign_or_404(store, campaign_id, principal))


@router.delete("/{campaign_id}", responses={404: {"model": Refused}, 409: {"model": Refused}})
def delete_campaign(campaign_id: str, store: StoreDep, principal: InstructorDep) -> Message:
    """A campaign that is not running, with its runs, their samples and summaries."""
    campaign = _campaign_or_404(store, campaign_id, principal)
    if campaign.status == "running":
        raise HTTPException(status.HTTP_409_CONFLICT, detail="The campaign is running: cancel it first.")
    store.delete_campaign(campaign_id)
    return Message(message="The campaign and its runs are deleted.")


@router.post("/{campaign_id}/cancel", status_code=status.HTTP_202_ACCEPTED,
             responses={404: {"model": Refused}, 409: {"model": Refused}})
def cancel_campaign(campaign_id: str, manager: ManagerDep, principal: UserDep) -> Message:
    campaign = _campaign_or_404(manager.store, campaign_id, principal)
    if not manager.cancel_campaign(campaign_id):
        raise HTTPException(status.HTTP_409_CONFLICT, detail=f"The campaign is {campaign.status}, not running.")
    return Message(message="The campaign is being cancelled; POST .../resume runs what it has left.")


@router.post("/{campaign_id}/resume", status_code=status.HTTP_202_ACCEPTED,
             responses={404: {"model": Refused}, 409: {"model": Refused}})
def resume_campaign(campaign_id: str, manager: ManagerDep, principal: UserDep) -> Message:
    campaign = _campaign_or_404(manager.store, campaign_id, principal)
    if campaign.status == "done":
        raise HTTPException(status.HTTP_409_CONFLICT, detail="The campaign is done: every run has run.")
    try:
        manager.resume_campaign(campaign_id, principal.caller)
    except CampaignClaimed:
        raise HTTPException(status.HTTP_409_CONFLICT,
                            detail="Another satlab process on this host is running the campaign: it goes on there.") \
            from None
    return Message(message="The campaign runs what it has left.")


@router.get("/{campaign_id}/csv", response_class=Response, responses=CSV_RESPONSES)
def export_campaign(campaign_id: str, store: StoreDep, principal: UserDep) -> Response:
    """One row per run and flow, one column per matrix parameter."""
    _campaign_or_404(store, campaign_id, principal)
    return csv_attachment(lambda out: export.campaign_csv(store, campaign_id, out), f"satlab-{campaign_id}.csv")


@router.get("/{campaign_id}/export", response_class=StreamingResponse, responses=EXPORT_RESPONSES)
def export_campaign_results(campaign_id: str, store: StoreDep, principal: UserDep, what: ExportWhat = "summaries",
                            export_format: Annotated[ExportFormat, Query(alias="format")] = "csv"
                            ) -> StreamingResponse:
    """A campaign's results, as `satlab export campaign ID --what ... --format
    ...` writes them: its runs' samples one after the other, its summary (a
    row per item and flow, a column per matrix parameter), its finished runs'
    qlogs or packet captures, or `all` (a zip archive with a manifest)."""
    _campaign_or_404(store, campaign_id, principal)
    return download(lambda: selection.export_campaign(store, campaign_id, what, export_format))


@router.websocket("/{campaign_id}/stream", dependencies=[StreamSlot])
async def stream_campaign(websocket: WebSocket, campaign_id: str, manager: ManagerDep, principal: UserDep) -> None:
    """First {"type": "campaign", "status", "progress"}, then the state of each
    of its runs and the progress after each, until the campaign is over."""
    await websocket.accept()
    campaign = manager.store.get_campaign(campaign_id)
    if campaign is None or not (principal.is_instructor or campaign.owner == principal.id):
        await websocket.close(code=4404, reason=CAMPAIGN_NOT_FOUND)
        return

    def snapshot() -> Event:
        campaign = _campaign_or_404(manager.store, campaign_id, principal)
        return CampaignEvent(type="campaign", campaign_id=campaign_id, status=campaign.status,
                             progress=campaign.progress).model_dump(mode="json")

    await forward_events(websocket, manager, campaign_id, snapshot,
                         lambda event: event["type"] == "campaign" and event["status"] != "running",
                         wanted=lambda event: event["type"] != "sample")
