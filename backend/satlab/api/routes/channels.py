"""Channels: a channel model's statistics, computed by libswf (the same
figures as `satlab channel stats` and the channel lab)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import ConfigDict, Field

from satlab.api.deps import SettingsDep
from satlab.engine.channel_stats import (
    DEFAULT_SEED,
    ChannelStats,
    ChannelStatsRequest,
    Direction,
    Stream,
    lab_channel,
    measure,
)
from satlab.scenario import Scenario, ScenarioError
from satlab.service.labs import confine_trace, load_lab

router = APIRouter(prefix="/channels", tags=["channels"])

# A field out of its range, or work beyond a limit: each problem names its field.
REFUSED: dict[int | str, dict[str, Any]] = {422: {"description": "A field is refused; each problem names it."}}
# A run's iterations are numbered from 0, below the scenario's maximum.
MAX_ITERATION = next(item.le for item in Scenario.model_fields["iterations"].metadata if hasattr(item, "le")) - 1


class LabChannelQuery(Stream):
    """A lab's channel in one direction, with the seed a run's plan gives it."""
    # A query string is text: numbers arrive as such.
    model_config = ConfigDict(extra="forbid", strict=False)

    lab: str
    direction: Direction = "forward"
    iteration: int = Field(default=0, ge=0, le=MAX_ITERATION, description="Which iteration's seed (from 0).")


@router.get("/stats", response_model=ChannelStats, responses=REFUSED)
def get_lab_channel_stats(query: Annotated[LabChannelQuery, Query()], settings: SettingsDep) -> ChannelStats:
    """The statistics of a lab's channel (forward, return, lan-up or
    lan-down) over duration_s (at most MAX_DURATION_S), with the seed
    iteration `iteration` of a run gets."""
    scenario = load_lab(settings.labs_dir, query.lab)
    scenario.resolve_traces(settings.labs_dir)
    channel, seed, field = lab_channel(scenario, query.direction, query.iteration)
    return measure(channel, seed, query, field)


@router.post("/stats", response_model=ChannelStats, responses=REFUSED)
def post_channel_stats(body: ChannelStatsRequest, settings: SettingsDep) -> ChannelStats:
    """The statistics of a channel as in the scenario model (a ge-time
    channel may be given by loss_time_ratio and mean_burst_ms: the answer
    shows the p and q derived from them), with its seed or 1. A trace file
    is read from the labs directory only."""
    if (problem := confine_trace(body.channel, settings.labs_dir, "channel")) is not None:
        raise ScenarioError([problem])
    seed = body.channel.seed if body.channel.seed is not None else DEFAULT_SEED
    return measure(body.channel, seed, body)
