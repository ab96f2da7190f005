"""What this host offers (satlab doctor; checks before a run), and where
satlab keeps host-wide state (locks of live runs, Hystart claims, the runs'
work directories)."""

from __future__ import annotations

import fcntl
import os
import platform
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import IO, Any

from satlab import tcp_congestion
from satlab.engine.flows.base import flow_class
from satlab.tools import TOOLS_DIR
from satlab.transports import TRANSPORTS

HYSTART = Path("/sys/module/tcp_cubic/parameters/hystart")
# Campaign claims and Hystart's saved value (kept on a container's data volume).
LOCK_DIR = Path(os.environ.get("SATLAB_LOCK_DIR", "/run/satlab"))
# A run holds RUN_LOCK_DIR/<run id>.lock for its whole life. Fixed, whatever
# SATLAB_LOCK_DIR says: every satlab on the host (earlier versions included)
# locks its runs here, so a sweep by any of them sees every live run.
RUN_LOCK_DIR = Path("/run/satlab")
# A run's work directory (downloads, qlogs, TLS keys) is WORK_ROOT/<run id>,
# swept with the run's namespaces when its owner died.
WORK_ROOT = Path(tempfile.gettempdir()) / "satlab-runs"


def has_netem() -> bool:
    if Path("/sys/module/sch_netem").exists():
        return True
    return shutil.which("modinfo") is not None and subprocess.run(
        ["modinfo", "-n", "sch_netem"], capture_output=True).returncode == 0


def transport_problem(name: str) -> str | None:
    """Why transport `name` cannot run here, or None."""
    try:
        flow_class(name)
    except ImportError as error:
        return f"its implementation is not available ({error})"
    if name == "tcp" and shutil.which("iperf3") is None:
        return "iperf3 is not installed"
    if name == "quic-ngtcp2" and not (program("gtlsclient") and program("gtlsserver")):
        return "ngtcp2's gtlsclient and gtlsserver are not installed (Debian: ngtcp2-client ngtcp2-server)"
    return None


def program(name: str) -> str | None:
    """Where a program is; Debian installs some (gtlsserver) in /usr/sbin,
    which a user's PATH may lack."""
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin")


def link_backend_problem(name: str) -> str | None:
    """Why link backend `name` cannot run here, or None."""
    if name == "satlink":
        if not Path("/dev/net/tun").exists():
            return "/dev/net/tun does not exist"
        if not (TOOLS_DIR / "satlink").exists():
            return f"{TOOLS_DIR / 'satlink'} does not exist: build the codec"
    elif name == "netem" and not has_netem():
        return "the kernel has no sch_netem (tc's network emulator qdisc)"
    return None


def capabilities() -> dict[str, Any]:
    """What this host offers, in the shape GET /api/capabilities returns."""
    kernel = tcp_congestion.host_kernel()
    transports = []
    for info in TRANSPORTS.values():
        ccs = kernel.runnable(info.congestion_controls) if info.name == "tcp" else info.congestion_controls
        problem = transport_problem(info.name)
        transports.append({"name": info.name, "display_name": info.display_name, "colour": info.colour,
                           "available": problem is None, "problem": problem, "congestion_controls": list(ccs),
                           "uploads": info.uploads, "durations": info.durations,
                           "flow_control": info.flow_control, "zero_rtt_modes": list(info.zero_rtt_modes)})
    return {
        "root": os.geteuid() == 0,
        "kernel": platform.release(),
        "link_backends": [{"name": name, "available": link_backend_problem(name) is None,
                           "problem": link_backend_problem(name)} for name in ("satlink", "netem")],
        "fec_tunnel": (TOOLS_DIR / "swf-tunnel").exists(),
        "cubic_hystart_parameter": HYSTART.exists(),
        # Linux's TCP congestion controls: the kernel's now, loadable as modules, missing.
        "tcp_congestion_controls": kernel.to_dict(),
        "transports": transports,
    }


def try_claim(name: str, directory: Path | None = None) -> IO[str] | None:
    """An exclusive flock on directory/name (default LOCK_DIR), held until
    released (release(): the file goes too) or this process dies (the kernel
    drops the flock, so a crash never leaves a live claim; the file it
    leaves goes with the next look, is_claimed, or the next claim's
    release); None if another process holds it."""
    return _claim(directory or LOCK_DIR, name, fcntl.LOCK_EX | fcntl.LOCK_NB)


def claim(name: str, directory: Path | None = None) -> IO[str]:
    """try_claim that waits while another process holds the claim."""
    lock = _claim(directory or LOCK_DIR, name, fcntl.LOCK_EX)
    assert lock is not None  # a waiting flock returns holding the lock
    return lock


def _claim(directory: Path, name: str, operation: int) -> IO[str] | None:
    """The flock on the file that is directory/name once it is held. A
    holder removes its file before it lets go (release), so a claimant that
    opened the file before that holds a file nobody else can see: it then
    tries again on the file at the path now, and two claimants never both
    hold the name."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    while True:
        lock = open(path, "a")  # noqa: SIM115 (the caller owns it)
        try:
            fcntl.flock(lock, operation)
        except BlockingIOError:
            lock.close()
            return None
        if _is_at(lock, path):
            return lock
        lock.close()


def _is_at(lock: IO[str], path: Path) -> bool:
    """True if the open file lock is the file at path now."""
    try:
        return os.path.samestat(os.fstat(lock.fileno()), os.stat(path))
    except FileNotFoundError:
        return False


def release(name: str, lock: IO[str], directory: Path | None = None) -> None:
    """Give up a claim for good: its file goes (removed while still held, so
    that a claimant waiting on it sees it gone and claims a new one), then
    the lock."""
    ((directory or LOCK_DIR) / name).unlink(missing_ok=True)
    lock.close()


def is_claimed(name: str, directory: Path | None = None) -> bool:
    """True if a live process (this one included) holds directory/name
    (default LOCK_DIR). Asking claims the name for a moment, and gives the
    claim up as every claim is given up, its file removed: a file nobody
    held (its holder died) goes, and so does the one asking created when the
    holder released between the look and the claim."""
    if not ((directory or LOCK_DIR) / name).exists():
        return False
    lock = try_claim(name, directory)
    if lock is None:
        return True
    release(name, lock, directory)
    return False


def remove_unclaimed(pattern: str, directory: Path | None = None) -> list[str]:
    """Remove the claim files matching pattern (a glob) in directory (default
    LOCK_DIR) that no live process holds: what dead holders left. Returns
    their names."""
    return [path.name for path in sorted((directory or LOCK_DIR).glob(pattern))
            if not is_claimed(path.name, directory)]


def run_lock_name(run_id: str) -> str:
    """The run's lock in RUN_LOCK_DIR."""
    return f"{run_id}.lock"


def run_alive(run_id: str) -> bool:
    """True if a live satlab process (any, this one included) holds the run's lock."""
    return is_claimed(run_lock_name(run_id), RUN_LOCK_DIR)


def work_dir(run_id: str) -> Path:
    return WORK_ROOT / run_id
