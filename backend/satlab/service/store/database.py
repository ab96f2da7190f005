"""The store's one SQLite connection and its transaction discipline.

One connection, shared by every thread behind a lock; WAL mode so that other
processes (`satlab export` beside a serving API) read while runs write.
Every query runs in a transaction: `_read()` for one consistent snapshot,
`_write()` for changes (BEGIN IMMEDIATE). The tables' parts of the store
(runs.py, samples.py, campaigns.py, classroom.py) are mixins of this class,
so that they share the connection, its lock and this discipline.

Rows come back typed (each part's frozen dataclasses); JSON columns are
decoded and named without `_json`. Times are unix seconds.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from satlab.service.store import schema


def encode_json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def decoded(row: sqlite3.Row, leave_out: tuple[str, ...] = ()) -> dict[str, Any]:
    """A row's columns by name: JSON columns decoded and named without their suffix."""
    result = {}
    for key in row.keys():  # noqa: SIM118 (sqlite3.Row iterates over values)
        if key in leave_out:
            continue
        if key.endswith("_json"):
            result[key.removesuffix("_json")] = None if row[key] is None else json.loads(row[key])
        else:
            result[key] = row[key]
    return result


def insert(db: sqlite3.Connection, table: str, row: Mapping[str, Any]) -> None:
    columns = ", ".join(row)
    db.execute(f"INSERT INTO {table} ({columns}) VALUES ({', '.join('?' * len(row))})", tuple(row.values()))


def require_run(db: sqlite3.Connection, run_id: str) -> None:
    if db.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone() is None:
        raise KeyError(f"no run {run_id!r}")


class Database:
    """The database at path (created with its parent directories, migrated
    to this satlab's schema)."""

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

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        with self._lock:
            version: int = self._db.execute("PRAGMA user_version").fetchone()[0]
            return version

    def _migrate(self) -> None:
        migrations = schema.MIGRATIONS
        if self.schema_version == len(migrations):
            return
        for version, script in enumerate(migrations, start=1):
            with self._write() as db:
                # Read again under the write lock: another process may be migrating the same file.
                applied = db.execute("PRAGMA user_version").fetchone()[0]
                if applied > len(migrations):
                    raise RuntimeError(f"{self.path}: the database has schema version {applied}, newer than this "
                                       f"satlab knows ({len(migrations)}); upgrade satlab or use another database")
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

    def database_bytes(self) -> int:
        """What the database's pages in use take (freed pages are reused before the file grows)."""
        with self._read() as db:
            pages, free, size = (db.execute(f"PRAGMA {name}").fetchone()[0]
                                 for name in ("page_count", "freelist_count", "page_size"))
        return int((pages - free) * size)
