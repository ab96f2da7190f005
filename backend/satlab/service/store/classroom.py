"""The class (satlab.api.auth): its students, the audit trail of every
state-changing action, the quotas the instructor set, and the class's state
(the instructor token's hash, the class code, the presets students may run),
kept as JSON by key.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from satlab.service.store.database import Database, decoded, encode_json, insert


@dataclass(frozen=True, slots=True)
class StudentRow:
    student_id: str
    name: str
    joined_at: float
    key: str  # what signing in again with their name needs (the browser keeps it; the instructor sees it)
    runs: int  # runs they started


@dataclass(frozen=True, slots=True)
class AuditRow:
    audit_id: int
    at: float
    actor: str  # "instructor", "local", "anonymous" or "student <name> (<id>)"
    action: str  # "<METHOD> <path>", and what changed
    status: int  # the HTTP status of the answer
    address: str | None  # the client's


_STUDENTS = ("SELECT student_id, name, joined_at, key, (SELECT count(*) FROM runs WHERE owner = student_id) AS runs "
             "FROM students")


class ClassroomTables(Database):
    """The store's part for the class (a mixin of store.Store)."""

    def add_student(self, student_id: str, name: str, name_key: str, key: str) -> bool:
        """False, and nothing added, if another student has name_key already."""
        try:
            with self._write() as db:
                insert(db, "students", {"student_id": student_id, "name": name, "name_key": name_key, "key": key,
                                        "joined_at": time.time()})
        except sqlite3.IntegrityError:
            return False
        return True

    def get_student(self, student_id: str) -> StudentRow | None:
        with self._read() as db:
            row = db.execute(f"{_STUDENTS} WHERE student_id = ?", (student_id,)).fetchone()
        return None if row is None else StudentRow(**decoded(row))

    def find_student(self, name_key: str) -> StudentRow | None:
        """The student whose name has this key (see add_student)."""
        with self._read() as db:
            row = db.execute(f"{_STUDENTS} WHERE name_key = ?", (name_key,)).fetchone()
        return None if row is None else StudentRow(**decoded(row))

    def list_students(self) -> list[StudentRow]:
        """In the order they joined."""
        with self._read() as db:
            rows = db.execute(f"{_STUDENTS} ORDER BY joined_at").fetchall()
        return [StudentRow(**decoded(row)) for row in rows]

    def count_students(self) -> int:
        with self._read() as db:
            count: int = db.execute("SELECT count(*) FROM students").fetchone()[0]
        return count

    def rename_student(self, student_id: str, name: str, name_key: str) -> bool:
        """False, and nothing changed, if another student has name_key; KeyError for an unknown student."""
        try:
            with self._write() as db:
                if not db.execute("UPDATE students SET name = ?, name_key = ? WHERE student_id = ?",
                                  (name, name_key, student_id)).rowcount:
                    raise KeyError(f"no student {student_id!r}")
        except sqlite3.IntegrityError:
            return False
        return True

    def set_student_key(self, student_id: str, key: str) -> None:
        with self._write() as db:
            if not db.execute("UPDATE students SET key = ? WHERE student_id = ?", (key, student_id)).rowcount:
                raise KeyError(f"no student {student_id!r}")

    def remove_student(self, student_id: str) -> bool:
        """The student and their sessions (their runs stay, as theirs); False if there is no such student."""
        with self._write() as db:
            return bool(db.execute("DELETE FROM students WHERE student_id = ?", (student_id,)).rowcount)

    def add_audit(self, actor: str, action: str, status: int, address: str | None, keep_rows: int) -> None:
        """An entry; then only the newest keep_rows entries stay."""
        with self._write() as db:
            insert(db, "audit", {"at": time.time(), "actor": actor, "action": action, "status": status,
                                 "address": address})
            _keep_newest(db, keep_rows)

    def prune_audit(self, keep_rows: int) -> int:
        """Drop all but the newest keep_rows entries; how many were dropped."""
        with self._write() as db:
            return _keep_newest(db, keep_rows)

    def list_audit(self, limit: int = 100, offset: int = 0) -> tuple[list[AuditRow], int]:
        """Newest first, and how many entries there are."""
        with self._read() as db:
            count = db.execute("SELECT count(*) FROM audit").fetchone()[0]
            rows = db.execute("SELECT * FROM audit ORDER BY audit_id DESC LIMIT ? OFFSET ?",
                              (limit, offset)).fetchall()
        return [AuditRow(**decoded(row)) for row in rows], count

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
                db.execute("INSERT INTO class_state (key, value_json) VALUES (?, ?) ON CONFLICT (key) "
                           "DO UPDATE SET value_json = excluded.value_json", (key, encode_json(value)))


def _keep_newest(db: sqlite3.Connection, rows: int) -> int:
    # audit_id is the rowid: newer entries have larger ones, and the range delete walks the table's own b-tree.
    deleted: int = db.execute("DELETE FROM audit WHERE audit_id <= (SELECT max(audit_id) FROM audit) - ?",
                              (rows,)).rowcount
    return deleted
