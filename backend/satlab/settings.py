"""Where satlab keeps and finds things, from the environment (one place)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from satlab.tools import REPO


@dataclass(frozen=True)
class Settings:
    db_path: Path  # the SQLite store of runs, samples, summaries and campaigns
    labs_dir: Path  # the scenario presets served as labs
    frontend_dir: Path  # the built frontend, served at / when it exists
    max_concurrent_runs: int  # runs beyond wait in the queue

    @classmethod
    def from_env(cls) -> Settings:
        return cls(db_path=Path(os.environ.get("SATLAB_DB", "/var/lib/satlab/satlab.db")),
                   labs_dir=Path(os.environ.get("SATLAB_LABS_DIR", REPO / "labs")),
                   frontend_dir=Path(os.environ.get("SATLAB_FRONTEND_DIR", REPO / "frontend" / "dist")),
                   max_concurrent_runs=int(os.environ.get("SATLAB_MAX_CONCURRENT_RUNS", "4")))
