"""The one admission path: every way a run can be queued for someone (a run,
a campaign, a study run, a campaign resumed, a run or campaign cloned, the
command line, and the worker queue behind them) asks here first, once, at
queueing time, with the person it is queued for; a refusal names every
problem and the quota behind it. What passes is queued and runs as it was
admitted: neither a campaign's later items nor a worker check again.

(satlab.engine.admission is another question: whether a host runs a queued
run now, beside the others, faithfully.)

Quotas belong to a person: runs are counted by their owner (a run's own, or
its campaign's), so signing in again changes nothing. For everyone: the
description's length, the database's size, and the queue: the students'
queued runs together, and the instructor's apart, each at most
max_queued_runs (a class that fills its part never refuses the instructor);
campaigns written in a request at most max_campaign_runs (a study's recipe
is trusted as installed). For a student also: an enabled preset (`lab`; no
scenario of their own), what one run may ask for (scenario_quotas), runs at
once and per hour; a campaign only if student_campaigns allows, each of its
configurations within the per-run quotas, its `parallel` runs within the
runs they may have at once, and all its runs within their hour.

Callers hold RunQueue.lock from the check through the queueing, so that a
burst of requests (or a campaign's next item) never passes the same check
twice; the counts are the store's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from satlab.scenario import Scenario
from satlab.service import scenario_quotas
from satlab.service.scenario_quotas import Problem
from satlab.service.store import Store
from satlab.settings import Limits

HOUR_S = 3600.0

# What a refusal means for whoever asked: not_allowed (never, as asked), too_large (a field beyond its
# limit), too_many_now (a count that may pass later), storage_full (the instructor frees space first).
RefusalKind = Literal["not_allowed", "too_large", "too_many_now", "storage_full"]


class Refused(Exception):
    """Nothing was queued: one problem per reason, each naming its field and its limit."""

    def __init__(self, kind: RefusalKind, problems: list[Problem]):
        self.kind, self.problems = kind, problems
        super().__init__("; ".join(problem.sentence for problem in problems))


@dataclass(frozen=True)
class Caller:
    """Who a run is queued for. owner is what their runs and campaigns record
    (a student's id, "instructor", "local" for open access; None: the
    command line, the machine's own user)."""
    owner: str | None
    student: bool = False


OPERATOR = Caller(None)


@dataclass(frozen=True)
class Policy:
    """The rules in force now: the limits with the instructor's quotas, and
    the presets students may run (None: every preset)."""
    limits: Limits
    enabled_labs: list[str] | None = None


@dataclass(frozen=True)
class CampaignRequest:
    """A campaign as admission sees it: each configuration's scenario once
    (with a label naming it), how many runs it makes in all, how many run at
    once, the preset it builds on (None: an inline scenario), and whether it
    is a study's recipe (its size is the recipe's)."""
    configurations: list[tuple[str, Scenario]]
    runs: int
    parallel: int
    lab: str | None
    description: str = ""
    from_recipe: bool = False


class Admission:
    def __init__(self, store: Store, policy: Callable[[], Policy]):
        self.store = store
        self.policy = policy

    def run(self, caller: Caller, scenario: Scenario, lab: str | None) -> None:
        """Refused unless caller may queue one run of scenario (from preset lab, or None) now."""
        policy = self.policy()
        self._description(policy.limits, scenario.description)
        if caller.student:
            self._preset(policy, lab)
            if found := scenario_quotas.problems(scenario, policy.limits):
                raise Refused("not_allowed", found)
        self._room(caller, policy.limits, queueing=1)
        if caller.student:
            self._student_counts(caller, policy.limits, at_once=1, this_hour=1)

    def campaign_allowed(self, caller: Caller, runs: int | None = None, lab: str | None = None,
                         from_recipe: bool = False) -> None:
        """Refused if caller may start no campaign at all, none of runs runs,
        or (a student) none built on lab: asked first, before a campaign's
        runs are made from a preset, or before it is read at all (runs None)."""
        policy = self.policy()
        limits = policy.limits
        if caller.student and not limits.student_campaigns:
            raise Refused("not_allowed", [Problem("", "Campaigns are the instructor's: students may not start them "
                                                      "(student_campaigns is 0).")])
        if runs is not None and caller.student:
            self._preset(policy, lab)
        if runs is not None and caller.owner is not None and not from_recipe and runs > limits.max_campaign_runs:
            raise Refused("too_large", [Problem("matrix", f"matrix: the campaign has {runs} runs (configurations x "
                                                          f"iterations), more than {limits.max_campaign_runs} "
                                                          "(max_campaign_runs)")])

    def campaign(self, caller: Caller, request: CampaignRequest) -> None:
        """Refused unless caller may start (or resume) the campaign now."""
        self.campaign_allowed(caller, request.runs, request.lab, request.from_recipe)
        limits = self.policy().limits
        self._description(limits, request.description)
        if caller.student:
            found = [Problem(problem.field, f"{problem.sentence} (configuration {label})")
                     for label, scenario in request.configurations
                     for problem in scenario_quotas.problems(scenario, limits)]
            if found:
                raise Refused("not_allowed", found)
        at_once = min(request.parallel, request.runs)
        self._room(caller, limits, queueing=at_once)
        if caller.student:
            self._student_counts(caller, limits, at_once=at_once, this_hour=request.runs)

    # What never passes is refused first (422, 403), then what may pass later (507, 429).

    @staticmethod
    def _description(limits: Limits, description: str) -> None:
        if len(description) > limits.max_description_chars:
            raise Refused("too_large", [Problem("description", f"description: {len(description)} characters is more "
                                                               f"than {limits.max_description_chars} "
                                                               "(max_description_chars)")])

    def _room(self, caller: Caller, limits: Limits, queueing: int) -> None:
        """Room in the database and in caller's part of the queue."""
        size = self.store.database_bytes()
        if size >= limits.max_database_bytes:
            raise Refused("storage_full", [Problem("", f"The database holds {size} bytes, its limit is "
                                                       f"{limits.max_database_bytes} (max_database_bytes): the "
                                                       "instructor deletes runs or prunes samples and the audit "
                                                       "trail first (POST /api/storage/prune).")])
        if caller.student:
            queued, whose = self.store.queued_runs_of_students(), "the class's"
        else:
            queued, whose = self.store.queued_runs_of(caller.owner or ""), "your"
        if caller.owner is not None and queued + queueing > limits.max_queued_runs:
            raise Refused("too_many_now", [Problem("", f"The queue is full: {queued} of {whose} runs wait already "
                                                       f"and at most {limits.max_queued_runs} may "
                                                       "(max_queued_runs); try again when some have started.")])

    @staticmethod
    def _preset(policy: Policy, lab: str | None) -> None:
        if lab is None:
            raise Refused("not_allowed", [Problem("scenario", "scenario: students run the presets the instructor "
                                                              "enabled: give `lab`, not a scenario of your own")])
        enabled = policy.enabled_labs
        if enabled is not None and lab not in enabled:
            raise Refused("not_allowed", [Problem("lab", f"lab: the instructor has not enabled {lab!r} for students; "
                                                         f"enabled: {', '.join(enabled) or 'none'}")])

    def _student_counts(self, caller: Caller, limits: Limits, at_once: int, this_hour: int) -> None:
        owner = caller.owner or ""
        active = self.store.active_runs(owner)
        if active + at_once > limits.student_concurrent_runs:
            raise Refused("too_many_now", [Problem("", f"You have {active} runs queued or running, and this would add "
                                                       f"{at_once}; a student may have "
                                                       f"{limits.student_concurrent_runs} at once "
                                                       "(student_concurrent_runs): wait for one to end.")])
        recent = self.store.runs_started_since(owner, time.time() - HOUR_S)
        if recent + this_hour > limits.student_runs_per_hour:
            raise Refused("too_many_now", [Problem("", f"You started {recent} runs in the last hour (with those your "
                                                       f"campaigns will run), and this would add {this_hour}; a "
                                                       f"student may start {limits.student_runs_per_hour} "
                                                       "(student_runs_per_hour).")])
