"""Campaigns: a campaign as a list shows it, and whole with its items.
(The request body is a campaign file: satlab.service.campaign.CampaignSpec.)"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from satlab.api.models.common import CampaignSpecObject, Public
from satlab.service.store import CampaignItemDetailRow, CampaignProgress

CampaignStatus = Literal["running", "done", "cancelled"]


class CampaignPublic(Public):
    campaign_id: str
    name: str
    status: CampaignStatus
    spec: CampaignSpecObject
    created_at: float = Field(description="Unix time, seconds.")
    finished_at: float | None = Field(description="Unix time, seconds.")
    progress: CampaignProgress
    study: str | None = Field(default=None, description="The study this campaign runs (GET /api/studies/{id}).")
    study_quick: bool = Field(default=False, description="A study's quick smoke run, not a result.")


class CampaignDetail(CampaignPublic):
    items: list[CampaignItemDetailRow] = Field(description="One per configuration and iteration, in the order they "
                                                           "run, each with every run it had (attempts: a second "
                                                           "follows a first whose worker vanished mid-run).")


class CampaignsPublic(Public):
    data: list[CampaignPublic]
    count: int
