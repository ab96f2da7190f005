"""CUBIC's Hystart, a host-wide module parameter shared by concurrent runs.

Each run that needs a setting records it in LOCK_DIR/hystart-<run id>; the
first one saves the host's value, the last one restores it. A run that
needs the opposite of a live run's setting is refused: the two would
silently change each other's congestion control.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path

from satlab.host import HYSTART, LOCK_DIR


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    LOCK_DIR.mkdir(parents=True, exist_ok=True)
    with open(LOCK_DIR / "hystart.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _holder(run_id: str) -> Path:
    return LOCK_DIR / f"hystart-{run_id}"


def _original() -> Path:
    return LOCK_DIR / "hystart.original"


def release(run_id: str) -> None:
    """Drop run_id's claim; the last claim restores the host's value."""
    with _locked():
        _holder(run_id).unlink(missing_ok=True)
        if not any(LOCK_DIR.glob("hystart-*")) and _original().exists():
            HYSTART.write_text(_original().read_text())
            _original().unlink()


@contextlib.contextmanager
def cubic_hystart(enabled: bool | None, run_id: str) -> Iterator[None]:
    """Hystart on or off for the body (None: leave the host's setting)."""
    if enabled is None:
        yield
        return
    wanted = "1" if enabled else "0"
    with _locked():
        for holder in LOCK_DIR.glob("hystart-*"):
            if holder.read_text() != wanted:
                other = holder.name.removeprefix("hystart-")
                raise RuntimeError(f"flows: hystart is a host-wide setting and run {other} needs it "
                                   f"{'on' if wanted == '0' else 'off'}; wait for it to end")
        if not _original().exists():
            _original().write_text(HYSTART.read_text().strip())
        _holder(run_id).write_text(wanted)
        HYSTART.write_text(wanted)
    try:
        yield
    finally:
        release(run_id)
