"""The files each run keeps (qlogs, TLS key logs, packet captures: see
satlab.scenario.capture), in a directory per run beside the database:
`<database's directory>/artifacts/<run id>/`. The run queue hands the
engine a sink into it (satlab.engine.artifacts.ArtifactSink, which writes
each file under a temporary name and renames it once whole); the store
removes it with its run; exports read it."""

from __future__ import annotations

import shutil
from pathlib import Path

from satlab.engine.artifacts import PARTIAL_PREFIX, ArtifactSink

DIRECTORY_NAME = "artifacts"


class RunArtifacts:
    """The per-run directories under root."""

    def __init__(self, root: Path):
        self.root = root

    @classmethod
    def beside(cls, database: Path) -> RunArtifacts:
        return cls(database.parent / DIRECTORY_NAME)

    def directory(self, run_id: str) -> Path:
        if not run_id or "/" in run_id or run_id.startswith("."):
            raise ValueError(f"a run id names no directory: {run_id!r}")
        return self.root / run_id

    def sink(self, run_id: str, max_bytes: int) -> ArtifactSink:
        return ArtifactSink(self.directory(run_id), max_bytes)

    def files(self, run_id: str) -> list[Path]:
        """The run's whole files, by name (never one being written)."""
        directory = self.directory(run_id)
        if not directory.is_dir():
            return []
        return sorted(path for path in directory.rglob("*")
                      if path.is_file() and not path.name.startswith(PARTIAL_PREFIX))

    def remove(self, run_id: str) -> None:
        shutil.rmtree(self.directory(run_id), ignore_errors=True)

    def remove_partials(self) -> list[Path]:
        """What a process killed while writing a file left (at the next start); the paths removed."""
        partials = sorted(self.root.rglob(f"{PARTIAL_PREFIX}*")) if self.root.is_dir() else []
        for partial in partials:
            partial.unlink(missing_ok=True)
        return partials
