"""The files a run keeps for the researcher (qlogs, TLS key logs, packet
captures), handed by the engine to a directory its caller owns (the
service's per-run directory) within a cap on their bytes.

A file is written under a temporary name and renamed once whole, so that
the directory never holds half a file: not after a failure, a cancel or a
file refused for the cap. A file that would take the run past its cap is
not kept, and the refusal is a sentence in the run's result; so is each
kept file that misses part of what it records (a packet capture that
stopped at its own cap: satlab.engine.captures).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Literal

Kind = Literal["qlog", "keylog", "pcapng"]
CHUNK_BYTES = 1 << 20
PARTIAL_PREFIX = ".partial-"
GZIP_LEVEL = 6  # of 9: qlog JSON shrinks ~10x at a fraction of level 9's time


@dataclass(frozen=True)
class KeptFile:
    name: str  # its path in the run's directory, e.g. iteration0/flow0/client.qlog.gz
    kind: Kind
    size_bytes: int  # as kept (compressed)
    sha256: str  # of the file as kept


class CapExceeded(Exception):
    pass


class _CountingWriter:
    """Writes through to a file, hashing, and stops at a byte budget."""

    def __init__(self, out: BinaryIO, budget_bytes: int):
        self.out, self.budget_bytes = out, budget_bytes
        self.written = 0
        self.digest = hashlib.sha256()

    def write(self, data: bytes) -> int:
        self.written += len(data)
        if self.written > self.budget_bytes:
            raise CapExceeded
        self.digest.update(data)
        return self.out.write(data)

    def flush(self) -> None:
        self.out.flush()


@dataclass
class ArtifactSink:
    """The run's directory (created on the first file kept) and the most
    bytes its files may take together."""
    directory: Path
    max_bytes: int
    files: list[KeptFile] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    incomplete: list[str] = field(default_factory=list)  # kept, but missing records: why, a sentence each

    @property
    def used_bytes(self) -> int:
        return sum(kept.size_bytes for kept in self.files)

    def keep(self, name: str, source: Path, kind: Kind, source_gzipped: bool = False) -> KeptFile | None:
        """Copy source into the directory under name + ".gz", compressed with
        gzip (unless it is already); None, with the reason in `refused`, if
        it would pass the cap."""
        final_name = f"{name}.gz"
        compress = not source_gzipped
        target = self.directory / final_name
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(PARTIAL_PREFIX + target.name)
        try:
            with source.open("rb") as reading, partial.open("wb") as raw:
                counted = _CountingWriter(raw, self.max_bytes - self.used_bytes)
                if compress:
                    # mtime=0: the same content gives the same bytes (and digest) every time.
                    with gzip.GzipFile(filename=Path(name).name, mode="wb", fileobj=counted,
                                       compresslevel=GZIP_LEVEL, mtime=0) as packed:
                        shutil.copyfileobj(reading, packed, CHUNK_BYTES)
                else:
                    shutil.copyfileobj(reading, counted, CHUNK_BYTES)
                raw.flush()
                os.fsync(raw.fileno())
        except CapExceeded:
            partial.unlink(missing_ok=True)
            self.refused.append(f"{final_name} ({source.stat().st_size} bytes before compression) was not kept: "
                                f"the run's files would pass their cap of {self.max_bytes} bytes "
                                "(capture.max_bytes)")
            return None
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        partial.rename(target)
        kept = KeptFile(final_name, kind, counted.written, counted.digest.hexdigest())
        self.files.append(kept)
        return kept

    def summary(self) -> dict[str, Any]:
        """What the run's result says of its kept files."""
        return {"max_bytes": self.max_bytes, "used_bytes": self.used_bytes,
                "files": [asdict(kept) for kept in self.files], "refused": list(self.refused),
                "incomplete": list(self.incomplete)}
