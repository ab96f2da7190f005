"""Runs: each with its scenario and provenance, its state (queued, running,
then done, failed or cancelled), the engine's result, its iterations and
their per-flow summaries; who owns it, whether the class sees it, where it
came from; and what the run queue asks of them (places in line, durations,
what a restart left).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, get_args

from satlab.service.artifacts import RunArtifacts
from satlab.service.labs import preset_of
from satlab.service.store.database import Database, decoded, encode_json, insert, require_run
from satlab.service.store.schema import FINISHED, RUN_STATUSES, RunStatus


@dataclass(frozen=True, slots=True)
class FlowSummaryRow:
    """One flow of one iteration, as summary.flow_summary gives it: the
    figures every transport has as fields, the rest (start-up and steady
    state, latecomers, the transport's own) in details."""
    iteration: int
    flow: int
    group: int | None
    transport: str | None
    cc: str | None
    direction: str | None
    start_s: float | None
    bytes: int | None
    download_time_s: float | None
    goodput_mbps: float | None
    retransmissions: int | None  # packets
    mean_rtt_ms: float | None
    power_mbps_per_s: float | None
    error: str | None
    details: dict[str, Any]


@dataclass(frozen=True, slots=True)
class IterationRow:
    """One iteration's outcome besides its flows: Jain's index, the FEC
    tunnel's and the links' counters per direction, its seeds and plan."""
    iteration: int
    jain_index: float | None
    fec: dict[str, Any] | None
    link: dict[str, Any] | None
    lan: dict[str, Any] | None
    seeds: dict[str, Any] | None
    plan: dict[str, Any] | None
    fidelity: dict[str, Any] | None  # satlab.engine.fidelity: what the host did meanwhile


# Where a lone run is queued from: the console's run form, a lab sheet's run widget, an API request
# that names no page, `satlab run`. A campaign's run comes from its campaign, or its study's.
LoneOrigin = Literal["experiments", "sheet", "api", "command-line"]
OriginKind = Literal[LoneOrigin, "campaign", "study"]
LONE_ORIGINS: tuple[LoneOrigin, ...] = get_args(LoneOrigin)
# The kinds whose origin has a name: the lab sheet's id, the campaign's name, the study's id.
NAMED_ORIGINS: tuple[OriginKind, ...] = ("sheet", "campaign", "study")


@dataclass(frozen=True, slots=True)
class RunOrigin:
    """Where a run came from: a lone run's page or tool, recorded when it was
    queued, or its campaign (or study), read from the campaign it belongs to."""
    kind: OriginKind
    name: str | None = None  # the lab sheet's id, the campaign's name or the study's id; None for the others
    lab: str | None = None  # the preset it ran (labs/<lab>.yaml); None: a scenario of its own

    def __post_init__(self) -> None:
        if self.kind not in (*LONE_ORIGINS, "campaign", "study"):
            raise ValueError(f"a run's origin is one of {', '.join((*LONE_ORIGINS, 'campaign', 'study'))}, "
                             f"got {self.kind!r}")
        if (self.name is not None) != (self.kind in NAMED_ORIGINS):
            raise ValueError(f"a run's origin has a name exactly when it is one of {', '.join(NAMED_ORIGINS)}: "
                             f"{self.kind!r} with name {self.name!r}")


@dataclass(frozen=True, slots=True)
class RunSummaryRow:
    """A run as a list shows it: its state, owner, origin and per-flow summaries."""
    run_id: str
    name: str
    status: RunStatus
    error: str | None
    campaign_id: str | None
    item_index: int | None
    created_at: float  # unix seconds, as every time of the store
    started_at: float | None
    finished_at: float | None
    owner: str | None  # who queued it, else who queued its campaign (None: the command line)
    owner_name: str | None  # the owner's name in the class, if a student of it (None: not a student's)
    shared: bool  # the instructor shows it to the class
    origin: RunOrigin | None  # None: not recorded (a lone run queued before satlab recorded origins)
    flows: tuple[FlowSummaryRow, ...]  # empty until the run ends
    host_kept_up: bool | None  # its fidelity verdict (None: unknown, or not finished)
    timed_out: dict[str, Any] | None  # what its time limit stopped (its result's timed_out), else None


@dataclass(frozen=True, slots=True)
class RunRow(RunSummaryRow):
    """A whole run: also its scenario, provenance and result."""
    scenario: dict[str, Any]
    provenance: dict[str, Any]
    result: dict[str, Any] | None  # the engine's RunResult.to_dict(), once finished
    via_broker: bool  # it went to the workers through the broker (a restart takes it back)
    worker: str | None  # the `satlab worker` that ran it (None: the process that queued it)
    attempt: int  # of its campaign item (or lone run): 2 once, when its first worker vanished mid-run
    fidelity: dict[str, Any] | None  # satlab.engine.fidelity.run_evidence, once finished


FLOW_SUMMARY_FIELDS = ("transport", "cc", "direction", "start_s", "bytes", "download_time_s", "goodput_mbps",
                       "retransmissions", "mean_rtt_ms", "power_mbps_per_s", "error")
# The summary's "group" is a keyword in SQL: it is stored as flow_group.
_FLOW_SUMMARY_SELECT = ("SELECT iteration, flow, flow_group AS \"group\", " + ", ".join(FLOW_SUMMARY_FIELDS)
                        + ", details_json FROM flow_summaries")
_RUN_SUMMARY_FIELDS = ", ".join(f"runs.{column}" for column in (
    "run_id", "name", "status", "error", "campaign_id", "item_index", "created_at", "started_at", "finished_at",
    "shared", "origin", "origin_sheet", "lab", "host_kept_up"))
# Besides a run's own columns: its owner (its own, else its campaign's) and their name if a student's,
# and what a campaign's run comes from (its campaign's name, study and preset, if it names one).
_RUN_JOINED = ("COALESCE(runs.owner, campaigns.owner) AS owned_by, students.name AS owner_name, "
               "campaigns.name AS campaign_name, campaigns.study AS campaign_study, "
               "CASE json_type(campaigns.spec_json, '$.scenario') WHEN 'text' "
               "THEN json_extract(campaigns.spec_json, '$.scenario') END AS campaign_scenario, "
               "json_extract(runs.result_json, '$.timed_out') AS timed_out_json")
_RUN_JOINS = ("FROM runs LEFT JOIN campaigns ON campaigns.campaign_id = runs.campaign_id "
              "LEFT JOIN students ON students.student_id = COALESCE(runs.owner, campaigns.owner)")
# A run its owner may see: their own, those shared with the class, those of their campaigns.
_VISIBLE = ("(runs.owner = ? OR runs.shared = 1 "
            "OR runs.campaign_id IN (SELECT campaign_id FROM campaigns WHERE owner = ?))")


def _flow_summaries(db: sqlite3.Connection, run_id: str) -> tuple[FlowSummaryRow, ...]:
    rows = db.execute(f"{_FLOW_SUMMARY_SELECT} WHERE run_id = ? ORDER BY iteration, flow", (run_id,))
    return tuple(FlowSummaryRow(**decoded(row)) for row in rows)


def _run_columns(db: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    """A run's row (its summary's columns, or all of them) and what _RUN_JOINED adds, as the fields of
    RunSummaryRow (or RunRow): its owner, shared and its verdict as bools, its origin, its per-flow summaries."""
    columns = decoded(row)
    campaign_name, study = columns.pop("campaign_name"), columns.pop("campaign_study")
    campaign_preset = preset_of(columns.pop("campaign_scenario"))
    kind, sheet, lab = columns.pop("origin"), columns.pop("origin_sheet"), columns.pop("lab")
    origin = None
    if columns["campaign_id"] is not None and campaign_name is not None:
        origin = RunOrigin("study", study, campaign_preset) if study else RunOrigin("campaign", campaign_name,
                                                                                    campaign_preset)
    elif kind is not None:
        origin = RunOrigin(kind, sheet, lab)
    columns.pop("owner", None)  # the run's own column (SELECT runs.*): owned_by says whose it is
    columns["owner"] = columns.pop("owned_by")
    kept_up = columns["host_kept_up"]
    columns.update(shared=bool(columns["shared"]), host_kept_up=None if kept_up is None else bool(kept_up),
                   origin=origin, flows=_flow_summaries(db, columns["run_id"]))
    return columns


def _add_iteration(db: sqlite3.Connection, run_id: str, outcome: dict[str, Any]) -> None:
    iteration = outcome["iteration"]
    db.execute("DELETE FROM flow_summaries WHERE run_id = ? AND iteration = ?", (run_id, iteration))
    db.execute("DELETE FROM iterations WHERE run_id = ? AND iteration = ?", (run_id, iteration))
    insert(db, "iterations", {"run_id": run_id, "iteration": iteration, "jain_index": outcome.get("jain_index"),
                              **{f"{name}_json": encode_json(outcome.get(name))
                                 for name in ("fec", "link", "lan", "seeds", "plan", "fidelity")}})
    known = {"iteration", "flow", "group", *FLOW_SUMMARY_FIELDS}
    for row in outcome.get("flows") or ():
        insert(db, "flow_summaries", {"run_id": run_id, "iteration": iteration, "flow": row["flow"],
                                      "flow_group": row.get("group"),
                                      **{name: row.get(name) for name in FLOW_SUMMARY_FIELDS},
                                      "details_json": encode_json({k: v for k, v in row.items() if k not in known})})


def _verdict(result: dict[str, Any]) -> tuple[Any, int | None]:
    """A finished run's fidelity evidence and its verdict, as the runs table keeps them."""
    evidence = result.get("fidelity")
    kept_up = evidence.get("host_kept_up") if isinstance(evidence, dict) else None
    return evidence, None if kept_up is None else int(kept_up)


def insert_finished_run(db: sqlite3.Connection, run: dict[str, Any]) -> None:
    """A run that finished elsewhere, as it was kept there (a campaign's
    record: satlab.service.campaign_record): its columns, times included,
    and its result's iterations."""
    evidence, kept_up = _verdict(run["result"])
    columns = ("run_id", "status", "error", "campaign_id", "item_index", "created_at", "started_at", "finished_at",
               "attempt", "worker")
    insert(db, "runs", {**{column: run[column] for column in columns}, "name": run["scenario"]["name"],
                        **{f"{name}_json": encode_json(run[name]) for name in ("scenario", "provenance", "result")},
                        "fidelity_json": encode_json(evidence), "host_kept_up": kept_up})
    for outcome in run["result"].get("iterations") or ():
        _add_iteration(db, run["run_id"], outcome)


class RunTables(Database):
    """The store's part for runs (a mixin of store.Store)."""

    def create_run(self, run_id: str, scenario: dict[str, Any], provenance: dict[str, Any],
                   campaign_id: str | None = None, item_index: int | None = None, attempt: int = 1,
                   origin: RunOrigin | None = None) -> None:
        """origin: where a lone run comes from (None: not known); a campaign's run comes from its campaign."""
        if origin is not None and (campaign_id is not None or origin.kind not in LONE_ORIGINS):
            raise ValueError(f"only a lone run records its origin, one of {', '.join(LONE_ORIGINS)}: got "
                             f"{origin.kind!r} for a run of campaign {campaign_id!r}")
        recorded = {} if origin is None else {"origin": origin.kind, "origin_sheet": origin.name, "lab": origin.lab}
        with self._write() as db:
            insert(db, "runs", {"run_id": run_id, "name": scenario["name"], "status": "queued",
                                "scenario_json": encode_json(scenario), "provenance_json": encode_json(provenance),
                                "campaign_id": campaign_id, "item_index": item_index, "created_at": time.time(),
                                "attempt": attempt, **recorded})

    def mark_via_broker(self, run_id: str) -> None:
        """The run goes to the workers through the broker."""
        with self._write() as db:
            require_run(db, run_id)
            db.execute("UPDATE runs SET via_broker = 1 WHERE run_id = ?", (run_id,))

    def set_run_worker(self, run_id: str, worker: str, provenance: dict[str, Any] | None) -> None:
        """The worker that took the run, and what it runs it with (its
        provenance replaces the server's, which queued it)."""
        with self._write() as db:
            require_run(db, run_id)
            db.execute("UPDATE runs SET worker = ?, provenance_json = COALESCE(?, provenance_json) WHERE run_id = ?",
                       (worker, encode_json(provenance), run_id))

    def set_run_status(self, run_id: str, status: str, error: str | None = None) -> None:
        """running sets started_at; done, failed and cancelled set finished_at."""
        if status not in RUN_STATUSES:
            raise ValueError(f"run status must be one of {', '.join(RUN_STATUSES)}, got {status!r}")
        started = time.time() if status == "running" else None
        finished = time.time() if status in FINISHED else None
        with self._write() as db:
            require_run(db, run_id)
            db.execute("UPDATE runs SET status = ?, error = ?, started_at = COALESCE(?, started_at), "
                       "finished_at = COALESCE(?, finished_at) WHERE run_id = ?",
                       (status, error, started, finished, run_id))

    def add_iteration(self, run_id: str, outcome: dict[str, Any]) -> None:
        """One iteration's outcome (what the engine's _Iteration.run returns)
        and its per-flow summaries; adding the same iteration again replaces it."""
        with self._write() as db:
            require_run(db, run_id)
            _add_iteration(db, run_id, outcome)

    def finish_run(self, run_id: str, result: dict[str, Any]) -> bool:
        """The engine's result (RunResult.to_dict()), kept whole as result: its
        status and error, its fidelity evidence and verdict, and its
        iterations (added as add_iteration does). Once: False, and nothing
        changes, if the run has finished already (a result that arrives twice,
        or late for a run given up)."""
        status = result["status"]
        if status not in FINISHED:
            raise ValueError(f"a finished run's status must be one of {', '.join(FINISHED)}, got {status!r}")
        evidence, kept_up = _verdict(result)
        with self._write() as db:
            require_run(db, run_id)
            if db.execute("SELECT status FROM runs WHERE run_id = ?", (run_id,)).fetchone()[0] in FINISHED:
                return False
            for outcome in result.get("iterations") or ():
                _add_iteration(db, run_id, outcome)
            db.execute("UPDATE runs SET status = ?, error = ?, result_json = ?, finished_at = ?, fidelity_json = ?, "
                       "host_kept_up = ? WHERE run_id = ?",
                       (status, result.get("error"), encode_json(result), time.time(), encode_json(evidence),
                        kept_up, run_id))
        return True

    def get_run(self, run_id: str) -> RunRow | None:
        with self._read() as db:
            row = db.execute(f"SELECT runs.*, {_RUN_JOINED} {_RUN_JOINS} WHERE runs.run_id = ?", (run_id,)).fetchone()
            if row is None:
                return None
            columns = _run_columns(db, row)
            return RunRow(**{**columns, "via_broker": bool(columns["via_broker"])})

    def list_runs(self, status: str | None = None, campaign_id: str | None = None, limit: int = 100,
                  offset: int = 0, visible_to: str | None = None) -> tuple[list[RunSummaryRow], int]:
        """A page of runs, newest first, each with its per-flow summaries (not
        its scenario, result or samples); and how many match in all.
        visible_to: only the runs that owner may see (see run_visible_to)."""
        filters = (("status", status), ("campaign_id", campaign_id))
        conditions: list[tuple[str, tuple[str, ...]]] = [(f"runs.{column} = ?", (value,))
                                                         for column, value in filters if value is not None]
        if visible_to is not None:
            conditions.append((_VISIBLE, (visible_to, visible_to)))
        where = " WHERE " + " AND ".join(condition for condition, _ in conditions) if conditions else ""
        values = tuple(value for _, values in conditions for value in values)
        with self._read() as db:
            count = db.execute(f"SELECT count(*) FROM runs{where}", values).fetchone()[0]
            rows = db.execute(f"SELECT {_RUN_SUMMARY_FIELDS}, {_RUN_JOINED} {_RUN_JOINS}{where} "
                              "ORDER BY runs.created_at DESC, runs.rowid DESC LIMIT ? OFFSET ?",
                              (*values, limit, offset)).fetchall()
            runs = [RunSummaryRow(**_run_columns(db, row)) for row in rows]
        return runs, count

    def flow_summaries(self, run_id: str) -> tuple[FlowSummaryRow, ...]:
        """Per iteration and flow, in that order."""
        with self._read() as db:
            return _flow_summaries(db, run_id)

    def iterations(self, run_id: str) -> tuple[IterationRow, ...]:
        with self._read() as db:
            rows = db.execute("SELECT * FROM iterations WHERE run_id = ? ORDER BY iteration", (run_id,)).fetchall()
        return tuple(IterationRow(**decoded(row, leave_out=("run_id",))) for row in rows)

    def unfinished_runs(self) -> list[str]:
        """The runs still queued or running, oldest first."""
        with self._read() as db:
            return [row[0] for row in db.execute(
                "SELECT run_id FROM runs WHERE status IN ('queued', 'running') ORDER BY created_at, rowid")]

    def interrupt_unfinished(self, message: str, alive: Callable[[str], bool] = lambda run_id: False) -> list[str]:
        """After a restart: every run still queued or running failed with
        message, unless alive(run_id) says another process still drives it;
        campaign items that pointed at those runs are pending again (without a
        run). Returns the ids of the runs marked failed."""
        with self._write() as db:
            unfinished = [row[0] for row in db.execute(
                "SELECT run_id FROM runs WHERE status IN ('queued', 'running') ORDER BY created_at")]
            run_ids = [run_id for run_id in unfinished if not alive(run_id)]
            for run_id in run_ids:
                db.execute("UPDATE runs SET status = 'failed', error = ?, finished_at = ? WHERE run_id = ?",
                           (message, time.time(), run_id))
                db.execute("UPDATE campaign_items SET status = 'pending', run_id = NULL WHERE run_id = ?", (run_id,))
        return run_ids

    def delete_run(self, run_id: str) -> None:
        """A finished run with everything it stored, its kept files too; a
        campaign item that ran it forgets it."""
        with self._write() as db:
            db.execute("UPDATE campaign_items SET run_id = NULL WHERE run_id = ?", (run_id,))
            db.execute("DELETE FROM runs WHERE run_id = ?", (run_id,))
        RunArtifacts.beside(self.path).remove(run_id)

    # Who may see a run (satlab.api.auth)

    def set_run_owner(self, run_id: str, owner: str) -> None:
        with self._write() as db:
            db.execute("UPDATE runs SET owner = ? WHERE run_id = ?", (owner, run_id))

    def run_visible_to(self, run_id: str, owner: str) -> bool:
        with self._read() as db:
            return db.execute(f"SELECT 1 FROM runs WHERE run_id = ? AND {_VISIBLE}",
                              (run_id, owner, owner)).fetchone() is not None

    def run_owner(self, run_id: str) -> str | None:
        """The run's owner, or its campaign's."""
        with self._read() as db:
            row = db.execute("SELECT COALESCE(runs.owner, campaigns.owner) FROM runs LEFT JOIN campaigns "
                             "USING (campaign_id) WHERE run_id = ?", (run_id,)).fetchone()
        return None if row is None else row[0]

    def set_run_shared(self, run_id: str, shared: bool) -> None:
        with self._write() as db:
            db.execute("UPDATE runs SET shared = ? WHERE run_id = ?", (int(shared), run_id))

    # What the queue and the quotas count

    def count_runs(self, owner: str, *, statuses: tuple[str, ...] = RUN_STATUSES, since: float = 0.0) -> int:
        """owner's own runs with one of statuses, created at or after since."""
        with self._read() as db:
            count: int = db.execute(
                f"SELECT count(*) FROM runs WHERE owner = ? AND status IN ({', '.join('?' * len(statuses))}) "
                "AND created_at >= ?", (owner, *statuses, since)).fetchone()[0]
        return count

    def queue_position(self, run_id: str) -> int | None:
        """1 for the next queued run to start; None if the run is not queued."""
        with self._read() as db:
            row = db.execute("SELECT created_at, rowid FROM runs WHERE run_id = ? AND status = 'queued'",
                             (run_id,)).fetchone()
            if row is None:
                return None
            ahead: int = db.execute("SELECT count(*) FROM runs WHERE status = 'queued' AND "
                                    "(created_at < ? OR (created_at = ? AND rowid < ?))",
                                    (row[0], row[0], row[1])).fetchone()[0]
        return ahead + 1

    def count_queued(self) -> int:
        with self._read() as db:
            count: int = db.execute("SELECT count(*) FROM runs WHERE status = 'queued'").fetchone()[0]
        return count

    def median_run_duration_s(self, last: int = 20) -> float | None:
        """Of the last runs done, for an estimate of when a queued run starts."""
        with self._read() as db:
            durations = sorted(row[0] for row in db.execute(
                "SELECT finished_at - started_at FROM runs WHERE status = 'done' AND started_at IS NOT NULL "
                "ORDER BY finished_at DESC LIMIT ?", (last,)))
        return durations[len(durations) // 2] if durations else None
