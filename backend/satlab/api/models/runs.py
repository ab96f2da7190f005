"""Request and response bodies of the API (model families per resource)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from satlab.scenario import field_error


class RunCreate(BaseModel):
    """A run of a preset (`lab`, with optional `set` overrides) or of a whole `scenario`."""
    model_config = ConfigDict(extra="forbid", strict=True)  # `set`, not `overrides`; no text for a list
    lab: str | None = Field(default=None, description="A lab's name, as GET /api/labs lists them.")
    scenario: dict[str, Any] | None = Field(default=None, description="A scenario, as in labs/*.yaml.")
    overrides: list[str] = Field(default=[], alias="set",
                                 description="dotted.path=value overrides, e.g. flows.0.cc=bbr.")

    @model_validator(mode="after")
    def _one_source(self) -> RunCreate:
        if (self.lab is None) == (self.scenario is None):
            raise field_error("lab", "give exactly one of lab or scenario", self.lab)
        return self


class RunBase(BaseModel):
    run_id: str
    name: str
    status: str = Field(description="queued, running, done, failed or cancelled.")
    error: str | None
    campaign_id: str | None
    item_index: int | None
    created_at: float = Field(description="Unix time, seconds.")
    started_at: float | None
    finished_at: float | None


class RunSummary(RunBase):
    flows: list[dict[str, Any]] = Field(description="Per-flow summaries (empty until the run ends).")


class RunPublic(RunBase):
    scenario: dict[str, Any]
    provenance: dict[str, Any] = Field(description="Versions of the kernel, satlab and tools; host state.")
    result: dict[str, Any] | None = Field(description="Per-flow and per-iteration summaries, once finished.")


class RunsPublic(BaseModel):
    data: list[RunSummary]
    count: int


class LabPublic(BaseModel):
    name: str
    title: str
    description: str
    error: str | None = Field(description="Why the preset does not load, if it does not.")


class LabsPublic(BaseModel):
    data: list[LabPublic]
    count: int


class LabDetail(LabPublic):
    scenario: dict[str, Any] | None
    text: str = Field(description="The preset's YAML, as written.")


class CampaignProgress(BaseModel):
    total: int
    pending: int
    running: int
    done: int
    failed: int
    cancelled: int


class CampaignPublic(BaseModel):
    campaign_id: str
    name: str
    status: str = Field(description="running, done or cancelled.")
    spec: dict[str, Any]
    created_at: float
    finished_at: float | None
    progress: CampaignProgress
    study: str | None = Field(default=None, description="The study this campaign runs (GET /api/studies/{id}).")
    study_quick: bool = Field(default=False, description="A study's quick smoke run, not a result.")


class CampaignDetail(CampaignPublic):
    items: list[dict[str, Any]]


class CampaignsPublic(BaseModel):
    data: list[CampaignPublic]
    count: int


class Message(BaseModel):
    message: str
