"""Several exported files as one zip archive with a manifest
(`manifest.json`: each file's name, size and SHA-256, the provenance, what
was exported and what the run could not keep). Written front to back, so
that it streams into a pipe as well as into a file; its members are
deflated (a qlog shrinks about tenfold)."""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

MANIFEST_NAME = "manifest.json"
MEDIA_TYPE = "application/zip"


@dataclass(frozen=True)
class ExportFile:
    """A file of an export: its name (a path inside an archive) and how to write it."""
    name: str
    write: Callable[[BinaryIO], None]


class _Measured:
    """A binary stream that counts and hashes what goes through it."""

    def __init__(self, out: BinaryIO):
        self.out = out
        self.size_bytes = 0
        self.digest = hashlib.sha256()

    def write(self, data: bytes) -> int:
        self.size_bytes += len(data)
        self.digest.update(data)
        return self.out.write(data)

    def flush(self) -> None:
        self.out.flush()


def write_zip(files: list[ExportFile], out: BinaryIO, manifest: dict[str, Any]) -> None:
    """files, then manifest.json: `manifest` with `files` (name, size_bytes, sha256) added."""
    listed = []
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for file in files:
            with archive.open(file.name, "w", force_zip64=True) as member:
                measured = _Measured(member)  # type: ignore[arg-type]
                file.write(measured)  # type: ignore[arg-type]
            listed.append({"name": file.name, "size_bytes": measured.size_bytes,
                           "sha256": measured.digest.hexdigest()})
        archive.writestr(MANIFEST_NAME, json.dumps({**manifest, "files": listed}, indent=1, sort_keys=True) + "\n")
