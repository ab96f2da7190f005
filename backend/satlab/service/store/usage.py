"""What each person has queued, running and started: the counts the quotas
are checked against (satlab.service.admission). A run belongs to whoever
started it, or else to whoever started its campaign; a campaign's pending
items count as runs its owner has started already (they will run without
asking again).
"""

from __future__ import annotations

from satlab.service.store.database import Database

# A run's owner: its own, else its campaign's.
_RUNS = "runs LEFT JOIN campaigns ON campaigns.campaign_id = runs.campaign_id"
_OWNER = "COALESCE(runs.owner, campaigns.owner)"
_OWNED = f"SELECT count(*) FROM {_RUNS} WHERE {_OWNER}"


class UsageTables(Database):
    """The store's part for quotas (a mixin of store.Store)."""

    def active_runs(self, owner: str) -> int:
        """owner's runs queued or running."""
        with self._read() as db:
            count: int = db.execute(f"{_OWNED} = ? AND runs.status IN ('queued', 'running')", (owner,)).fetchone()[0]
        return count

    def runs_started_since(self, owner: str, since: float) -> int:
        """owner's runs created at or after since, and the pending items of their running campaigns."""
        with self._read() as db:
            runs: int = db.execute(f"{_OWNED} = ? AND runs.created_at >= ?", (owner, since)).fetchone()[0]
            pending: int = db.execute(
                "SELECT count(*) FROM campaign_items JOIN campaigns USING (campaign_id) WHERE campaigns.owner = ? "
                "AND campaigns.status = 'running' AND campaign_items.status = 'pending'", (owner,)).fetchone()[0]
        return runs + pending

    def queued_runs_of(self, owner: str) -> int:
        """owner's runs waiting in the queue."""
        with self._read() as db:
            count: int = db.execute(f"{_OWNED} = ? AND runs.status = 'queued'", (owner,)).fetchone()[0]
        return count

    def queued_runs_of_students(self) -> int:
        """Every student's runs waiting in the queue, together."""
        with self._read() as db:
            count: int = db.execute(f"{_OWNED} IN (SELECT student_id FROM students) AND runs.status = 'queued'"
                                    ).fetchone()[0]
        return count

    def unfinished_runs_of(self, owner: str) -> list[str]:
        """owner's runs queued or running (their campaigns' included), oldest first."""
        with self._read() as db:
            return [row[0] for row in db.execute(
                f"SELECT runs.run_id FROM {_RUNS} WHERE {_OWNER} = ? AND runs.status IN ('queued', 'running') "
                "ORDER BY runs.created_at", (owner,))]

    def running_campaigns_of(self, owner: str) -> list[str]:
        """owner's campaigns still running."""
        with self._read() as db:
            return [row[0] for row in db.execute(
                "SELECT campaign_id FROM campaigns WHERE owner = ? AND status = 'running'", (owner,))]
