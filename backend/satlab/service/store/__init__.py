"""The SQLite store: runs with their provenance, live samples, per-iteration
and per-flow summaries, campaigns and their items, the class (students,
audit trail, quotas, its state), sessions, and what quotas count (usage).

    with Store(path) as store:
        store.create_run(run_id, scenario, provenance)
        run = store.get_run(run_id)      # a RunRow, or None

Store is one connection (database.Database: its lock, transactions and
migrations) with the methods of each part: runs.py, samples.py,
campaigns.py, classroom.py, sessions.py, usage.py; schema.py holds the
migrations. Every method returns typed rows (frozen dataclasses), never
bare dicts; JSON payloads (a scenario, a provenance, an engine result) stay
mappings inside them.
"""

from __future__ import annotations

from satlab.service.store.campaigns import (
    CampaignDetailRow,
    CampaignItemDetailRow,
    CampaignItemRow,
    CampaignItemWithScenario,
    CampaignProgress,
    CampaignRow,
    CampaignTables,
    ItemAttemptRow,
    item_key,
)
from satlab.service.store.classroom import AuditRow, ClassroomTables, StudentRow
from satlab.service.store.runs import (
    LONE_ORIGINS,
    FlowSummaryRow,
    IterationRow,
    LoneOrigin,
    OriginKind,
    RunOrigin,
    RunRow,
    RunSummaryRow,
    RunTables,
)
from satlab.service.store.samples import (
    FlowSampleRow,
    LinkSampleRow,
    PepSampleRow,
    SampleRows,
    SampleTables,
    TunnelSampleRow,
    sample_rows,
)
from satlab.service.store.schema import FINISHED, MIGRATIONS, RUN_STATUSES, CampaignStatus, ItemStatus, RunStatus
from satlab.service.store.sessions import SessionRole, SessionRow, SessionTables
from satlab.service.store.usage import UsageTables


class Store(RunTables, SampleTables, CampaignTables, ClassroomTables, SessionTables, UsageTables):
    """The database at path (created with its parent directories)."""

    def __enter__(self) -> Store:
        return self


__all__ = [
    "FINISHED", "LONE_ORIGINS", "MIGRATIONS", "RUN_STATUSES", "AuditRow", "CampaignDetailRow",
    "CampaignItemDetailRow", "CampaignItemRow", "CampaignItemWithScenario", "CampaignProgress", "CampaignRow",
    "CampaignStatus", "FlowSampleRow", "FlowSummaryRow", "ItemAttemptRow", "ItemStatus", "IterationRow",
    "LinkSampleRow", "LoneOrigin", "OriginKind", "PepSampleRow", "RunOrigin", "RunRow", "RunStatus", "RunSummaryRow",
    "SampleRows", "SessionRole", "SessionRow", "Store", "StudentRow", "TunnelSampleRow", "item_key", "sample_rows",
]
