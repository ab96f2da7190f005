"""Sessions (satlab.api.auth): one row per signed-in browser, until it signs
out, expires, or its student is removed. The cookie holds a random token;
the table keeps only its SHA-256, so that a copy of the database opens no
session.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from satlab.service.store.database import Database, insert

SessionRole = Literal["instructor", "student"]


@dataclass(frozen=True, slots=True)
class SessionRow:
    role: SessionRole
    student_id: str | None  # the student's, None for the instructor
    expires_at: float


class SessionTables(Database):
    """The store's part for sessions (a mixin of store.Store)."""

    def add_session(self, token_hash: str, role: SessionRole, student_id: str | None, expires_at: float) -> None:
        """A new session; those expired are dropped meanwhile (so that the table holds live sessions only)."""
        now = time.time()
        with self._write() as db:
            db.execute("DELETE FROM sessions WHERE expires_at <= ?", (now,))
            insert(db, "sessions", {"token_hash": token_hash, "role": role, "student_id": student_id,
                                    "created_at": now, "expires_at": expires_at})

    def get_session(self, token_hash: str) -> SessionRow | None:
        """The session, unless it ended or expired."""
        with self._read() as db:
            row = db.execute("SELECT role, student_id, expires_at FROM sessions "
                             "WHERE token_hash = ? AND expires_at > ?", (token_hash, time.time())).fetchone()
        return None if row is None else SessionRow(row["role"], row["student_id"], row["expires_at"])

    def end_session(self, token_hash: str) -> bool:
        """False if there was no such session."""
        with self._write() as db:
            return bool(db.execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash,)).rowcount)

    def end_sessions(self, student_id: str | None = None) -> int:
        """End a student's sessions, or (None) everyone's; how many ended."""
        with self._write() as db:
            if student_id is None:
                return int(db.execute("DELETE FROM sessions").rowcount)
            return int(db.execute("DELETE FROM sessions WHERE student_id = ?", (student_id,)).rowcount)

    def count_sessions(self, student_id: str) -> int:
        """A student's live sessions (browsers signed in)."""
        with self._read() as db:
            count: int = db.execute("SELECT count(*) FROM sessions WHERE student_id = ? AND expires_at > ?",
                                    (student_id, time.time())).fetchone()[0]
        return count
