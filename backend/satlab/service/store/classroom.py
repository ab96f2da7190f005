"""The class (satlab.api.auth): its students, the audit trail of every
state-changing action, the quotas the instructor set, and the class's state
(the instructor token's hash, the session signing key, the class code, the
presets students may run), kept as JSON by key.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from satlab.service.store.database import Database, decoded, encode_json, insert


@dataclass(frozen=True, slots=True)
class StudentRow:
    student_id: str
    name: str
    joined_at: float
    runs: int  # runs they started


@dataclass(frozen=True, slots=True)
class AuditRow:
    audit_id: int
    at: float
    actor: str  # "instructor", "local", "anonymous" or "student <name> (<id>)"
    action: str  # "<METHOD> <path>", and what changed
    status: int  # the HTTP status of the answer
    address: str | None  # the client's


_STUDENTS = "SELECT students.*, (SELECT count(*) FROM runs WHERE owner = student_id) AS runs FROM students"


class ClassroomTables(Database):
    """The store's part for the class (a mixin of store.Store)."""

    def add_student(self, student_id: str, name: str) -> None:
        with self._write() as db:
            insert(db, "students", {"student_id": student_id, "name": name, "joined_at": time.time()})

    def get_student(self, student_id: str) -> StudentRow | None:
        with self._read() as db:
            row = db.execute(f"{_STUDENTS} WHERE student_id = ?", (student_id,)).fetchone()
        return None if row is None else StudentRow(**decoded(row))

    def list_students(self) -> list[StudentRow]:
        """In the order they joined."""
        with self._read() as db:
            rows = db.execute(f"{_STUDENTS} ORDER BY joined_at").fetchall()
        return [StudentRow(**decoded(row)) for row in rows]

    def add_audit(self, actor: str, action: str, status: int, address: str | None) -> None:
        with self._write() as db:
            insert(db, "audit", {"at": time.time(), "actor": actor, "action": action, "status": status,
                                 "address": address})

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
