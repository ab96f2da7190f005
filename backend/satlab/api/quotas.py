"""The limits of satlab.settings.Limits, applied to what a request asks for.
Each refusal is an HTTPException whose sentence names the limit: 403 for
what a student may not run at all, 422 for a field too long, 429 for a quota
or a queue that is full now (later it may pass), 507 for a full database."""

from __future__ import annotations

import math
import time
from typing import Any

from fastapi import HTTPException, status

from satlab.api.auth import Auth, Principal
from satlab.api.models.runs import QueuePlace
from satlab.scenario import Scenario
from satlab.service.store import RunRow, Store

HOUR_S = 3600.0


def _refuse(code: int, sentence: str) -> HTTPException:
    return HTTPException(code, detail=sentence)


def check_everyone(store: Store, auth: Auth, description: str) -> None:
    """What holds for every new run or campaign, the instructor's included."""
    limits = auth.limits
    if len(description) > limits.max_description_chars:
        raise _refuse(status.HTTP_422_UNPROCESSABLE_CONTENT,
                      f"description: {len(description)} characters is more than {limits.max_description_chars} "
                      "(max_description_chars).")
    size = store.database_bytes()
    if size >= limits.max_database_bytes:
        raise _refuse(status.HTTP_507_INSUFFICIENT_STORAGE,
                      f"The database holds {size} bytes, its limit is {limits.max_database_bytes} "
                      "(max_database_bytes): the instructor deletes runs or prunes samples first.")


def check_queue(store: Store, auth: Auth, adding: int = 1) -> None:
    queued, limit = store.count_queued(), auth.limits.max_queued_runs
    if queued + adding > limit:
        raise _refuse(status.HTTP_429_TOO_MANY_REQUESTS,
                      f"The queue is full: {queued} runs wait already and at most {limit} may (max_queued_runs); "
                      "try again when some have started.")


def check_student_run(student: Principal, lab: str | None, scenario: Scenario, store: Store, auth: Auth) -> None:
    """A student's run: an enabled preset, within the per-run and per-student quotas."""
    limits = auth.limits
    if lab is None:
        raise _refuse(status.HTTP_403_FORBIDDEN, "Students run the presets the instructor enabled: give `lab`, "
                                                 "not a scenario of your own.")
    enabled = auth.enabled_labs
    if enabled is not None and lab not in enabled:
        raise _refuse(status.HTTP_403_FORBIDDEN, f"The instructor has not enabled lab {lab!r} for students; "
                                                 f"enabled: {', '.join(enabled) or 'none'}.")
    problems = []
    if scenario.iterations > limits.student_iterations:
        problems.append(f"iterations: {scenario.iterations} is more than a student's run may have "
                        f"({limits.student_iterations}, student_iterations)")
    for index, flow in enumerate(scenario.flows):
        if flow.size_bytes is not None and flow.size_bytes > limits.student_flow_bytes:
            problems.append(f"flows.{index}.size_bytes: {flow.size_bytes} bytes is more than a student's flow may "
                            f"move ({limits.student_flow_bytes}, student_flow_bytes)")
        last_s = flow.start_s + (flow.duration_s or 0.0)
        if last_s > limits.student_flow_duration_s:
            problems.append(f"flows.{index}: it would last until {last_s:g} s, later than a student's flow may "
                            f"({limits.student_flow_duration_s} s, student_flow_duration_s)")
    for index, cross in enumerate(scenario.cross_traffic):
        if cross.start_s + (cross.duration_s or 0.0) > limits.student_flow_duration_s:
            problems.append(f"cross_traffic.{index}: it would last longer than a student's flow may "
                            f"({limits.student_flow_duration_s} s, student_flow_duration_s)")
    cross_mbps = sum(cross.rate_mbps for cross in scenario.cross_traffic)
    if cross_mbps > limits.student_cross_traffic_mbps:
        problems.append(f"cross_traffic: {cross_mbps:g} Mbit/s in all is more than a student's run may send "
                        f"({limits.student_cross_traffic_mbps}, student_cross_traffic_mbps)")
    if problems:
        raise _refuse(status.HTTP_403_FORBIDDEN, "; ".join(problems) + ".")
    active = store.count_runs(student.id, statuses=("queued", "running"))
    if active >= limits.student_concurrent_runs:
        raise _refuse(status.HTTP_429_TOO_MANY_REQUESTS,
                      f"You have {active} runs queued or running, as many as a student may "
                      f"({limits.student_concurrent_runs}, student_concurrent_runs); wait for one to end.")
    recent = store.count_runs(student.id, since=time.time() - HOUR_S)
    if recent >= limits.student_runs_per_hour:
        raise _refuse(status.HTTP_429_TOO_MANY_REQUESTS,
                      f"You started {recent} runs in the last hour, as many as a student may "
                      f"({limits.student_runs_per_hour}, student_runs_per_hour).")


def check_campaign(principal: Principal, spec: dict[str, Any], auth: Auth) -> None:
    """Before the campaign's runs are made: whether principal may start one,
    and its number of runs (the matrix's product x iterations) if the spec
    has the shape to tell (else validation says what is wrong)."""
    limits = auth.limits
    if not principal.is_instructor and not limits.student_campaigns:
        raise _refuse(status.HTTP_403_FORBIDDEN, "Campaigns are the instructor's: students may not start them "
                                                 "(student_campaigns is 0).")
    matrix, iterations = spec.get("matrix") or {}, spec.get("iterations", 1)
    if not isinstance(matrix, dict) or not isinstance(iterations, int):
        return
    runs = math.prod(len(values) if isinstance(values, list) else 1 for values in matrix.values()) * iterations
    if runs > limits.max_campaign_runs:
        raise _refuse(status.HTTP_422_UNPROCESSABLE_CONTENT,
                      f"The campaign has {runs} runs (configurations x iterations), more than "
                      f"{limits.max_campaign_runs} (max_campaign_runs).")


def queue_estimate(store: Store, run: RunRow, max_concurrent: int) -> QueuePlace:
    """A queued run's place in line (1: next) and about when it starts, in
    seconds from now (from the median length of recent runs; None before any)."""
    position = store.queue_position(run.run_id) if run.status == "queued" else None
    typical_s = store.median_run_duration_s()
    estimate = None if position is None or typical_s is None else math.ceil(position / max_concurrent) * typical_s
    return QueuePlace(queue_position=position, estimated_start_s=estimate)
