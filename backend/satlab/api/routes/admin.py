"""The instructor's desk: the class code, the students (rename, a new key,
remove), the presets they may run, their quotas, the audit trail, the
database's size, retention and pruning; and the limits, which every
signed-in user may read."""

from __future__ import annotations

import time
from typing import Annotated, Any

import annotated_types
from fastapi import APIRouter, Body, FastAPI, HTTPException, Request, status
from pydantic import BaseModel, ConfigDict, Field

from satlab.api.deps import AuthDep, InstructorDep, ManagerDep, Offset, PageSize, SettingsDep, StoreDep, UserDep
from satlab.api.errors import Refusal
from satlab.api.models.classroom import AuditPublic, ClassCode, ClassPublic, IntegerRange, Pruned, TunnelLimits
from satlab.api.models.common import Message, Refused
from satlab.api.responses import found
from satlab.api.routes.auth import StudentName
from satlab.scenario import Tunnel
from satlab.service.labs import list_labs
from satlab.service.store import StudentRow
from satlab.settings import CEILING_PREFIX, Limits

router = APIRouter(tags=["class"])

DAY_S = 86400.0


class EnabledLabs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    enabled_labs: list[str] | None = Field(description="The presets students may run; null: every preset.")


class Limit(BaseModel):
    name: str
    value: int
    description: str


class Quota(Limit):
    default: int = Field(description="Its value until the instructor changes it: SATLAB_LIMIT_<NAME>, else the "
                                     "table's.")
    ceiling: int = Field(description="The most the instructor may set: SATLAB_CEILING_<NAME>, else the table's.")


_DESCRIPTIONS = {limit["name"]: limit["description"] for limit in Limits().table()}


def _quota(name: str) -> Any:
    return Field(ge=0, description=_DESCRIPTIONS[name])


class ClassQuotas(BaseModel):
    """Every quota of Limits.ceilings(): the instructor's form sends what it
    shows. Each one's maximum is its ceiling, which the environment sets:
    document_ceilings writes it in."""
    model_config = ConfigDict(extra="forbid")
    student_concurrent_runs: int = _quota("student_concurrent_runs")
    student_runs_per_hour: int = _quota("student_runs_per_hour")
    student_flow_bytes: int = _quota("student_flow_bytes")
    student_flow_duration_s: int = _quota("student_flow_duration_s")
    student_cross_traffic_mbps: int = _quota("student_cross_traffic_mbps")
    student_iterations: int = _quota("student_iterations")
    student_campaigns: int = _quota("student_campaigns")
    student_link_rate_mbps: int = _quota("student_link_rate_mbps")
    audit_retention_rows: int = _quota("audit_retention_rows")
    retention_days: int = _quota("retention_days")


class StudentRename(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: StudentName


class PruneRequest(BaseModel):
    """What to drop; each left out: as the retention quotas say."""
    model_config = ConfigDict(extra="forbid")
    samples_older_than_days: int | None = Field(
        default=None, ge=0, le=36_500, description="Drop the samples of runs finished longer ago than this (their "
                                                   "summaries stay); 0: of every finished run. Default: "
                                                   "retention_days.")
    audit_rows: int | None = Field(default=None, ge=0, le=10_000_000,
                                   description="Keep this many of the newest audit entries. Default: "
                                               "audit_retention_rows.")


def document_ceilings(app: FastAPI, ceilings: dict[str, int]) -> None:
    """Each quota's ceiling as its maximum in app's OpenAPI document, where
    the instructor's form reads its limits as every form does."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            properties = generate()["components"]["schemas"]["ClassQuotas"]["properties"]
            for name, ceiling in ceilings.items():
                properties[name]["maximum"] = ceiling
        return app.openapi_schema or {}

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend the schema


@router.get("/limits", response_model=list[Limit])
def get_limits(auth: AuthDep, _: UserDep) -> list[dict[str, Any]]:
    """Every quota and limit the server enforces now (SATLAB_LIMIT_<NAME> sets one; the instructor, a quota)."""
    return auth.limits.table()


def _range(field: str) -> IntegerRange:
    """A whole-number field's bounds, as the scenario model checks them."""
    metadata = Tunnel.model_fields[field].metadata
    low = next(item.ge for item in metadata if isinstance(item, annotated_types.Ge))
    high = next(item.le for item in metadata if isinstance(item, annotated_types.Le))
    return IntegerRange.model_validate({"min": low, "max": high})


@router.get("/limits/tunnel")
def get_tunnel_limits(_: UserDep) -> TunnelLimits:
    """The FEC tunnel S(k,z) a scenario may ask for, as the scenario model
    checks it, for every form that offers one."""
    return TunnelLimits(k=_range("k"), z=_range("z"), symbol_bytes=_range("symbol_bytes"), k_at_most_z=True)


@router.get("/class")
def get_class(auth: AuthDep, store: StoreDep, _: InstructorDep) -> ClassPublic:
    """What the instructor shows and watches: the class code, the students, the enabled presets, the storage."""
    return ClassPublic(class_code=auth.class_code, enabled_labs=auth.enabled_labs, students=store.list_students(),
                       database_bytes=store.database_bytes(), max_database_bytes=auth.limits.max_database_bytes,
                       retention_days=auth.limits.retention_days)


@router.get("/class/quotas", response_model=list[Quota])
def get_quotas(auth: AuthDep, _: InstructorDep) -> list[dict[str, Any]]:
    """The quotas the instructor may change: each one's value now, its default and its ceiling."""
    return auth.quotas()


@router.put("/class/quotas", response_model=list[Quota])
def set_quotas(body: ClassQuotas, request: Request, auth: AuthDep, _: InstructorDep) -> list[dict[str, Any]]:
    """Set every quota, each from 0 to its ceiling; new requests follow them at once (runs under
    way keep going). A quota above its ceiling is a 422 naming both, and nothing changes."""
    values: dict[str, int] = body.model_dump()
    problems = [{"loc": ["body", name], "type": "ceiling",
                 "msg": f"{name}: {value} is more than its ceiling, {auth.ceilings[name]} "
                        f"({CEILING_PREFIX}{name.upper()}, set where the server runs)"}
                for name, value in values.items() if value > auth.ceilings[name]]
    if problems:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, detail=problems)
    changes = auth.set_quotas(values)
    request.state.audit_detail = ", ".join(f"{name} {old} -> {new}" for name, (old, new) in changes.items()) \
        or "no change"
    return auth.quotas()


@router.post("/class/code")
def new_class_code(auth: AuthDep, _: InstructorDep) -> ClassCode:
    """A new class code (the old one stops working; signed-in students stay)."""
    return ClassCode(class_code=auth.new_class_code())


@router.put("/class/labs")
def set_enabled_labs(body: EnabledLabs, request: Request, auth: AuthDep, settings: SettingsDep,
                     _: InstructorDep) -> EnabledLabs:
    if body.enabled_labs is not None:
        known = {lab["name"] for lab in list_labs(settings.labs_dir)}
        unknown = sorted(set(body.enabled_labs) - known)
        if unknown:
            raise Refusal(status.HTTP_422_UNPROCESSABLE_CONTENT,
                          f"enabled_labs: there is no lab {', '.join(unknown)}; known: {', '.join(sorted(known))}.",
                          ["body", "enabled_labs"], "unknown_lab")
    auth.set_enabled_labs(body.enabled_labs)
    request.state.audit_detail = "every preset" if body.enabled_labs is None else \
        ", ".join(body.enabled_labs) or "no preset"
    return EnabledLabs(enabled_labs=auth.enabled_labs)


@router.get("/audit")
def get_audit(store: StoreDep, _: InstructorDep, limit: PageSize = 100, offset: Offset = 0) -> AuditPublic:
    """Every state-changing action a signed-in user made that succeeded, and
    every sign-in attempt within the rate limit, newest first (the newest
    audit_retention_rows of them)."""
    entries, count = store.list_audit(limit, offset)
    return AuditPublic(data=entries, count=count)


@router.post("/storage/prune")
def prune(store: StoreDep, auth: AuthDep, _: InstructorDep,
          body: Annotated[PruneRequest | None, Body()] = None) -> Pruned:
    """Drop the samples of runs finished more than retention_days ago (their
    summaries stay) and the audit entries beyond audit_retention_rows; or
    more, as the body asks: what always brings a full database
    (max_database_bytes) back under its limit, with DELETE /api/runs/{id}."""
    body = body or PruneRequest()
    days = auth.limits.retention_days if body.samples_older_than_days is None else body.samples_older_than_days
    rows = auth.limits.audit_retention_rows if body.audit_rows is None else body.audit_rows
    pruned = store.prune_samples(time.time() - days * DAY_S)
    dropped = store.prune_audit(rows)
    return Pruned(pruned_runs=pruned, audit_rows_dropped=dropped, database_bytes=store.database_bytes(),
                  max_database_bytes=auth.limits.max_database_bytes)


@router.get("/class/students")
def list_students(store: StoreDep, _: InstructorDep) -> list[StudentRow]:
    """Every student, in the order they joined, with their personal key and how many runs they started."""
    return store.list_students()


def _student_or_404(store: StoreDep, student_id: str) -> StudentRow:
    return found(store.get_student(student_id), "Student")


@router.put("/class/students/{student_id}", responses={404: {"model": Refused}, 409: {"model": Refused}})
def rename_student(student_id: str, body: StudentRename, request: Request, auth: AuthDep, store: StoreDep,
                   _: InstructorDep) -> StudentRow:
    """A student's new name (409 if another student has it)."""
    before = _student_or_404(store, student_id)
    student = auth.rename_student(student_id, body.name)
    request.state.audit_detail = f"{before.name} -> {student.name}"
    return student


@router.post("/class/students/{student_id}/key", responses={404: {"model": Refused}})
def new_student_key(student_id: str, request: Request, auth: AuthDep, store: StoreDep,
                    _: InstructorDep) -> StudentRow:
    """A new personal key for a student (the old one no longer signs in as
    them); their sessions end."""
    request.state.audit_detail = _student_or_404(store, student_id).name
    return auth.new_student_key(student_id)


@router.delete("/class/students/{student_id}", responses={404: {"model": Refused}})
def remove_student(student_id: str, request: Request, manager: ManagerDep, _: InstructorDep) -> Message:
    """Remove a student: their sessions end at once, their queued and running
    runs and campaigns are cancelled, and their name is free again; their
    finished runs stay (listed with their id)."""
    store = manager.store
    student = _student_or_404(store, student_id)
    store.remove_student(student_id)
    for campaign_id in store.running_campaigns_of(student_id):
        manager.cancel_campaign(campaign_id)
    for run_id in store.unfinished_runs_of(student_id):
        manager.cancel(run_id)
    request.state.audit_detail = student.name
    return Message(message=f"{student.name} is removed: their sessions ended and their unfinished runs are cancelled.")
