"""Who runs the runs (GET /api/workers): the `satlab worker`s a broker
feeds, or this server itself when there is none."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from satlab.api.models.common import Public
from satlab.api.models.fidelity import CalibrationSummary


class WorkerRunPublic(Public):
    run_id: str
    kind: Literal["kernel_tcp", "tunnel", "quic"] = Field(description="What it costs the host (its calibration "
                                                                       "counts each kind apart).")
    attempt: int = Field(description="2: its first worker vanished mid-run.")
    state: Literal["running", "waiting"] = Field(description="waiting: taken, until the host has room for it.")
    since: float | None = Field(description="Unix time, seconds.")


class WorkerPublic(Public):
    name: str
    host: str
    kernel: str
    satlab_version: str | None
    started_at: float | None = Field(description="Unix time, seconds; null for this server.")
    seen_at: float = Field(description="Its last heartbeat, unix time, seconds.")
    calibration: CalibrationSummary | None = Field(description="How many runs of each kind it runs at once "
                                                               "faithfully; null: not calibrated (one at a time).")
    max_runs: int = Field(description="The most runs at once, whatever the calibration allows.")
    runs: list[WorkerRunPublic] = Field(description="What it runs now, and the run it took and waits to start.")
    refused: int = Field(description="Queue messages it refused without running anything.")
    last_refusal: str | None
    waiting_reason: str | None = Field(description="Why the run it took does not start yet.")


class WorkersPublic(Public):
    broker: Literal["none", "connected"] = Field(description="none: no broker is configured, runs run in this "
                                                             "server's process (listed as one worker).")
    workers: list[WorkerPublic]
