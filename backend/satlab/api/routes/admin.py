"""The instructor's desk: the class code, the students, the presets they may
run, the audit trail, the database's size and retention; and the limits,
which every signed-in user may read."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, status
from pydantic import BaseModel, ConfigDict, Field

from satlab.api.deps import AuthDep, InstructorDep, SettingsDep, StoreDep, UserDep
from satlab.labs import list_labs

router = APIRouter(tags=["class"])

DAY_S = 86400.0


class EnabledLabs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    enabled_labs: list[str] | None = Field(description="The presets students may run; null: every preset.")


class Limit(BaseModel):
    name: str
    value: int
    description: str


@router.get("/limits", response_model=list[Limit])
def get_limits(settings: SettingsDep, _: UserDep) -> list[dict[str, Any]]:
    """Every quota and limit the server enforces (SATLAB_LIMIT_<NAME> sets one)."""
    return settings.limits.table()


@router.get("/class")
def get_class(auth: AuthDep, store: StoreDep, settings: SettingsDep, _: InstructorDep) -> dict[str, Any]:
    """What the instructor shows and watches: the class code, the students, the enabled presets, the storage."""
    return {"class_code": auth.class_code, "enabled_labs": auth.enabled_labs, "students": store.list_students(),
            "database_bytes": store.database_bytes(), "max_database_bytes": settings.limits.max_database_bytes,
            "retention_days": settings.limits.retention_days}


@router.post("/class/code")
def new_class_code(auth: AuthDep, _: InstructorDep) -> dict[str, str]:
    """A new class code (the old one stops working; signed-in students stay)."""
    return {"class_code": auth.new_class_code()}


@router.put("/class/labs", response_model=EnabledLabs)
def set_enabled_labs(body: EnabledLabs, auth: AuthDep, settings: SettingsDep, _: InstructorDep) -> dict[str, Any]:
    if body.enabled_labs is not None:
        known = {lab["name"] for lab in list_labs(settings.labs_dir)}
        unknown = sorted(set(body.enabled_labs) - known)
        if unknown:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT,
                                detail=f"enabled_labs: there is no lab {', '.join(unknown)}; known: "
                                       f"{', '.join(sorted(known))}.")
    auth.set_enabled_labs(body.enabled_labs)
    return {"enabled_labs": auth.enabled_labs}


@router.get("/audit")
def get_audit(store: StoreDep, _: InstructorDep, limit: Annotated[int, Query(ge=1, le=1000)] = 100,
              offset: Annotated[int, Query(ge=0)] = 0) -> dict[str, Any]:
    """Every state-changing action that succeeded and every sign-in attempt, newest first."""
    entries, count = store.list_audit(limit, offset)
    return {"data": entries, "count": count}


@router.post("/storage/prune")
def prune(store: StoreDep, settings: SettingsDep, _: InstructorDep) -> dict[str, int]:
    """Drop the samples of runs finished more than retention_days ago (their summaries stay)."""
    pruned = store.prune_samples(time.time() - settings.limits.retention_days * DAY_S)
    return {"pruned_runs": pruned, "database_bytes": store.database_bytes()}
