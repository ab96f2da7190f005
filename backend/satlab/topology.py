"""The namespaces of a run: client - terminal - [satellite link] - gateway -
server, built from a plan and always removed.

Each run holds an flock on /run/satlab/<run id>.lock for its whole life; a
sweep removes the namespaces of runs whose lock nobody holds (their owner
died), so concurrent runs never sweep each other.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import signal
from collections.abc import Iterator

from satlab import hystart
from satlab.host import LOCK_DIR
from satlab.plan import NAME_PREFIX, Plan
from satlab.process import run

_RUN_NAME = re.compile(rf"^{re.escape(NAME_PREFIX)}([0-9a-f]+)-\w+$")


@contextlib.contextmanager
def run_lock(run_id: str) -> Iterator[None]:
    """Held while a run exists: tells a sweep the run is alive."""
    LOCK_DIR.mkdir(parents=True, exist_ok=True)
    path = LOCK_DIR / f"{run_id}.lock"
    with open(path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            path.unlink(missing_ok=True)


def remove_namespace(name: str) -> None:
    """Kill what still runs in namespace `name` (only ever this run's own
    children), then delete it."""
    pids = run(["ip", "netns", "pids", name], check=False).stdout.split()
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pid), signal.SIGKILL)
    run(["ip", "netns", "del", name], check=False)


def existing_namespaces() -> list[str]:
    listing = run(["ip", "netns", "list"]).stdout
    return [line.split()[0] for line in listing.splitlines() if line.strip()]


@contextlib.contextmanager
def namespaces(plan: Plan) -> Iterator[None]:
    """Create the run's namespaces with their sysctls, loopback and veth
    pairs, and the netem qdiscs of the satellite link if it is one; remove
    them all on exit, whatever happened."""
    created: list[str] = []
    try:
        for role, name in plan.namespaces.items():
            run(["ip", "netns", "add", name])
            created.append(name)
            settings = [f"{key}={value}" for key, value in plan.sysctls[role].items()]
            run(["sysctl", "-qw", *settings], netns=name)
            run(["ip", "-n", name, "link", "set", "lo", "up"])
        for veth in plan.veths:
            run(["ip", "link", "add", veth.a_dev, "netns", veth.a_netns, "type", "veth",
                 "peer", "name", veth.b_dev, "netns", veth.b_netns])
            gso = ["gso_max_segs", str(veth.gso_max_segs)] if veth.gso_max_segs is not None else []
            for netns, dev, addr in ((veth.a_netns, veth.a_dev, veth.a_addr), (veth.b_netns, veth.b_dev, veth.b_addr)):
                run(["ip", "-n", netns, "addr", "add", addr, "dev", dev])
                run(["ip", "-n", netns, "link", "set", dev, "mtu", str(veth.mtu), *gso, "up"])
        for qdisc in plan.netem.values():
            run(["tc", *qdisc.args], netns=qdisc.netns)
        yield
    finally:
        for name in reversed(created):
            remove_namespace(name)


def add_routes(plan: Plan) -> None:
    """Routes beyond each namespace's own links; call once the links are up."""
    for role, routes in plan.routes.items():
        for route in routes:
            run(["ip", "-n", plan.namespaces[role], "route", "add", *route])


def sweep() -> list[str]:
    """Remove the namespaces of dead runs (their lock is free) and their claim
    on CUBIC's Hystart; returns the namespaces' names."""
    removed = []
    LOCK_DIR.mkdir(parents=True, exist_ok=True)
    by_run: dict[str, list[str]] = {}
    for name in existing_namespaces():
        if match := _RUN_NAME.match(name):
            by_run.setdefault(match.group(1), []).append(name)
    for claim in LOCK_DIR.glob("hystart-*"):  # a run may die after removing its namespaces
        by_run.setdefault(claim.name.removeprefix("hystart-"), [])
    for run_id, names in by_run.items():
        path = LOCK_DIR / f"{run_id}.lock"
        with open(path, "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # a live run
            for name in names:
                remove_namespace(name)
                removed.append(name)
            hystart.release(run_id)
            path.unlink(missing_ok=True)
    return removed
