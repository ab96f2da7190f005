"""What a run was made with, stored beside its results: the host's kernel,
the versions of satlab, Python and each tool, and digests of the native tools
(they have no version of their own: the digest names the exact build)."""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import platform
import shutil
import subprocess
from typing import Any

from satlab.engine.host import HYSTART
from satlab.tools import REPO, TOOLS_DIR


def _first_line(args: list[str]) -> str | None:
    if shutil.which(args[0]) is None:
        return None
    done = subprocess.run(args, capture_output=True, text=True)
    text = done.stdout.strip()
    return text.splitlines()[0] if done.returncode == 0 and text else None


def _digest(path: os.PathLike[str]) -> str | None:
    """The file's SHA-256 (16 hex digits) as it is now: a tool rebuilt
    while the process lives is what its next run executes. Hashed again
    only when the file changed."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return _file_digest(os.fspath(path), found.st_ino, found.st_size, found.st_mtime_ns)


@functools.lru_cache(maxsize=16)
def _file_digest(path: str, inode: int, size: int, mtime_ns: int) -> str | None:
    try:
        with open(path, "rb") as binary:
            return hashlib.file_digest(binary, "sha256").hexdigest()[:16]
    except OSError:
        return None


def _git_commit() -> str | None:
    if not (REPO / ".git").exists() or shutil.which("git") is None:
        return None
    done = subprocess.run(["git", "-C", str(REPO), "describe", "--always", "--dirty", "--abbrev=12"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        return None
    return done.stdout.strip() or None


def _debian_package(name: str) -> str | None:
    """The installed version of a Debian package (ngtcp2's programs print none)."""
    return _first_line(["dpkg-query", "--show", "--showformat=${Version}", name])


def _package(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


@functools.cache
def _static() -> dict[str, Any]:
    """What does not change while the process lives."""
    return {
        "satlab": _package("satlab"),
        "git": _git_commit(),
        "python": platform.python_version(),
        "kernel": platform.release(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "iperf3": _first_line(["iperf3", "--version"]),
        "aiopquic": _package("aiopquic"),
        "ngtcp2": _debian_package("ngtcp2-client"),
    }


def provenance() -> dict[str, Any]:
    """The static facts, the native tools as they are now, and the host
    state a run inherits (CUBIC's Hystart before the run sets it)."""
    hystart = HYSTART.read_text().strip() if HYSTART.exists() else None
    return {**_static(),
            "satlink_sha256": _digest(TOOLS_DIR / "satlink"),
            "swf_tunnel_sha256": _digest(TOOLS_DIR / "swf-tunnel"),
            "satlab_pep_sha256": _digest(TOOLS_DIR / "satlab-pep"),
            "host_cubic_hystart": hystart}
