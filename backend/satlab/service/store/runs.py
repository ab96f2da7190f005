"""The SQLite store: runs with their provenance, live samples, per-iteration
and per-flow summaries, campaigns and their items.

One connection, shared by every thread behind a lock; WAL mode so that other
processes (`satlab export` beside a serving API) read while runs write.
Rows come back as plain dicts: JSON columns decoded, named without `_json`.
Times are unix seconds.

Migrations: `MIGRATIONS` is an ordered tuple of SQL scripts; the database's
`PRAGMA user_version` counts those applied, and each one runs in its own
transaction together with the bump of that count. To change the schema,
append a script; never edit or reorder one that has shipped (databases
out there have applied it, and will not apply it again). Scripts are literal
SQL, not generated from the constants below, so that changing the code never
changes what an old migration did.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE campaigns (
        campaign_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'cancelled')),
        spec_json TEXT NOT NULL,
        created_at REAL NOT NULL,
        finished_at REAL
    );
    CREATE TABLE runs (
        run_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
        error TEXT,
        scenario_json TEXT NOT NULL,
        provenance_json TEXT NOT NULL,
        result_json TEXT,
        campaign_id TEXT REFERENCES campaigns (campaign_id),
        item_index INTEGER,
        created_at REAL NOT NULL,
        started_at REAL,
        finished_at REAL
    );
    CREATE INDEX runs_by_creation ON runs (created_at);
    CREATE INDEX runs_by_campaign ON runs (campaign_id, item_index);
    CREATE TABLE campaign_items (
        campaign_id TEXT NOT NULL REFERENCES campaigns (campaign_id) ON DELETE CASCADE,
        item_index INTEGER NOT NULL,
        configuration INTEGER NOT NULL,
        iteration INTEGER NOT NULL,
        parameters_json TEXT NOT NULL,
        scenario_json TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'failed', 'cancelled')),
        run_id TEXT REFERENCES runs (run_id),
        PRIMARY KEY (campaign_id, item_index)
    );
    CREATE TABLE iterations (
        run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        iteration INTEGER NOT NULL,
        jain_index REAL,
        fec_json TEXT,
        link_json TEXT,
        lan_json TEXT,
        seeds_json TEXT,
        plan_json TEXT,
        PRIMARY KEY (run_id, iteration)
    );
    CREATE TABLE flow_summaries (
        run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        iteration INTEGER NOT NULL,
        flow INTEGER NOT NULL,
        flow_group INTEGER,
        transport TEXT,
        cc TEXT,
        direction TEXT,
        start_s REAL,
        bytes INTEGER,
        download_time_s REAL,
        goodput_mbps REAL,
        retransmissions INTEGER,
        mean_rtt_ms REAL,
        power_mbps_per_s REAL,
        error TEXT,
        details_json TEXT NOT NULL,
        PRIMARY KEY (run_id, iteration, flow)
    );
    CREATE TABLE flow_samples (
        run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        iteration INTEGER NOT NULL,
        t_s REAL NOT NULL,
        flow INTEGER NOT NULL,
        bytes_acked INTEGER,
        goodput_mbps REAL,
        cwnd_bytes INTEGER,
        rtt_ms REAL,
        retransmissions INTEGER,
        delivery_rate_mbps REAL
    );
    CREATE INDEX flow_samples_by_run ON flow_samples (run_id, iteration, t_s);
    CREATE TABLE link_samples (
        run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        iteration INTEGER NOT NULL,
        t_s REAL NOT NULL,
        link TEXT NOT NULL CHECK (link IN ('satellite', 'lan')),
        direction TEXT NOT NULL CHECK (direction IN ('forward', 'return', 'down', 'up')),
        queue_bytes INTEGER,
        in_flight_packets INTEGER,
        packets_in INTEGER,
        bytes_in INTEGER,
        packets_out INTEGER,
        bytes_out INTEGER,
        drops_buffer INTEGER,
        drops_channel INTEGER,
        drops_overflow INTEGER,
        drops INTEGER,
        lateness_p99_ms REAL,
        lateness_max_ms REAL
    );
    CREATE INDEX link_samples_by_run ON link_samples (run_id, iteration, t_s);
    CREATE TABLE tunnel_samples (
        run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        iteration INTEGER NOT NULL,
        t_s REAL NOT NULL,
        direction TEXT NOT NULL CHECK (direction IN ('forward', 'return')),
        tx_plain INTEGER,
        tx_sources INTEGER,
        tx_repairs INTEGER,
        tx_flush_repairs INTEGER,
        rx_plain INTEGER,
        rx_sources INTEGER,
        rx_repairs INTEGER,
        rx_lost INTEGER,
        rx_recovered INTEGER,
        rx_unrecovered INTEGER,
        rx_malformed INTEGER,
        rx_decoding_delay_p99_ms REAL,
        rx_decoding_delay_max_ms REAL
    );
    CREATE INDEX tunnel_samples_by_run ON tunnel_samples (run_id, iteration, t_s);
    """,
    # A study run is a campaign: which study, and whether it was a quick smoke run.
    """
    ALTER TABLE campaigns ADD COLUMN study TEXT;
    ALTER TABLE campaigns ADD COLUMN study_quick INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX campaigns_by_study ON campaigns (study, created_at);
    """,
    # Roles: who started a run or campaign (NULL: the command line), runs the
    # instructor shares with the class, the students, the audit trail of every
    # state-changing action, and the class's secrets and settings (satlab.api.auth).
    """
    ALTER TABLE runs ADD COLUMN owner TEXT;
    ALTER TABLE runs ADD COLUMN shared INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX runs_by_owner ON runs (owner, created_at);
    ALTER TABLE campaigns ADD COLUMN owner TEXT;
    CREATE TABLE students (
        student_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        joined_at REAL NOT NULL
    );
    CREATE TABLE audit (
        audit_id INTEGER PRIMARY KEY,
        at REAL NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        status INTEGER NOT NULL,
        address TEXT
    );
    CREATE TABLE class_state (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL
    );
    """,
    # Quotas the instructor set while the server ran (PUT /api/class/quotas):
    # each replaces its SATLAB_LIMIT_<NAME> value, within its ceiling.
    """
    CREATE TABLE quotas (
        name TEXT PRIMARY KEY,
        value INTEGER NOT NULL CHECK (value >= 0),
        set_at REAL NOT NULL
    );
    """,
)

RUN_STATUSES = ("queued", "running", "done", "failed", "cancelled")
ITEM_STATUSES = ("pending", "running", "done", "failed", "cancelled")
CAMPAIGN_STATUSES = ("running", "done", "cancelled")
FINISHED = ("done", "failed", "cancelled")

FLOW_SAMPLE_FIELDS = ("bytes_acked", "goodput_mbps", "cwnd_bytes", "rtt_ms", "retransmissions",
                      "delivery_rate_mbps")
# satlink's per-direction counters, by the names it prints (codec/README.md, Tools).
LINK_COUNTERS = ("queue_bytes", "in_flight_packets", "packets_in", "bytes_in", "packets_out", "bytes_out",
                 "drops_buffer", "drops_channel", "drops_overflow")
# (sample key, link column, satlink side -> direction). The satellite satlink
# runs from the terminal (a) to the gateway (b); the LAN one from the client
# (a) to the terminal (b).
LINKS = (("link", "satellite", {"ba": "forward", "ab": "return"}),
         ("lan", "lan", {"ba": "down", "ab": "up"}))
# swf-tunnel's counters, by the names it prints: tx of the sending endpoint, rx of the receiving one.
TUNNEL_TX = ("plain", "sources", "repairs", "flush_repairs")
TUNNEL_RX = ("plain", "sources", "repairs", "lost", "recovered", "unrecovered", "malformed")
FLOW_SUMMARY_FIELDS = ("transport", "cc", "direction", "start_s", "bytes", "download_time_s", "goodput_mbps",
                       "retransmissions", "mean_rtt_ms", "power_mbps_per_s", "error")
# The summary's "group" is a keyword in SQL: it is stored as flow_group.
_FLOW_SUMMARY_SELECT = ("SELECT iteration, flow, flow_group AS \"group\", " + ", ".join(FLOW_SUMMARY_FIELDS)
                        + ", details_json FROM flow_summaries")
_RUN_SMALL_FIELDS = "run_id, name, status, error, campaign_id, item_index, created_at, started_at, finished_at"
# A run its owner may see: their own, those shared with the class, those of their campaigns.
_VISIBLE = ("(owner = ? OR shared = 1 OR campaign_id IN (SELECT campaign_id FROM campaigns WHERE owner = ?))")


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def _row(row: sqlite3.Row) -> dict[str, Any]:
    """A row as a dict: JSON columns decoded and named without their suffix."""
    result = {}
    for key in row.keys():  # noqa: SIM118 (sqlite3.Row iterates over values)
        if key.endswith("_json"):
            result[key.removesuffix("_json")] = None if row[key] is None else json.loads(row[key])
        else:
            result[key] = row[key]
    return result


def _percentile(histogram: dict[str, Any] | None, key: str) -> float | None:
    return None if histogram is None else histogram.get(key)


def _insert(db: sqlite3.Connection, table: str, row: dict[str, Any]) -> None:
    columns = ", ".join(row)
    db.execute(f"INSERT INTO {table} ({columns}) VALUES ({', '.join('?' * len(row))})", tuple(row.values()))


SampleRows = dict[str, list[dict[str, Any]]]
# sample_rows' kinds -> their tables; GET .../samples and the live stream use the same kinds.
SAMPLE_TABLES = {"flows": "flow_samples", "links": "link_samples", "tunnel": "tunnel_samples"}


def _all_drops(counters: dict[str, Any]) -> int | None:
    """Every packet the link dropped: netem counts them together, satlink by cause."""
    if "drops" in counters:
        return int(counters["drops"])
    causes = [counters[name] for name in ("drops_buffer", "drops_channel", "drops_overflow") if name in counters]
    return sum(causes) if causes else None


def sample_rows(event: dict[str, Any]) -> SampleRows:
    """One engine "sample" event as the rows the store keeps (without run_id):
    per flow; per link and direction (satlink's a->b / b->a named forward,
    return, up, down); per tunnel direction (the sending endpoint's tx and
    the receiving one's rx counters). The live stream sends these same rows,
    so a run looks the same live and stored. Keys the store does not know
    are ignored."""
    at = {"iteration": event["iteration"], "t_s": event["t_s"]}
    flows = [{**at, "flow": flow["flow"], **{name: flow.get(name) for name in FLOW_SAMPLE_FIELDS}}
             for flow in event.get("flows") or ()]
    links = []
    for event_key, link, directions in LINKS:
        stats = event.get(event_key)
        for side, direction in directions.items():
            counters = (stats or {}).get(side)
            if counters is None:
                continue
            lateness = counters.get("lateness_ms")
            links.append({**at, "link": link, "direction": direction,
                          **{name: counters.get(name) for name in LINK_COUNTERS},
                          "drops": _all_drops(counters),
                          "lateness_p99_ms": _percentile(lateness, "p99"),
                          "lateness_max_ms": _percentile(lateness, "max")})
    tunnel = []
    endpoints: list[dict[str, Any] | None] = event.get("tunnel") or []
    if len(endpoints) == 2:
        terminal, gateway = endpoints
        # The terminal's endpoint receives the forward direction, the gateway's the return.
        for direction, sender, receiver in (("forward", gateway, terminal), ("return", terminal, gateway)):
            if sender is None and receiver is None:
                continue
            tx = (sender or {}).get("tx") or {}
            rx = (receiver or {}).get("rx") or {}
            delay = rx.get("decoding_delay_ms")
            tunnel.append({**at, "direction": direction,
                           **{f"tx_{name}": tx.get(name) for name in TUNNEL_TX},
                           **{f"rx_{name}": rx.get(name) for name in TUNNEL_RX},
                           "rx_decoding_delay_p99_ms": _percentile(delay, "p99"),
                           "rx_decoding_delay_max_ms": _percentile(delay, "max")})
    return {"flows": flows, "links": links, "tunnel": tunnel}


class Store:
    """The database at path (created with its parent directories)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Transactions are explicit (BEGIN ... COMMIT in _write/_read): no implicit ones, and
        # executescript does not commit the migration's transaction half-way.
        self._db = sqlite3.connect(self.path, check_same_thread=False, autocommit=True, timeout=10)
        self._db.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode = WAL")
        # In WAL mode NORMAL never corrupts; it may lose the last commits on power loss, and it
        # spares an fsync per sample (10 per second and run).
        self._db.execute("PRAGMA synchronous = NORMAL")
        self._db.execute("PRAGMA foreign_keys = ON")
        try:
            self._migrate()
        except BaseException:
            self._db.close()
            raise

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        with self._lock:
            version: int = self._db.execute("PRAGMA user_version").fetchone()[0]
            return version

    def _migrate(self) -> None:
        if self.schema_version == len(MIGRATIONS):
            return
        for version, script in enumerate(MIGRATIONS, start=1):
            with self._write() as db:
                # Read again under the write lock: another process may be migrating the same file.
                applied = db.execute("PRAGMA user_version").fetchone()[0]
                if applied > len(MIGRATIONS):
                    raise RuntimeError(f"{self.path}: the database has schema version {applied}, newer than this "
                                       f"satlab knows ({len(MIGRATIONS)}); upgrade satlab or use another database")
                if applied < version:
                    db.executescript(script)
                    db.execute(f"PRAGMA user_version = {version}")

    @contextlib.contextmanager
    def _transaction(self, begin: str) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute(begin)
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _write(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        # IMMEDIATE takes the write lock up front: a deferred transaction that
        # upgrades after another process wrote fails instead of waiting.
        return self._transaction("BEGIN IMMEDIATE")

    def _read(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        # One snapshot for queries that belong together (a page of runs and their flows).
        return self._transaction("BEGIN")

    @staticmethod
    def _require_run(db: sqlite3.Connection, run_id: str) -> None:
        if db.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone() is None:
            raise KeyError(f"no run {run_id!r}")

    # Runs

    def create_run(self, run_id: str, scenario: dict[str, Any], provenance: dict[str, Any],
                   campaign_id: str | None = None, item_index: int | None = None) -> None:
        with self._write() as db:
            _insert(db, "runs", {"run_id": run_id, "name": scenario["name"], "status": "queued",
                                 "scenario_json": _json(scenario), "provenance_json": _json(provenance),
                                 "campaign_id": campaign_id, "item_index": item_index, "created_at": time.time()})

    def set_run_status(self, run_id: str, status: str, error: str | None = None) -> None:
        """running sets started_at; done, failed and cancelled set finished_at."""
        if status not in RUN_STATUSES:
            raise ValueError(f"run status must be one of {', '.join(RUN_STATUSES)}, got {status!r}")
        started = time.time() if status == "running" else None
        finished = time.time() if status in FINISHED else None
        with self._write() as db:
            self._require_run(db, run_id)
            db.execute("UPDATE runs SET status = ?, error = ?, started_at = COALESCE(?, started_at), "
                       "finished_at = COALESCE(?, finished_at) WHERE run_id = ?",
                       (status, error, started, finished, run_id))

    def add_sample(self, event: dict[str, Any]) -> SampleRows:
        """Store one engine "sample" event as rows (see sample_rows), and return them."""
        run_id = event["run_id"]
        rows = sample_rows(event)
        with self._write() as db:
            self._require_run(db, run_id)
            for kind, table in SAMPLE_TABLES.items():
                for row in rows[kind]:
                    _insert(db, table, {"run_id": run_id, **row})
        return rows

    def add_iteration(self, run_id: str, outcome: dict[str, Any]) -> None:
        """One iteration's outcome (what the engine's _Iteration.run returns)
        and its per-flow summaries; adding the same iteration again replaces it."""
        with self._write() as db:
            self._require_run(db, run_id)
            self._add_iteration(db, run_id, outcome)

    @staticmethod
    def _add_iteration(db: sqlite3.Connection, run_id: str, outcome: dict[str, Any]) -> None:
        iteration = outcome["iteration"]
        db.execute("DELETE FROM flow_summaries WHERE run_id = ? AND iteration = ?", (run_id, iteration))
        db.execute("DELETE FROM iterations WHERE run_id = ? AND iteration = ?", (run_id, iteration))
        _insert(db, "iterations", {"run_id": run_id, "iteration": iteration,
                                   "jain_index": outcome.get("jain_index"),
                                   **{f"{name}_json": _json(outcome.get(name))
                                      for name in ("fec", "link", "lan", "seeds", "plan")}})
        known = {"iteration", "flow", "group", *FLOW_SUMMARY_FIELDS}
        for row in outcome.get("flows") or ():
            _insert(db, "flow_summaries", {"run_id": run_id, "iteration": iteration, "flow": row["flow"],
                                           "flow_group": row.get("group"),
                                           **{name: row.get(name) for name in FLOW_SUMMARY_FIELDS},
                                           "details_json": _json({k: v for k, v in row.items() if k not in known})})

    def finish_run(self, run_id: str, result: dict[str, Any]) -> None:
        """The engine's result (RunResult.to_dict()), kept whole as result: its
        status and error, and its iterations (added as add_iteration does)."""
        status = result["status"]
        if status not in FINISHED:
            raise ValueError(f"a finished run's status must be one of {', '.join(FINISHED)}, got {status!r}")
        with self._write() as db:
            self._require_run(db, run_id)
            for outcome in result.get("iterations") or ():
                self._add_iteration(db, run_id, outcome)
            db.execute("UPDATE runs SET status = ?, error = ?, result_json = ?, finished_at = ? WHERE run_id = ?",
                       (status, result.get("error"), _json(result), time.time(), run_id))

    def get_run(self, run_id: str) -> dict[str, Any] | None:
        """Every column of the run, and its per-flow summaries as "flows"."""
        with self._read() as db:
            row = db.execute("SELECT * FROM runs WHERE run_id = ?", (run_id,)).fetchone()
            if row is None:
                return None
            return {**_row(row), "flows": self._flow_summaries(db, run_id)}

    def list_runs(self, status: str | None = None, campaign_id: str | None = None,
                  limit: int = 100, offset: int = 0, visible_to: str | None = None) -> tuple[list[dict[str, Any]], int]:
        """A page of runs, newest first, each with its per-flow summaries as
        "flows" (not its scenario, result or samples); and how many match in all.
        visible_to: only the runs that owner may see (see run_visible_to)."""
        filters = (("status", status), ("campaign_id", campaign_id))
        conditions: list[tuple[str, tuple[str, ...]]] = [(f"{column} = ?", (value,)) for column, value in filters
                                                         if value is not None]
        if visible_to is not None:
            conditions.append((_VISIBLE, (visible_to, visible_to)))
        where = " WHERE " + " AND ".join(condition for condition, _ in conditions) if conditions else ""
        values = tuple(value for _, values in conditions for value in values)
        with self._read() as db:
            count = db.execute(f"SELECT count(*) FROM runs{where}", values).fetchone()[0]
            rows = db.execute(f"SELECT {_RUN_SMALL_FIELDS} FROM runs{where} ORDER BY created_at DESC, rowid DESC "
                              "LIMIT ? OFFSET ?", (*values, limit, offset)).fetchall()
            runs = [{**_row(row), "flows": self._flow_summaries(db, row["run_id"])} for row in rows]
        return runs, count

    @staticmethod
    def _flow_summaries(db: sqlite3.Connection, run_id: str) -> list[dict[str, Any]]:
        rows = db.execute(f"{_FLOW_SUMMARY_SELECT} WHERE run_id = ? ORDER BY iteration, flow", (run_id,))
        return [_row(row) for row in rows]

    def flow_summaries(self, run_id: str) -> list[dict[str, Any]]:
        """Per iteration and flow, the summary.flow_summary fields; the
        transport-specific ones in "details"."""
        with self._read() as db:
            return self._flow_summaries(db, run_id)

    def _select(self, table: str, run_id: str, order: str) -> list[dict[str, Any]]:
        with self._read() as db:
            rows = db.execute(f"SELECT * FROM {table} WHERE run_id = ? ORDER BY {order}", (run_id,)).fetchall()
        return [{key: value for key, value in _row(row).items() if key != "run_id"} for row in rows]

    def flow_samples(self, run_id: str) -> list[dict[str, Any]]:
        return self._select("flow_samples", run_id, "iteration, t_s, flow")

    def link_samples(self, run_id: str) -> list[dict[str, Any]]:
        return self._select("link_samples", run_id, "iteration, t_s, link DESC, direction")

    def tunnel_samples(self, run_id: str) -> list[dict[str, Any]]:
        return self._select("tunnel_samples", run_id, "iteration, t_s, direction")

    def iterations(self, run_id: str) -> list[dict[str, Any]]:
        return self._select("iterations", run_id, "iteration")

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

    # Campaigns

    def create_campaign(self, campaign_id: str, name: str, spec: dict[str, Any], items: list[dict[str, Any]],
                        study: str | None = None, study_quick: bool = False) -> None:
        """A running campaign and its items (item_index, configuration,
        iteration, parameters, scenario), all pending; study: the study it runs."""
        with self._write() as db:
            _insert(db, "campaigns", {"campaign_id": campaign_id, "name": name, "status": "running",
                                      "spec_json": _json(spec), "created_at": time.time(), "study": study,
                                      "study_quick": int(study_quick)})
            db.executemany(
                "INSERT INTO campaign_items (campaign_id, item_index, configuration, iteration, parameters_json, "
                "scenario_json, status) VALUES (?, ?, ?, ?, ?, ?, 'pending')",
                [(campaign_id, item["item_index"], item["configuration"], item["iteration"],
                  _json(item["parameters"]), _json(item["scenario"])) for item in items])

    @staticmethod
    def _progress(db: sqlite3.Connection, campaign_id: str) -> dict[str, int]:
        counts = dict(db.execute("SELECT status, count(*) FROM campaign_items WHERE campaign_id = ? "
                                 "GROUP BY status", (campaign_id,)).fetchall())
        return {"total": sum(counts.values()), **{status: counts.get(status, 0) for status in ITEM_STATUSES}}

    def get_campaign(self, campaign_id: str) -> dict[str, Any] | None:
        """The campaign, its "progress" (item counts by status) and its
        "items" in order (without their scenarios: see pending_items)."""
        with self._read() as db:
            row = db.execute("SELECT * FROM campaigns WHERE campaign_id = ?", (campaign_id,)).fetchone()
            if row is None:
                return None
            items = db.execute("SELECT item_index, configuration, iteration, parameters_json, status, run_id "
                               "FROM campaign_items WHERE campaign_id = ? ORDER BY item_index", (campaign_id,))
            return {**_row(row), "progress": self._progress(db, campaign_id), "items": [_row(item) for item in items]}

    def list_campaigns(self, limit: int = 100, offset: int = 0,
                       owner: str | None = None) -> tuple[list[dict[str, Any]], int]:
        """A page of campaigns (owner's only, if given), newest first, each with
        its "progress"; and how many there are."""
        where, values = ("WHERE owner = ?", (owner,)) if owner is not None else ("", ())
        with self._read() as db:
            count = db.execute(f"SELECT count(*) FROM campaigns {where}", values).fetchone()[0]
            rows = db.execute(f"SELECT * FROM campaigns {where} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?",
                              (*values, limit, offset)).fetchall()
            campaigns = [{**_row(row), "progress": self._progress(db, row["campaign_id"])} for row in rows]
        return campaigns, count

    def campaign_items(self, campaign_id: str, status: str | None = None) -> list[dict[str, Any]]:
        """The campaign's items (with status, if given) in item order, with their scenarios."""
        condition = " AND status = ?" if status is not None else ""
        with self._read() as db:
            rows = db.execute(f"SELECT * FROM campaign_items WHERE campaign_id = ?{condition} ORDER BY item_index",
                              (campaign_id, *([status] if status is not None else []))).fetchall()
        return [_row(row) for row in rows]

    def pending_items(self, campaign_id: str) -> list[dict[str, Any]]:
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

    def study_campaigns(self, study: str) -> list[dict[str, Any]]:
        """The campaigns that ran a study, oldest first, each with its "progress"."""
        with self._read() as db:
            rows = db.execute("SELECT * FROM campaigns WHERE study = ? ORDER BY created_at, rowid",
                              (study,)).fetchall()
            return [{**_row(row), "progress": self._progress(db, row["campaign_id"])} for row in rows]

    def campaigns_with_status(self, status: str) -> list[str]:
        with self._read() as db:
            rows = db.execute("SELECT campaign_id FROM campaigns WHERE status = ? ORDER BY created_at",
                              (status,)).fetchall()
        return [row[0] for row in rows]

    # Roles (satlab.api.auth): owners, sharing, students, the audit trail, the class's state

    def set_owner(self, table: str, key: str, owner: str) -> None:
        """Who started run or campaign `key` (table: runs or campaigns)."""
        column = {"runs": "run_id", "campaigns": "campaign_id"}[table]
        with self._write() as db:
            db.execute(f"UPDATE {table} SET owner = ? WHERE {column} = ?", (owner, key))

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

    def delete_run(self, run_id: str) -> None:
        """A finished run with everything it stored; a campaign item that ran it forgets it."""
        with self._write() as db:
            db.execute("UPDATE campaign_items SET run_id = NULL WHERE run_id = ?", (run_id,))
            db.execute("DELETE FROM runs WHERE run_id = ?", (run_id,))

    def delete_campaign(self, campaign_id: str) -> None:
        """A finished campaign, its items and its runs with everything they stored."""
        with self._write() as db:
            db.execute("DELETE FROM campaign_items WHERE campaign_id = ?", (campaign_id,))
            db.execute("DELETE FROM runs WHERE campaign_id = ?", (campaign_id,))
            db.execute("DELETE FROM campaigns WHERE campaign_id = ?", (campaign_id,))

    def database_bytes(self) -> int:
        """What the database's pages in use take (freed pages are reused before the file grows)."""
        with self._read() as db:
            pages, free, size = (db.execute(f"PRAGMA {name}").fetchone()[0]
                                 for name in ("page_count", "freelist_count", "page_size"))
        return int((pages - free) * size)

    def prune_samples(self, finished_before: float) -> int:
        """Drop the samples of runs finished before then (their summaries stay); how many runs lost some."""
        with self._write() as db:
            runs = [row[0] for row in db.execute(
                "SELECT run_id FROM runs WHERE finished_at < ? AND (EXISTS (SELECT 1 FROM flow_samples f WHERE "
                "f.run_id = runs.run_id) OR EXISTS (SELECT 1 FROM link_samples l WHERE l.run_id = runs.run_id) "
                "OR EXISTS (SELECT 1 FROM tunnel_samples t WHERE t.run_id = runs.run_id))", (finished_before,))]
            for table in SAMPLE_TABLES.values():
                db.executemany(f"DELETE FROM {table} WHERE run_id = ?", [(run_id,) for run_id in runs])
        return len(runs)

    def add_student(self, student_id: str, name: str) -> None:
        with self._write() as db:
            _insert(db, "students", {"student_id": student_id, "name": name, "joined_at": time.time()})

    def get_student(self, student_id: str) -> dict[str, Any] | None:
        with self._read() as db:
            row = db.execute("SELECT * FROM students WHERE student_id = ?", (student_id,)).fetchone()
        return None if row is None else _row(row)

    def list_students(self) -> list[dict[str, Any]]:
        """Each student with how many runs they started."""
        with self._read() as db:
            rows = db.execute("SELECT students.*, (SELECT count(*) FROM runs WHERE owner = student_id) AS runs "
                              "FROM students ORDER BY joined_at").fetchall()
        return [_row(row) for row in rows]

    def add_audit(self, actor: str, action: str, status: int, address: str | None) -> None:
        with self._write() as db:
            _insert(db, "audit", {"at": time.time(), "actor": actor, "action": action, "status": status,
                                  "address": address})

    def list_audit(self, limit: int = 100, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
        """Newest first, and how many entries there are."""
        with self._read() as db:
            count = db.execute("SELECT count(*) FROM audit").fetchone()[0]
            rows = db.execute("SELECT * FROM audit ORDER BY audit_id DESC LIMIT ? OFFSET ?",
                              (limit, offset)).fetchall()
        return [_row(row) for row in rows], count

    def quotas(self) -> dict[str, int]:
        """The quotas the instructor set, by name."""
        with self._read() as db:
            return {row[0]: row[1] for row in db.execute("SELECT name, value FROM quotas")}

    def set_quotas(self, values: dict[str, int | None]) -> None:
        """Set each quota of values; None forgets one (its environment's value applies again)."""
        with self._write() as db:
            for name, value in values.items():
                if value is None:
                    db.execute("DELETE FROM quotas WHERE name = ?", (name,))
                else:
                    db.execute("INSERT INTO quotas (name, value, set_at) VALUES (?, ?, ?) ON CONFLICT (name) "
                               "DO UPDATE SET value = excluded.value, set_at = excluded.set_at",
                               (name, value, time.time()))

    def get_state(self, key: str) -> Any:
        with self._read() as db:
            row = db.execute("SELECT value_json FROM class_state WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def set_state(self, key: str, value: Any) -> None:
        """None forgets the key (get_state gives None for a key never set)."""
        with self._write() as db:
            if value is None:
                db.execute("DELETE FROM class_state WHERE key = ?", (key,))
            else:
                db.execute("INSERT INTO class_state (key, value_json) VALUES (?, ?) "
                           "ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json", (key, _json(value)))
