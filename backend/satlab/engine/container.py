"""What this host, often a container, cannot do that runs need: said by
`satlab doctor` and GET /api/capabilities (the UI shows it), so that it is
not discovered by a failing run. Each entry is a sentence naming the fix."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from satlab.engine.host import HYSTART

# Bits of the effective capability set (linux/capability.h).
CAP_NET_ADMIN = 12
CAP_SYS_ADMIN = 21
IP_FORWARD = Path("/proc/sys/net/ipv4/ip_forward")


def in_container() -> bool:
    return Path("/.dockerenv").exists() or Path("/run/.containerenv").exists()


def _effective_capabilities() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("CapEff:"):
            return int(line.split()[1], 16)
    return 0


def realtime_refused() -> str | None:
    """Why a thread cannot have the real-time scheduler (SCHED_FIFO) here, as
    the kernel says it, or None if it can: asked by a thread of this process
    made for it, which ends with the answer. satlink and swf-tunnel ask the
    same for their forwarding threads, and go on at normal priority if
    refused: for lack of CAP_SYS_NICE, or in a container whose cgroup has no
    real-time time (cgroup v1 with real-time group scheduling)."""
    refusal: list[str] = []

    def ask() -> None:
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))  # 0: the calling thread
        except OSError as error:
            refusal.append(error.strerror or str(error))
    asking = threading.Thread(target=ask, name="sched-fifo-probe")
    asking.start()
    asking.join()
    return refusal[0] if refusal else None


def limitations() -> list[str]:
    problems = []
    capabilities = _effective_capabilities()
    for bit, name, use in ((CAP_NET_ADMIN, "NET_ADMIN", "builds a run's links and TUN devices"),
                           (CAP_SYS_ADMIN, "SYS_ADMIN", "makes a run's network namespaces")):
        if not capabilities & (1 << bit):
            problems.append(f"No run can start: satlab lacks the capability {name}, which {use} "
                            f"(run as root; in a container: cap_add {name}, see compose.yaml).")
    if not os.access(IP_FORWARD, os.W_OK):
        problems.append("No run can start: /proc/sys is read-only, so a run cannot set its namespaces' sysctls "
                        "(in a container: security_opt systempaths=unconfined, see compose.yaml).")
    if not HYSTART.exists():
        problems.append("CUBIC's Hystart cannot be switched: the kernel has no tcp_cubic module parameters, so "
                        "presets that set hystart (geo-ideal, geo-optical, ...) fail; set hystart to null to run "
                        "them with the kernel's own behaviour.")
    elif not os.access(HYSTART, os.W_OK):
        problems.append(f"CUBIC's Hystart cannot be switched: {HYSTART} is read-only here, so presets that set "
                        "hystart fail (in a container: bind-mount /sys/module/tcp_cubic/parameters, see "
                        "compose.yaml).")
    if (refusal := realtime_refused()) is not None:
        problems.append(f"satlink's and swf-tunnel's forwarding threads cannot have the real-time scheduler "
                        f"(SCHED_FIFO: {refusal}): runs go on at normal priority, less punctually, and each run's "
                        "evidence says so (in a container: cap_add SYS_NICE, and real-time time for its cgroup "
                        "where the kernel divides it between cgroups: see compose.yaml).")
    return problems
