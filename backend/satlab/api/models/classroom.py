"""The instructor's desk: the class, its audit trail, its storage; and the
limits of what a scenario's FEC tunnel may be, which every form checks."""

from __future__ import annotations

from pydantic import Field

from satlab.api.models.common import Public
from satlab.service.store import AuditRow, StudentRow


class ClassPublic(Public):
    """What the instructor shows and watches."""
    class_code: str = Field(description="What students sign in with (POST /api/auth/student).")
    enabled_labs: list[str] | None = Field(description="The presets students may run; null: every preset.")
    students: list[StudentRow] = Field(description="In the order they joined, each with their personal key and how "
                                                   "many runs they started.")
    database_bytes: int = Field(description="What the database's pages in use take.")
    max_database_bytes: int
    retention_days: int


class ClassCode(Public):
    class_code: str


class AuditPublic(Public):
    data: list[AuditRow] = Field(description="Newest first.")
    count: int


class Pruned(Public):
    pruned_runs: int = Field(description="Runs whose samples were dropped (their summaries stay).")
    audit_rows_dropped: int = Field(description="Audit entries dropped, the oldest.")
    database_bytes: int = Field(description="What the database's pages in use take now.")
    max_database_bytes: int = Field(description="Its limit: new runs are refused (507) at or above it.")


class IntegerRange(Public):
    min: int
    max: int


class TunnelLimits(Public):
    """The FEC tunnel S(k,z) a scenario may ask for (satlab.scenario.Tunnel):
    one repair after every k source packets, over the last z."""
    k: IntegerRange
    z: IntegerRange
    symbol_bytes: IntegerRange
    k_at_most_z: bool = Field(description="k must be at most z: a repair covers only the last z sources, so with "
                                          "k > z some sources would be in no repair's window.")
