"""Where satlab keeps and finds things, and the limits it enforces, from the
environment (one place)."""

from __future__ import annotations

import dataclasses
import ipaddress
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from satlab.tools import REPO

# The names a browser on this machine uses for a server bound to loopback.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1")
CEILING_PREFIX = "SATLAB_CEILING_"


def _limit(default: int, description: str, ceiling: int | None = None) -> Any:
    """A limit; one with a ceiling is a quota the instructor may change while
    the server runs (PUT /api/class/quotas), from 0 up to that ceiling."""
    return field(default=default, metadata={"description": description, "ceiling": ceiling})


@dataclass(frozen=True)
class Limits:
    """Every quota and limit, in one table: the API enforces them, GET
    /api/limits and `satlab doctor` list them, backend/README.md documents
    them (a test checks it does). Each is set with SATLAB_LIMIT_<NAME>; a
    quota (one with a ceiling) is then the instructor's to change, up to it."""
    student_concurrent_runs: int = _limit(2, "runs one student may have queued or running at once", 8)
    student_runs_per_hour: int = _limit(20, "runs one student may start in an hour", 200)
    student_flow_bytes: int = _limit(50_000_000, "bytes one flow of a student's run may move (size_bytes)",
                                     1_000_000_000)
    student_flow_duration_s: int = _limit(120, "seconds one flow or cross traffic of a student's run may last", 600)
    student_cross_traffic_mbps: int = _limit(20, "Mbit/s of cross traffic a student's run may send, in all", 100)
    student_iterations: int = _limit(3, "iterations one student's run may have", 10)
    student_campaigns: int = _limit(0, "1 lets students start campaigns, 0 keeps them to the instructor", 1)
    student_link_rate_mbps: int = _limit(300, "Mbit/s a link direction of a student's run may carry (the "
                                              "satellite link's and the LAN's)", 10_000)
    audit_retention_rows: int = _limit(100_000, "entries the audit trail keeps (the oldest beyond are dropped)",
                                       1_000_000)
    max_request_bytes: int = _limit(1 << 20, "bytes of one request's body")
    max_queued_runs: int = _limit(32, "runs waiting in the queue: the students' together, and the instructor's "
                                      "apart (so that the class cannot crowd the instructor out)")
    max_campaign_runs: int = _limit(256, "runs of one campaign (configurations x iterations)")
    max_websockets_per_client: int = _limit(8, "streams one client address may hold open")
    max_websockets: int = _limit(64, "streams open at once, of everyone")
    max_description_chars: int = _limit(2_000, "characters of a scenario's or campaign's description")
    max_name_chars: int = _limit(40, "characters of a student's name")
    max_students: int = _limit(200, "students the class may have (each name signed in once is one)")
    max_database_bytes: int = _limit(2_000_000_000, "bytes the database may use before new runs are refused")
    retention_days: int = _limit(30, "days a finished run keeps its samples (its summary stays)", 365)
    run_artifact_bytes: int = _limit(256 << 20, "bytes the files one run keeps (qlogs, TLS key logs, packet "
                                                "captures) may take, compressed, unless its scenario's "
                                                "capture.max_bytes (at most 16 GiB) says otherwise")
    student_capture_bytes: int = _limit(256 << 20, "bytes the files one student's run keeps may take, compressed: its "
                                                   "capture.max_bytes, or run_artifact_bytes when it gives none and "
                                                   "captures packets")
    login_attempts_per_minute: int = _limit(10, "sign-in attempts one client address may make in a minute")
    header_timeout_s: int = _limit(10, "seconds a client may take to send a request's headers (then its connection "
                                       "is closed)")
    body_timeout_s: int = _limit(30, "seconds a client may take to send a request's body (then its connection is "
                                     "closed)")

    @classmethod
    def from_env(cls) -> Limits:
        values = {limit.name: _env_whole_number(f"SATLAB_LIMIT_{limit.name.upper()}")
                  for limit in dataclasses.fields(cls)}
        return cls(**{name: value for name, value in values.items() if value is not None})

    @classmethod
    def ceilings(cls) -> dict[str, int]:
        """The quotas (the limits the instructor may change while the server runs) and their ceilings."""
        return {limit.name: limit.metadata["ceiling"] for limit in dataclasses.fields(cls)
                if limit.metadata["ceiling"] is not None}

    def table(self) -> list[dict[str, Any]]:
        """[{name, value, description}] in declaration order."""
        return [{"name": limit.name, "value": getattr(self, limit.name),
                 "description": limit.metadata["description"]} for limit in dataclasses.fields(self)]


def _env_whole_number(name: str) -> int | None:
    text = os.environ.get(name)
    if text is not None and not (text.isascii() and text.isdigit()):  # int() takes "٣", and isdigit "²"
        raise ValueError(f"{name} must be a whole number ≥ 0, got {text!r}")
    return None if text is None else int(text)


def ceilings_from_env(limits: Limits) -> dict[str, int]:
    """How high the instructor may set each quota: SATLAB_CEILING_<NAME>, else
    the table's ceiling. The limit of the machine's owner, which the
    instructor's page cannot lift; limits' own values may not pass it."""
    ceilings = {}
    for name, ceiling in Limits.ceilings().items():
        variable = f"{CEILING_PREFIX}{name.upper()}"
        from_env = _env_whole_number(variable)
        ceilings[name] = ceiling = ceiling if from_env is None else from_env
        if getattr(limits, name) > ceiling:
            raise ValueError(f"SATLAB_LIMIT_{name.upper()} is {getattr(limits, name)}, above its ceiling {ceiling} "
                             f"({variable}): lower the one or raise the other")
    return ceilings


@dataclass(frozen=True)
class Settings:
    db_path: Path  # the SQLite store of runs, samples, summaries and campaigns
    labs_dir: Path  # the scenario presets served as labs
    frontend_dir: Path  # the built frontend, served at / when it exists
    max_concurrent_runs: int  # runs beyond wait in the queue
    limits: Limits = Limits()
    # How high the instructor may set each quota (PUT /api/class/quotas): ceilings_from_env.
    ceilings: dict[str, int] = field(default_factory=Limits.ceilings)
    # Who may sign in as the instructor (hashed at start, never stored as is).
    instructor_token: str | None = None
    # Without login everyone acts as the instructor: only for a server bound to
    # loopback with no instructor token (satlab serve decides; see auth.py).
    open_access: bool = True
    # Host headers answered (DNS rebinding): SATLAB_ALLOWED_HOSTS, comma-separated, and
    # the loopback names; "*" answers any.
    allowed_hosts: tuple[str, ...] = ("*",)
    # At first start without a token, generate one and print it once.
    new_token: bool = False
    # The reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed
    # (SATLAB_TRUSTED_PROXIES: addresses or networks, comma-separated); none by default,
    # so that no client can choose the address its limits are counted under.
    trusted_proxies: tuple[str, ...] = ()

    @classmethod
    def from_env(cls) -> Settings:
        hosts = os.environ.get("SATLAB_ALLOWED_HOSTS")
        limits = Limits.from_env()
        return cls(db_path=Path(os.environ.get("SATLAB_DB", "/var/lib/satlab/satlab.db")),
                   labs_dir=Path(os.environ.get("SATLAB_LABS_DIR", REPO / "labs")),
                   frontend_dir=Path(os.environ.get("SATLAB_FRONTEND_DIR", REPO / "frontend" / "dist")),
                   max_concurrent_runs=int(os.environ.get("SATLAB_MAX_CONCURRENT_RUNS", "4")),
                   limits=limits, ceilings=ceilings_from_env(limits),
                   instructor_token=os.environ.get("SATLAB_INSTRUCTOR_TOKEN") or None,
                   # Loopback names always: a health check from the machine itself, and no rebinding
                   # attack names them (the attacker's page is on their own name).
                   allowed_hosts=tuple(dict.fromkeys([*LOOPBACK_HOSTS, *(name.strip() for name in
                                                                        (hosts or "").split(",") if name.strip())])),
                   trusted_proxies=trusted_proxies_from_env())


def trusted_proxies_from_env() -> tuple[str, ...]:
    """SATLAB_TRUSTED_PROXIES: each an address or a network (127.0.0.1, 10.0.0.0/8);
    a ValueError naming the variable for anything else ("*" included: trusting
    every client would let each choose its own address)."""
    proxies = tuple(item.strip() for item in os.environ.get("SATLAB_TRUSTED_PROXIES", "").split(",") if item.strip())
    for proxy in proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise ValueError(f"SATLAB_TRUSTED_PROXIES: {proxy!r} is not an address or a network (e.g. 127.0.0.1, "
                             "10.0.0.0/8)") from None
    return proxies
