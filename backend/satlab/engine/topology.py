"""The namespaces of a run: client - terminal - [satellite link] - gateway -
server, built from a plan and always removed.

Each run holds an flock on /run/satlab/<run id>.lock (host.RUN_LOCK_DIR,
the same for every satlab on the host, whatever its SATLAB_LOCK_DIR) for its
whole life; a sweep removes what runs whose lock nobody holds (their owner
died) left, so concurrent runs and satlab processes never sweep each other.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path

from satlab.engine import host, hystart
from satlab.engine.plan import NAME_PREFIX, ROLES, Plan
from satlab.engine.process import run

_RUN_ID = re.compile(r"^[0-9a-f]+$")
_RUN_NAME = re.compile(rf"^{re.escape(NAME_PREFIX)}([0-9a-f]+)-\w+$")


@contextlib.contextmanager
def run_lock(run_id: str) -> Iterator[Path]:
    """Held while a run exists: tells a sweep the run is alive. Yields the
    run's work directory (mode 0700), removed with the run. Taken with
    host.claim: a sweep asking about the run just as it starts may hold its
    file a moment and remove it; the run then claims a new file rather than
    holding the removed one, which no sweep would see."""
    name = host.run_lock_name(run_id)
    lock = host.claim(name, host.RUN_LOCK_DIR)
    workdir = host.work_dir(run_id)
    try:
        host.WORK_ROOT.mkdir(mode=0o700, parents=True, exist_ok=True)
        workdir.mkdir(mode=0o700)
        yield workdir
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        host.release(name, lock, host.RUN_LOCK_DIR)


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


def add_routes(plan: Plan, roles: tuple[str, ...] = ROLES) -> None:
    """Routes beyond the own links of each namespace of `roles`; call once
    the links they go through are up (the hosts' go through the links only,
    the terminal's and the gateway's through a satellite-span tunnel)."""
    for role in roles:
        for route in plan.routes[role]:
            run(["ip", "-n", plan.namespaces[role], "route", "add", *route])


def _left_by_run() -> dict[str, list[str]]:
    """What runs left on this host, by run id: namespaces, and the work
    directory and Hystart claim of a run that may have died after removing
    its namespaces."""
    by_run: dict[str, list[str]] = {}
    for name in existing_namespaces():
        if match := _RUN_NAME.match(name):
            by_run.setdefault(match.group(1), []).append(name)
    others = [*hystart.CLAIM_DIR.glob("hystart-*"), *(host.WORK_ROOT.iterdir() if host.WORK_ROOT.is_dir() else ())]
    for path in others:
        run_id = path.name.removeprefix("hystart-")
        if _RUN_ID.match(run_id):
            by_run.setdefault(run_id, []).append(str(path))
    return by_run


def sweep() -> list[str]:
    """Remove what runs whose owner died left: namespaces (and what still runs
    in them), work directories, Hystart claims. A run is dead when nobody
    holds its lock in host.RUN_LOCK_DIR; returns the namespaces' names."""
    removed = []
    for run_id, things in _left_by_run().items():
        lock = host.try_claim(host.run_lock_name(run_id), host.RUN_LOCK_DIR)
        if lock is None:
            continue  # a live run
        for name in things:
            if _RUN_NAME.match(name):
                remove_namespace(name)
                removed.append(name)
        shutil.rmtree(host.work_dir(run_id), ignore_errors=True)
        hystart.release(run_id)
        host.release(host.run_lock_name(run_id), lock, host.RUN_LOCK_DIR)
    return removed


def leftovers() -> list[str]:
    """What dead runs left that a sweep could not remove (namespaces, paths)."""
    return [thing for run_id, things in _left_by_run().items() if not host.run_alive(run_id) for thing in things]
