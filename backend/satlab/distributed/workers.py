"""Who works: each `satlab worker` keeps a record of itself in Redis (its
name, host, calibrated capacity, the runs it holds), renewed every
HEARTBEAT_S and kept RECORD_TTL_S: a worker that stops renewing it (killed,
frozen, cut off) drops out within that time. The server reads the records
to show the workers (GET /api/workers) and to find the runs of a worker
that vanished, which it tries once more elsewhere.
"""

from __future__ import annotations

import json
from typing import Any, cast

import redis
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from satlab.engine.capacity import RunKind

RECORD_PREFIX = "satlab:workers:"
HEARTBEAT_S = 2.0
# Several heartbeats: a worker busy with 16 runs on a loaded host may be late with one.
RECORD_TTL_S = 15
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$"


class WorkerRun(BaseModel):
    """A run a worker holds: running, or taken and waiting for room."""
    model_config = ConfigDict(frozen=True)
    run_id: str
    kind: RunKind
    attempt: int
    state: str = Field(pattern="^(running|waiting)$")
    since: float  # unix seconds


class WorkerRecord(BaseModel):
    """What a worker says of itself."""
    model_config = ConfigDict(frozen=True)
    name: str = Field(pattern=NAME_PATTERN)
    host: str
    pid: int
    started_at: float  # unix seconds, when this process started: a restarted worker is a new one
    seen_at: float  # unix seconds, its last heartbeat
    kernel: str
    satlab_version: str | None
    # The calibration it admits by (its summary: when, and runs of each kind at once), or None.
    calibration: dict[str, Any] | None
    max_runs: int  # an upper bound besides the calibration
    runs: list[WorkerRun]
    refused: int = 0  # queue messages it refused without running anything
    last_refusal: str | None = None
    waiting_reason: str | None = None  # why the run it took does not start yet


def record_key(name: str) -> str:
    return f"{RECORD_PREFIX}{name}"


def announce(client: redis.Redis, record: WorkerRecord) -> None:
    client.set(record_key(record.name), record.model_dump_json(), ex=RECORD_TTL_S)


def forget(client: redis.Redis, name: str) -> None:
    client.delete(record_key(name))


def read_record(client: redis.Redis, name: str) -> WorkerRecord | None:
    return _parse(cast(bytes | None, client.get(record_key(name))))


def _parse(raw: bytes | None) -> WorkerRecord | None:
    if raw is None:
        return None
    try:
        return WorkerRecord.model_validate(json.loads(raw))
    except (ValueError, ValidationError):  # another version's record, or not one: not a worker we know
        return None


def live_workers(client: redis.Redis) -> list[WorkerRecord]:
    """Every worker whose record is alive, by name."""
    keys = sorted(cast(list[bytes], list(client.scan_iter(match=f"{RECORD_PREFIX}*", count=500))))
    if not keys:
        return []
    records = (_parse(raw) for raw in cast(list[bytes | None], client.mget(keys)))
    return [record for record in records if record is not None]
