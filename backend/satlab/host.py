"""What this host offers (satlab doctor; checks before a run), and where
satlab keeps host-wide state (locks of live runs, Hystart claims)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from satlab.flows.registry import TRANSPORTS
from satlab.tools import TOOLS_DIR

HYSTART = Path("/sys/module/tcp_cubic/parameters/hystart")
LOCK_DIR = Path(os.environ.get("SATLAB_LOCK_DIR", "/run/satlab"))


def has_netem() -> bool:
    if Path("/sys/module/sch_netem").exists():
        return True
    return shutil.which("modinfo") is not None and subprocess.run(
        ["modinfo", "-n", "sch_netem"], capture_output=True).returncode == 0


def congestion_controls() -> list[str]:
    path = Path("/proc/sys/net/ipv4/tcp_available_congestion_control")
    return path.read_text().split() if path.exists() else []


def transport_problem(name: str) -> str | None:
    """Why transport `name` cannot run here, or None."""
    try:
        TRANSPORTS[name].flow_class()
    except ImportError as error:
        return f"its implementation is not available ({error})"
    return None


def capabilities() -> dict[str, object]:
    return {
        "root": os.geteuid() == 0,
        "tun": Path("/dev/net/tun").exists(),
        "netem": has_netem(),
        "tcp_congestion_controls": congestion_controls(),
        "cubic_hystart_parameter": HYSTART.exists(),
        "iperf3": shutil.which("iperf3"),
        "satlink": (TOOLS_DIR / "satlink").exists(),
        "swf_tunnel": (TOOLS_DIR / "swf-tunnel").exists(),
        "ngtcp2": bool(shutil.which("gtlsclient")
                       and (shutil.which("gtlsserver") or Path("/usr/sbin/gtlsserver").exists())),
        "transports": {name: transport_problem(name) or "available" for name in TRANSPORTS},
    }
