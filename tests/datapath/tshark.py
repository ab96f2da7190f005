"""Reading the tools' pcapng captures with tshark (Debian's tshark package),
as a researcher would: every frame's interface and comment, and display
filters on the comments."""

from __future__ import annotations

import collections
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

# What tshark prints on stderr when it runs as root: not an error.
_ROOT_WARNING = re.compile(r'^Running as user "root" and group "root"\. This could be dangerous\.$')


def missing() -> str | None:
    """Why tshark cannot be used here, or None."""
    if shutil.which("tshark") is None:
        return "needs tshark (Debian's tshark package; make deps installs it)"
    return None


def tshark(path: Path, *args: str) -> list[str]:
    """tshark's output lines for the capture at path; fails on any error
    (a file it cannot read whole, a bad filter)."""
    result = subprocess.run(["tshark", "-n", "-r", str(path), *args], capture_output=True,
                            text=True, timeout=120)
    errors = [line for line in result.stderr.splitlines() if line and not _ROOT_WARNING.match(line)]
    assert result.returncode == 0 and not errors, f"tshark on {path}: {result.stderr}"
    return result.stdout.splitlines()


@dataclass(frozen=True)
class Frame:
    interface: str
    comment: str
    captured_bytes: int
    wire_bytes: int

    def fields(self) -> dict[str, str]:
        """The comment's key=value pairs (reason="..." included)."""
        return dict(re.findall(r'(\w+)=("[^"]*"|\S+)', self.comment))

    @property
    def fate(self) -> str:
        return self.fields().get("fate", "")


def frames(path: Path) -> list[Frame]:
    """Every frame of the capture, in file order."""
    rows = tshark(path, "-T", "fields", "-E", "separator=/t", "-e", "frame.interface_name",
                  "-e", "frame.comment", "-e", "frame.cap_len", "-e", "frame.len")
    found = []
    for row in rows:
        interface, comment, captured, wire = row.split("\t")
        found.append(Frame(interface, comment, int(captured), int(wire)))
    return found


def fates(found: list[Frame], interface: str | None = None) -> collections.Counter[str]:
    """How many frames (of one interface) have each fate."""
    return collections.Counter(f.fate for f in found if interface is None or f.interface == interface)


def count_matching(path: Path, display_filter: str) -> int:
    """How many frames a display filter selects."""
    return len(tshark(path, "-Y", display_filter))
