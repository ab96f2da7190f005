"""What the WebSocket streams send, as JSON text messages. OpenAPI has no
words for a stream, so site.document_schemas adds these to the document's
components: RunStreamEvent (WS /api/runs/{id}/stream), CampaignStreamEvent
(WS /api/campaigns/{id}/stream) and EventsStreamEvent (WS /api/events).

A run's events carry its campaign's id when it has one. A sample event
carries the rows the store keeps (GET /api/runs/{id}/samples), so a run
looks the same live and stored.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from satlab.api.models.campaigns import CampaignStatus
from satlab.api.models.common import Public
from satlab.api.models.runs import RunPublic, RunResult
from satlab.service.store import CampaignProgress, FlowSampleRow, LinkSampleRow, PepSampleRow, TunnelSampleRow


class RunSnapshotEvent(Public):
    """The first message of a run's stream: the run as it is now."""
    type: Literal["run"]
    run: RunPublic


class StateEvent(Public):
    type: Literal["state"]
    state: str = Field(description="queued, started, an iteration's steps (building, running, collecting...), "
                                   "then done, failed or cancelled.")
    run_id: str
    iteration: int | None = Field(default=None, description="Absent from the run's own states.")
    campaign_id: str | None = None


class CrossTrafficState(Public):
    index: int
    running: bool


class SampleEvent(Public):
    """Ten a second while the flows run (and, through PEPs, while they see their connections end)."""
    type: Literal["sample"]
    run_id: str
    iteration: int
    t_s: float = Field(description="Seconds since the iteration's first flow could start.")
    flows: list[FlowSampleRow]
    links: list[LinkSampleRow]
    tunnel: list[TunnelSampleRow]
    pep: list[PepSampleRow]
    cross_traffic: list[CrossTrafficState] | None
    campaign_id: str | None = None


class ErrorEvent(Public):
    type: Literal["error"]
    run_id: str
    message: str
    campaign_id: str | None = None


class SummaryEvent(RunResult):
    """The run's last event: its result, once stored."""
    type: Literal["summary"]
    campaign_id: str | None = None


class CampaignEvent(Public):
    """A campaign's state and progress: first on its stream, then after each change."""
    type: Literal["campaign"]
    campaign_id: str
    status: CampaignStatus
    progress: CampaignProgress


RunStreamEvent = Annotated[RunSnapshotEvent | StateEvent | SampleEvent | ErrorEvent | SummaryEvent,
                           Field(discriminator="type")]
CampaignStreamEvent = Annotated[CampaignEvent | StateEvent | ErrorEvent | SummaryEvent, Field(discriminator="type")]
# Every run's state changes and summaries, and campaigns' progress: no samples.
EventsStreamEvent = Annotated[StateEvent | ErrorEvent | SummaryEvent | CampaignEvent, Field(discriminator="type")]

STREAM_EVENTS: dict[str, Any] = {"RunStreamEvent": RunStreamEvent, "CampaignStreamEvent": CampaignStreamEvent,
                 "EventsStreamEvent": EventsStreamEvent}
