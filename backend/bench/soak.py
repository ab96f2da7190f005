"""make soak: many short runs through the API of a real `satlab serve`, with
bad bodies between them, some runs cancelled, the backend SIGKILLed and
restarted now and then; then checks what is left. One JSON line on stdout;
exit status 1 if a check fails.

    cd backend && .venv/bin/python -m bench.soak --runs 200

Checks: no bad body is answered with a 5xx or creates a run; every run ends
in a final state (those of a killed backend `failed`, marked so at the next
start); the last backend's RSS after all its runs is within 10 % of its RSS
after its warm-up runs; once the last backend stops, no network namespace,
TUN device, process or work directory is left.

The backends run in one mount namespace of the soak's own, with empty
/run/netns and /run/satlab (tests/isolation.py): across SIGKILLs their run
namespaces stay, as on a host, for the next start to sweep, and nothing
else on the host is seen or touched. Runs are tiny: 100 kB over a 10 ms
round trip, TCP mostly, QUIC now and then, Hystart left as the host has it.
Needs root.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2
import yaml

from satlab.engine.wait import wait_until
from satlab.service.runs import INTERRUPTED
from satlab.service.store import FINISHED
from tests.isolation import isolated

SATLAB = str(Path(sys.executable).with_name("satlab"))
REPO = Path(__file__).resolve().parents[2]
IN_FLIGHT = 4  # runs at once: the backend's default max_concurrent_runs
RSS_GROWTH_LIMIT = 0.10
WARM_UP_RUNS = 8  # of the last backend, before its RSS is the reference
CANCEL_EVERY = 7
TRANSPORTS = [("tcp", "cubic")] * 3 + [("tcp", "bbr"), ("tcp", "reno"), ("quic-picoquic", "bbr1"),
                                       ("quic-ngtcp2", "cubic")]


def tiny_scenario(index: int, size_bytes: int = 100_000) -> dict[str, Any]:
    base = yaml.safe_load((REPO / "labs" / "geo-ideal.yaml").read_text())
    transport, cc = TRANSPORTS[index % len(TRANSPORTS)]
    base["name"] = f"soak-{index}"
    for direction in ("forward", "return"):
        base["path"][direction]["delay_ms"] = 5
    base["flows"] = [{"transport": transport, "cc": cc, "size_bytes": size_bytes}]
    return base


def bad_bodies() -> list[tuple[str, Any]]:
    """Bodies the API must refuse (422 or 413) without a 5xx or a run."""
    bomb = "[" + ", ".join(["&a0 [" + ", ".join(["lol"] * 9) + "]"]
                           + [f"&a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]" for level in range(1, 8)]) + "]"
    lab = "geo-ideal"
    return [
        ("json", {"lab": lab, "set": [f"description={bomb}"]}),
        ("json", {"lab": lab, "set": ["flows.0.cc=!!python/object/apply:os.system ['true']"]}),
        ("json", {"lab": lab, "set": ["flows.².cc=bbr"]}),
        ("json", {"lab": lab, "set": ["flows.999999=bbr"]}),
        ("json", {"lab": lab, "set": ["=x"]}),
        ("json", {"lab": lab, "set": ["flows.0.size_bytes='2000000'"]}),
        ("json", {"lab": lab, "set": ["tunnel={k: 5, z: 50, symbol_bytes: 64}"]}),
        ("json", {"lab": lab, "set": ["tunnel={k: 5, z: 50, protect: 'udp:99999'}"]}),
        ("json", {"lab": lab, "scenario": {}}),
        ("json", {"scenario": {"path": {}, "flows": []}}),
        ("json", {"lab": lab, "set": ["x" * (2 << 20)]}),
        ("raw", "[" * 100_000 + "]" * 100_000),
        ("raw", "{"),
    ]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"process {pid} has no VmRSS")


def processes_in_mount_namespace(mount_ns: str, except_pid: int) -> list[str]:
    """Command lines of the processes in mount namespace mount_ns (other than except_pid)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == except_pid:
            continue
        try:
            if os.readlink(entry / "ns" / "mnt") == mount_ns:
                found.append((entry / "cmdline").read_text().replace("\0", " ").strip())
        except OSError:
            continue  # it ended meanwhile
    return found


class Soak:
    def __init__(self, scratch: Path):
        self.scratch = scratch
        self.port = free_port()
        self.api = f"http://127.0.0.1:{self.port}/api"
        # The mount namespace every backend of the soak runs in.
        self.holder = subprocess.Popen(isolated(["sleep", "infinity"]))
        wait_until(lambda: os.readlink(f"/proc/{self.holder.pid}/ns/mnt") != os.readlink("/proc/self/ns/mnt"),
                   10, "the soak's mount namespace")
        self.mount_ns = os.readlink(f"/proc/{self.holder.pid}/ns/mnt")
        self.server: subprocess.Popen[str] | None = None
        self.env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "TMPDIR": str(scratch)}

    def in_namespace(self, argv: list[str]) -> list[str]:
        return ["nsenter", f"--mount=/proc/{self.holder.pid}/ns/mnt", "--", *argv]

    def start(self) -> None:
        self.server = subprocess.Popen(
            self.in_namespace([SATLAB, "--db", str(self.scratch / "soak.db"), "serve", "--port", str(self.port)]),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=self.env)
        # Generous: a start sweeps what a killed backend left, on a machine the soak keeps busy.
        wait_until(lambda: self._answers() or self.server is None or self.server.poll() is not None, 180,
                   "satlab serve to answer")
        if self.server.poll() is not None:
            raise RuntimeError(f"satlab serve exited: {self.server.stderr.read() if self.server.stderr else ''}")

    def _answers(self) -> bool:
        try:
            return httpx2.get(f"{self.api}/capabilities", timeout=5).status_code == 200
        except httpx2.TransportError:
            return False

    def running(self, run_id: str) -> bool:
        """True once the run is running with its namespaces built."""
        return _status(self.api, run_id) == "running" and any(run_id in name for name in self.leftovers()["namespaces"])

    def kill(self) -> None:
        assert self.server is not None
        pid = self.server.pid
        self.server.send_signal(signal.SIGKILL)
        self.server.wait(10)
        # Its children die with it (PR_SET_PDEATHSIG); its runs' namespaces stay for the next start.
        wait_until(lambda: not processes_in_mount_namespace(self.mount_ns, self.holder.pid), 20,
                   f"the children of the killed backend {pid} to end")

    def stop(self) -> int:
        assert self.server is not None
        self.server.send_signal(signal.SIGTERM)
        return self.server.wait(90)

    def leftovers(self) -> dict[str, Any]:
        namespaces = subprocess.run(self.in_namespace(["ip", "netns", "list"]), capture_output=True, text=True,
                                    check=True).stdout.split()
        work_root = self.scratch / "satlab-runs"
        return {"namespaces": namespaces,
                "processes": processes_in_mount_namespace(self.mount_ns, self.holder.pid),
                "work_dirs": sorted(path.name for path in work_root.iterdir()) if work_root.exists() else []}

    def close(self) -> None:
        if self.server is not None and self.server.poll() is None:
            self.server.kill()
            self.server.wait()
        # Namespaces a failed soak left go with the mount namespace: remove them first (and what runs in them).
        listing = subprocess.run(self.in_namespace(["ip", "netns", "list"]), capture_output=True, text=True)
        for name in listing.stdout.split():
            if name.startswith("satlab-"):
                pids = subprocess.run(self.in_namespace(["ip", "netns", "pids", name]), capture_output=True,
                                      text=True).stdout.split()
                for pid in pids:
                    os.kill(int(pid), signal.SIGKILL)
                subprocess.run(self.in_namespace(["ip", "netns", "del", name]), capture_output=True)
        self.holder.kill()
        self.holder.wait()


def run_soak(runs: int, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    kills = max(1, runs // 60)
    # The kills fall in the first 60 %: the last backend serves the rest, whose RSS is the one measured.
    kill_after = {round(0.6 * runs * (k + 1) / (kills + 1)) for k in range(kills)}
    bad = bad_bodies()
    result: dict[str, Any] = {"soak": "api", "runs": runs, "kills": 0, "namespaces_left_by_kills": 0,
                              "bad_bodies": 0, "cancel_requests": 0, "status_codes": {}, "problems": []}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="satlab-soak-") as scratch_dir:
        soak = Soak(Path(scratch_dir))
        try:
            soak.start()
            submitted: list[str] = []
            in_flight: list[str] = []
            segment_start, rss_reference = 0, None
            for index in range(runs):
                kind, body = bad[rng.randrange(len(bad))]
                response = (httpx2.post(f"{soak.api}/runs", json=body, timeout=60) if kind == "json" else
                            httpx2.post(f"{soak.api}/runs", content=body, timeout=60,
                                        headers={"content-type": "application/json"}))
                result["bad_bodies"] += 1
                codes = result["status_codes"]
                codes[str(response.status_code)] = codes.get(str(response.status_code), 0) + 1
                if response.status_code not in (413, 422):
                    result["problems"].append(f"a bad body got {response.status_code}: {response.text[:200]}")
                killed_during = index + 1 in kill_after  # a run long enough to be killed in the middle of
                scenario = tiny_scenario(index, 5_000_000 if killed_during else 100_000)
                created = httpx2.post(f"{soak.api}/runs", json={"scenario": scenario}, timeout=60)
                if created.status_code != 201:
                    result["problems"].append(f"run {index} was refused: {created.status_code} {created.text[:300]}")
                    continue
                run_id = created.json()["run_id"]
                submitted.append(run_id)
                in_flight.append(run_id)
                if index % CANCEL_EVERY == CANCEL_EVERY - 1 and not killed_during:
                    result["cancel_requests"] += 1
                    httpx2.post(f"{soak.api}/runs/{run_id}/cancel", timeout=30)
                if killed_during:
                    wait_until(functools.partial(soak.running, run_id), 60, "the run to be running")
                    soak.kill()
                    result["kills"] += 1
                    # What the killed backend's runs left, for the next start to sweep.
                    result["namespaces_left_by_kills"] += len(soak.leftovers()["namespaces"])
                    soak.start()
                    in_flight, segment_start = [], index + 1
                    continue
                while len(in_flight) >= IN_FLIGHT:
                    in_flight = [run for run in in_flight if _status(soak.api, run) not in FINISHED]
                    time.sleep(0.1)
                if rss_reference is None and index + 1 - segment_start >= WARM_UP_RUNS and index + 1 > max(
                        kill_after):
                    wait_until(functools.partial(_all_finished, soak.api, list(in_flight)), 300,
                               "the warm-up runs to end")
                    rss_reference = rss_kib(soak.server.pid) if soak.server else None
            wait_until(functools.partial(_all_finished, soak.api, submitted), 600, "every run to end")
            rss_end = rss_kib(soak.server.pid) if soak.server else 0
            finals = [httpx2.get(f"{soak.api}/runs/{run}", timeout=30).json() for run in submitted]
            statuses = [run["status"] for run in finals]
            result["problems"] += [f"run {run['run_id']} failed: {run['error']}" for run in finals
                                   if run["status"] == "failed" and run["error"] != INTERRUPTED]
            listed = httpx2.get(f"{soak.api}/runs", params={"limit": 1000}, timeout=30).json()
            result["statuses"] = {status: statuses.count(status) for status in sorted(set(statuses))}
            if listed["count"] != len(submitted):
                result["problems"].append(f"the store holds {listed['count']} runs, {len(submitted)} were created "
                                          "(a bad body created one?)")
            ratio = rss_end / rss_reference - 1 if rss_reference else None
            result["rss_kib"] = {"after_warm_up": rss_reference, "end": rss_end,
                                 "growth_ratio": round(ratio, 4) if ratio is not None else None}
            if ratio is None or ratio > RSS_GROWTH_LIMIT:
                result["problems"].append(f"the backend's RSS grew by {ratio} (limit {RSS_GROWTH_LIMIT})")
            exit_status = soak.stop()
            if exit_status not in (0, -signal.SIGTERM):
                result["problems"].append(f"satlab serve exited {exit_status} on SIGTERM")
            soak.server = None
            result["leftovers"] = soak.leftovers()
            if any(result["leftovers"].values()):
                result["problems"].append("something was left")
        finally:
            soak.close()
    result["seconds"] = round(time.monotonic() - started, 1)
    result["ok"] = not result["problems"]
    return result


def _status(api: str, run_id: str) -> str:
    return str(httpx2.get(f"{api}/runs/{run_id}", timeout=30).json()["status"])


def _all_finished(api: str, run_ids: list[str]) -> bool:
    return all(_status(api, run_id) in FINISHED for run_id in run_ids)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = run_soak(args.runs, args.seed)
    print(json.dumps(result), flush=True)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
