"""Campaigns: each with its spec (a campaign file as validated), its state
(running, then done or cancelled), the study it runs if any, and its items:
one per configuration and iteration, each pending, running or finished,
with the run that ran it.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from satlab.service.artifacts import RunArtifacts
from satlab.service.store.database import Database, decoded, encode_json, insert
from satlab.service.store.runs import insert_finished_run
from satlab.service.store.schema import CAMPAIGN_STATUSES, ITEM_STATUSES, CampaignStatus, ItemStatus


@dataclass(frozen=True, slots=True)
class CampaignProgress:
    """A campaign's items counted by status."""
    total: int
    pending: int
    running: int
    done: int
    failed: int
    cancelled: int


@dataclass(frozen=True, slots=True)
class CampaignItemRow:
    item_index: int
    configuration: int  # index into the matrix's Cartesian product, in key order
    iteration: int
    parameters: dict[str, Any]  # matrix path -> this configuration's value
    status: ItemStatus
    run_id: str | None  # its run, once started (a resumed item gets a new one)
    # What a run request for the item carries (`<campaign id>:<item index>`): the item is counted once.
    idempotency_key: str | None


@dataclass(frozen=True, slots=True)
class CampaignItemWithScenario(CampaignItemRow):
    """An item with what it runs: a single-iteration scenario."""
    scenario: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ItemAttemptRow:
    """One run of an item: a second attempt follows a first whose worker vanished mid-run."""
    run_id: str
    attempt: int
    worker: str | None  # None: the server's own process
    status: str
    error: str | None
    started_at: float | None
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class CampaignItemDetailRow(CampaignItemRow):
    """An item with every run it had, oldest first (the last is run_id's)."""
    attempts: tuple[ItemAttemptRow, ...]


@dataclass(frozen=True, slots=True)
class CampaignRow:
    campaign_id: str
    name: str
    status: CampaignStatus
    spec: dict[str, Any]  # the campaign file, as validated (service.campaign.CampaignSpec)
    created_at: float
    finished_at: float | None
    study: str | None  # the study it runs (satlab.studies)
    study_quick: bool  # a study's quick smoke run
    owner: str | None  # who started it (None: the command line)
    progress: CampaignProgress


@dataclass(frozen=True, slots=True)
class CampaignDetailRow(CampaignRow):
    items: tuple[CampaignItemDetailRow, ...]  # in item order, without their scenarios


_ITEM_FIELDS = "item_index, configuration, iteration, parameters_json, status, run_id, idempotency_key"


def item_key(campaign_id: str, item_index: int) -> str:
    """A campaign item's idempotency key."""
    return f"{campaign_id}:{item_index}"


def _attempts(db: sqlite3.Connection, campaign_id: str) -> dict[int, list[ItemAttemptRow]]:
    attempts: dict[int, list[ItemAttemptRow]] = {}
    for row in db.execute("SELECT item_index, run_id, attempt, worker, status, error, started_at, finished_at "
                          "FROM runs WHERE campaign_id = ? ORDER BY item_index, created_at, rowid", (campaign_id,)):
        attempts.setdefault(row["item_index"], []).append(ItemAttemptRow(**decoded(row, leave_out=("item_index",))))
    return attempts


def _progress(db: sqlite3.Connection, campaign_id: str) -> CampaignProgress:
    counts = dict(db.execute("SELECT status, count(*) FROM campaign_items WHERE campaign_id = ? "
                             "GROUP BY status", (campaign_id,)).fetchall())
    return CampaignProgress(sum(counts.values()), *(counts.get(status, 0) for status in ITEM_STATUSES))


def _campaign_fields(db: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    columns = decoded(row)
    return {**columns, "study_quick": bool(columns["study_quick"]), "progress": _progress(db, row["campaign_id"])}


def _campaign(db: sqlite3.Connection, row: sqlite3.Row) -> CampaignRow:
    return CampaignRow(**_campaign_fields(db, row))


class CampaignTables(Database):
    """The store's part for campaigns (a mixin of store.Store)."""

    def create_campaign(self, campaign_id: str, name: str, spec: dict[str, Any], items: list[dict[str, Any]],
                        study: str | None = None, study_quick: bool = False) -> None:
        """A running campaign and its items (item_index, configuration,
        iteration, parameters, scenario), all pending; study: the study it runs."""
        with self._write() as db:
            insert(db, "campaigns", {"campaign_id": campaign_id, "name": name, "status": "running",
                                     "spec_json": encode_json(spec), "created_at": time.time(), "study": study,
                                     "study_quick": int(study_quick)})
            db.executemany(
                "INSERT INTO campaign_items (campaign_id, item_index, configuration, iteration, parameters_json, "
                "scenario_json, status, idempotency_key) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)",
                [(campaign_id, item["item_index"], item["configuration"], item["iteration"],
                  encode_json(item["parameters"]), encode_json(item["scenario"]),
                  item_key(campaign_id, item["item_index"])) for item in items])

    def restore_campaign(self, campaign: dict[str, Any], items: list[dict[str, Any]],
                         runs: list[dict[str, Any]]) -> None:
        """A campaign that ran elsewhere (its record: satlab.service.campaign_record),
        whole or not at all: its row, its finished runs with their times, and
        its items, each with its status and run. It is done if no item is
        left to run, else cancelled: `satlab campaign --resume` runs the rest,
        and no server resumes it by itself. KeyError, naming what this store
        holds already, if it has the campaign or one of its runs."""
        campaign_id = campaign["campaign_id"]
        with self._write() as db:
            if db.execute("SELECT 1 FROM campaigns WHERE campaign_id = ?", (campaign_id,)).fetchone() is not None:
                raise KeyError(f"campaign {campaign_id} is in {self.path} already: restore its record into another "
                               "database, or delete the campaign there first")
            taken = [run["run_id"] for run in runs
                     if db.execute("SELECT 1 FROM runs WHERE run_id = ?", (run["run_id"],)).fetchone() is not None]
            if taken:
                raise KeyError(f"run {', '.join(taken[:5])}{' and others' if len(taken) > 5 else ''} of campaign "
                               f"{campaign_id} is in {self.path} already, as another's: restore its record into "
                               "another database")
            left = any(item["status"] == "pending" for item in items)
            insert(db, "campaigns", {"campaign_id": campaign_id, "name": campaign["name"],
                                     "status": "cancelled" if left else "done",
                                     "spec_json": encode_json(campaign["spec"]), "created_at": campaign["created_at"],
                                     "finished_at": campaign["finished_at"] or time.time(),
                                     "study": campaign["study"], "study_quick": int(campaign["study_quick"])})
            for run in runs:
                insert_finished_run(db, run)
            db.executemany(
                "INSERT INTO campaign_items (campaign_id, item_index, configuration, iteration, parameters_json, "
                "scenario_json, status, run_id, idempotency_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(campaign_id, item["item_index"], item["configuration"], item["iteration"],
                  encode_json(item["parameters"]), encode_json(item["scenario"]), item["status"], item["run_id"],
                  item_key(campaign_id, item["item_index"])) for item in items])

    def get_campaign(self, campaign_id: str) -> CampaignDetailRow | None:
        """The campaign, its progress and its items in order (without their
        scenarios: see campaign_items)."""
        with self._read() as db:
            row = db.execute("SELECT * FROM campaigns WHERE campaign_id = ?", (campaign_id,)).fetchone()
            if row is None:
                return None
            items = db.execute(f"SELECT {_ITEM_FIELDS} FROM campaign_items WHERE campaign_id = ? ORDER BY item_index",
                               (campaign_id,)).fetchall()
            attempts = _attempts(db, campaign_id)
            return CampaignDetailRow(**_campaign_fields(db, row), items=tuple(
                CampaignItemDetailRow(**decoded(item), attempts=tuple(attempts.get(item["item_index"], ())))
                for item in items))

    def list_campaigns(self, limit: int = 100, offset: int = 0,
                       owner: str | None = None) -> tuple[list[CampaignRow], int]:
        """A page of campaigns (owner's only, if given), newest first; and how many there are."""
        where, values = ("WHERE owner = ?", (owner,)) if owner is not None else ("", ())
        with self._read() as db:
            count = db.execute(f"SELECT count(*) FROM campaigns {where}", values).fetchone()[0]
            rows = db.execute(f"SELECT * FROM campaigns {where} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?",
                              (*values, limit, offset)).fetchall()
            campaigns = [_campaign(db, row) for row in rows]
        return campaigns, count

    def campaign_items(self, campaign_id: str, status: str | None = None) -> list[CampaignItemWithScenario]:
        """The campaign's items (with status, if given) in item order, with their scenarios."""
        if status is None:
            return self._items(campaign_id)
        return self._items(campaign_id, "status = ?", (status,))

    def unfaithful_items(self, campaign_id: str) -> list[CampaignItemWithScenario]:
        """The campaign's finished items whose run's host did not keep up (its
        fidelity evidence: satlink's or the tunnel's lateness at or above its
        limit), in item order: done ones, and failed ones that carry evidence
        (a run its time limit stopped: its censored time measured the host too)."""
        return self._items(campaign_id, "status IN ('done', 'failed') AND run_id IN "
                                        "(SELECT run_id FROM runs WHERE host_kept_up = 0)")

    def _items(self, campaign_id: str, condition: str = "1", parameters: tuple[Any, ...] = ()
               ) -> list[CampaignItemWithScenario]:
        with self._read() as db:
            rows = db.execute(f"SELECT {_ITEM_FIELDS}, scenario_json FROM campaign_items WHERE campaign_id = ? "
                              f"AND {condition} ORDER BY item_index", (campaign_id, *parameters)).fetchall()
        return [CampaignItemWithScenario(**decoded(row)) for row in rows]

    def pending_items(self, campaign_id: str) -> list[CampaignItemWithScenario]:
        """The items still to run, in item order, with their scenarios."""
        return self.campaign_items(campaign_id, "pending")

    def set_item(self, campaign_id: str, item_index: int, status: str, run_id: str | None = None) -> None:
        """An item's status, and its run when given; a pending item has no run."""
        if status not in ITEM_STATUSES:
            raise ValueError(f"campaign item status must be one of {', '.join(ITEM_STATUSES)}, got {status!r}")
        with self._write() as db:
            updated = db.execute(
                "UPDATE campaign_items SET status = :status, run_id = CASE WHEN :status = 'pending' THEN NULL "
                "ELSE COALESCE(:run_id, run_id) END WHERE campaign_id = :campaign_id AND item_index = :item_index",
                {"status": status, "run_id": run_id, "campaign_id": campaign_id, "item_index": item_index}).rowcount
            if not updated:
                raise KeyError(f"no item {item_index} in campaign {campaign_id!r}")

    def set_campaign_status(self, campaign_id: str, status: str) -> None:
        """done and cancelled set finished_at."""
        if status not in CAMPAIGN_STATUSES:
            raise ValueError(f"campaign status must be one of {', '.join(CAMPAIGN_STATUSES)}, got {status!r}")
        finished = time.time() if status != "running" else None
        with self._write() as db:
            updated = db.execute("UPDATE campaigns SET status = ?, finished_at = ? WHERE campaign_id = ?",
                                 (status, finished, campaign_id)).rowcount
            if not updated:
                raise KeyError(f"no campaign {campaign_id!r}")

    def set_campaign_owner(self, campaign_id: str, owner: str) -> None:
        with self._write() as db:
            db.execute("UPDATE campaigns SET owner = ? WHERE campaign_id = ?", (owner, campaign_id))

    def study_campaigns(self, study: str) -> list[CampaignRow]:
        """The campaigns that ran a study, oldest first."""
        with self._read() as db:
            rows = db.execute("SELECT * FROM campaigns WHERE study = ? ORDER BY created_at, rowid",
                              (study,)).fetchall()
            return [_campaign(db, row) for row in rows]

    def campaigns_with_status(self, status: str) -> list[str]:
        with self._read() as db:
            rows = db.execute("SELECT campaign_id FROM campaigns WHERE status = ? ORDER BY created_at",
                              (status,)).fetchall()
        return [row[0] for row in rows]

    def delete_campaign(self, campaign_id: str) -> None:
        """A finished campaign, its items and its runs with everything they stored, their kept files too."""
        with self._write() as db:
            run_ids = [row[0] for row in db.execute("SELECT run_id FROM runs WHERE campaign_id = ?", (campaign_id,))]
            db.execute("DELETE FROM campaign_items WHERE campaign_id = ?", (campaign_id,))
            db.execute("DELETE FROM runs WHERE campaign_id = ?", (campaign_id,))
            db.execute("DELETE FROM campaigns WHERE campaign_id = ?", (campaign_id,))
        artifacts = RunArtifacts.beside(self.path)
        for run_id in run_ids:
            artifacts.remove(run_id)
