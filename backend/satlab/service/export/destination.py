"""An export written to a file: under a temporary name beside it, renamed
once whole, so that an interrupted export (a failure, Ctrl-C, SIGTERM)
leaves nothing half-written where the file was asked for."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def write_file(path: Path, write: Callable[[BinaryIO], None]) -> None:
    directory = path.parent if str(path.parent) else Path(".")
    handle, partial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=directory)
    try:
        with os.fdopen(handle, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(partial, 0o644)  # mkstemp's 0600 is for the file being written only
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
