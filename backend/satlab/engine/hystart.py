"""CUBIC's Hystart, a host-wide module parameter shared by concurrent runs.

Each run that needs a setting records it in CLAIM_DIR/hystart-<run id>; the
first one saves the host's value, the last one restores it. A run that
needs the opposite of a live run's setting waits for those runs to end (up
to patience_s), then is refused: the two would silently change each other's
congestion control. CLAIM_DIR is the host-wide RUN_LOCK_DIR, whatever a
process's SATLAB_LOCK_DIR: two workers on one host (each with a lock
directory of its own) claim the one setting in one place.
"""

from __future__ import annotations

import contextlib
import fcntl
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from satlab.engine.host import HYSTART, RUN_LOCK_DIR

CLAIM_DIR = RUN_LOCK_DIR


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    # hystart.lock is permanent by design, never removed: every claim and
    # release of the setting on the host takes turns on this one empty file.
    # Were it removed, a process waiting on the removed file and one opening
    # a new one would change the setting at once (host.claim shows the care
    # removal takes). The hystart-<run id> records it guards go with their
    # run (release, or topology.sweep after a crash), hystart.original with
    # the last one.
    CLAIM_DIR.mkdir(parents=True, exist_ok=True)
    with open(CLAIM_DIR / "hystart.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _holder(run_id: str) -> Path:
    return CLAIM_DIR / f"hystart-{run_id}"


def _original() -> Path:
    return CLAIM_DIR / "hystart.original"


def release(run_id: str) -> None:
    """Drop run_id's claim; the last claim restores the host's value."""
    with _locked():
        _holder(run_id).unlink(missing_ok=True)
        if not any(CLAIM_DIR.glob("hystart-*")) and _original().exists():
            HYSTART.write_text(_original().read_text())
            _original().unlink()


# How often a waiting run looks again whether the runs in its way have ended.
POLL_S = 0.5


def _claim(wanted: str, run_id: str) -> str | None:
    """Claim the setting for run_id, or the id of a run that holds the opposite."""
    with _locked():
        for holder in CLAIM_DIR.glob("hystart-*"):
            if holder.read_text() != wanted:
                return holder.name.removeprefix("hystart-")
        if not _original().exists():
            _original().write_text(HYSTART.read_text().strip())
        _holder(run_id).write_text(wanted)
        HYSTART.write_text(wanted)
    return None


@contextlib.contextmanager
def cubic_hystart(enabled: bool | None, run_id: str, patience_s: float = 0.0,
                  while_waiting: Callable[[], None] = lambda: None) -> Iterator[None]:
    """Hystart on or off for the body (None: leave the host's setting),
    once no live run needs the opposite: waiting up to patience_s for them
    to end (a campaign's run beside another user's), then RuntimeError.
    while_waiting() is called between looks: it may raise to stop waiting
    (a cancelled run)."""
    if enabled is None:
        yield
        return
    wanted = "1" if enabled else "0"
    deadline = time.monotonic() + patience_s
    while (other := _claim(wanted, run_id)) is not None:
        if time.monotonic() >= deadline:
            raise RuntimeError(f"flows: hystart is a host-wide setting and run {other} needs it "
                               f"{'on' if wanted == '0' else 'off'}; it did not end within {patience_s:g} s")
        while_waiting()
        time.sleep(POLL_S)
    try:
        yield
    finally:
        release(run_id)
