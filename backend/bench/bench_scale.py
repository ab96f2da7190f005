"""make bench-scale: what this machine runs faithfully at once, and how fast
a campaign goes through workers, as JSON lines on stdout.

- scale.host: the machine and its load before and after (the figures below
  describe the machine as loaded as it was).
- scale.capacity: per kind of run, the calibration on the Petrou path (the
  studies' GEO path: 12/3 Mbit/s, 250 ms, 1.2 x BDP, ideal but for the
  tunnel kind, whose forward link loses 2.7 % of packets so that its decoder
  works; 5 MB downloads; satlab.engine.calibration): the most runs at once
  whose median download time stays within 2 % of a lone run's and whose
  lateness p99 (satlink's, the tunnel's) stays under 1 ms (targets on a 2-core machine: kernel TCP >= 16, tunnel >= 8,
  QUIC >= 8); then again with --background-loops CPU-bound processes
  beside (default 1: one of two cores taken), to show the limit moving with
  the host's load (each record's background_busy_loops says which).
- scale.throughput: a campaign of RUNS runs (kernel TCP, S(5,100) tunnel and
  picoquic, 2 MB each) through a real redis-server, satlab's server side
  and 1, then 2 `satlab worker`s on this machine admitting by that
  calibration: runs per hour. Workers on one machine share its capacity
  (satlab.engine.host_runs), so the second adds little here: the figure to
  scale is the first, per machine.
- scale.petrou_one_flow: the Petrou et al. 1-flow matrix (24 configurations
  x 30 iterations) expected wall time on 1, 4 and 16 such machines, from the
  published median download times, the per-run overhead measured above and
  each kind's measured cost.

Needs root and redis-server; --quick calibrates with
CalibrationParameters.quick() (a check that it works, in minutes).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from satlab.distributed import connection, workers
from satlab.engine import capacity, fidelity
from satlab.engine.calibration import CalibrationParameters, calibrate
from satlab.engine.capacity import Calibration, RunKind
from satlab.engine.wait import wait_until
from satlab.service.campaign import campaign_from_dict
from satlab.service.runs import RunManager
from satlab.service.store import Store
from satlab.settings import Settings
from satlab.studies import configurations, load_study

SATLAB = str(Path(sys.executable).with_name("satlab"))
RUNS = 12
PETROU_ITERATIONS = 30  # the paper's
MACHINES = (1, 4, 16)
CAMPAIGN = {"name": "bench-scale", "scenario": "geo-ideal", "iterations": 3, "parallel": 8, "seed": 11,
            "set": {"flows.0.size_bytes": 2_000_000, "flows.0.hystart": None},
            "matrix": {"flows.0.transport": ["tcp", "quic-picoquic"], "tunnel": [None, {"k": 5, "z": 100}]}}


def emit(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


def host_record(moment: str) -> dict[str, Any]:
    identity = fidelity.host_identity()
    return {"bench": "scale.host", "moment": moment, "cpus": identity["cpu_count"], "cpu_model": identity["cpu_model"],
            "kernel": identity["kernel"], "load_avg_1m": fidelity.read_load_avg_1m()}


def capacity_records(calibration: Calibration) -> list[dict[str, Any]]:
    records = []
    background = calibration.parameters.get("background_busy_loops", 0)
    for kind, measured in calibration.kinds.items():
        evidence = measured.evidence
        steps = evidence.get("steps", [])
        held = [step for step in steps if not step["problems"]]
        best = max(held, key=lambda step: step["concurrent"], default={})
        lone_s = evidence.get("lone_median_download_time_s")
        at_max_s = best.get("median_download_time_s")
        records.append({"bench": "scale.capacity", "kind": kind, "background_busy_loops": background,
                        "max_concurrent": measured.max_concurrent,
                        "lone_median_s": lone_s, "median_at_max_s": at_max_s,
                        "ratio_at_max": round(at_max_s / lone_s - 1, 4) if at_max_s and lone_s else None,
                        "lone_spread_ratio": evidence.get("lone_spread_ratio"),
                        # A host late with one run (satlink's lateness p99 at its limit) runs that kind alone.
                        "lone_kept_up": evidence.get("lone_kept_up"),
                        "lone_lateness_p99_ms": max((step["lateness_p99_ms"] for step in evidence.get("lone", [])
                                                     if step["lateness_p99_ms"] is not None), default=None),
                        "lateness_p99_ms_at_max": best.get("lateness_p99_ms"),
                        "tunnel_lateness_p99_ms_at_max": best.get("tunnel_lateness_p99_ms"),
                        "tunnel_recovered_at_max": best.get("tunnel_recovered"),
                        "forward_channel": evidence.get("reference", {}).get("forward_channel"),
                        "load_avg_1m_max": best.get("load_avg_1m_max"),
                        "tried": {step["concurrent"]: "held" if not step["problems"] else "; ".join(step["problems"])
                                  for step in steps}})
    for kind, reason in calibration.unavailable.items():
        records.append({"bench": "scale.capacity", "kind": kind, "background_busy_loops": background,
                        "max_concurrent": None, "unavailable": reason})
    return records


class Redis:
    """redis-server on a free loopback port with a password given on stdin."""

    def __init__(self, directory: Path):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.url = f"redis://:{secrets.token_hex(24)}@127.0.0.1:{port}/0"
        password = self.url.split(":")[2].split("@")[0]
        self.process = subprocess.Popen(["redis-server", "-"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                        text=True)
        assert self.process.stdin is not None
        self.process.stdin.write(f"bind 127.0.0.1\nport {port}\nrequirepass {password}\ndir {directory}\n"
                                 "save \"\"\nappendonly no\n")
        self.process.stdin.close()
        wait_until(self._answers, 10, "redis-server to answer")

    def _answers(self) -> bool:
        try:
            connection.connect(self.url).close()
            return True
        except connection.BrokerUnavailable:
            return False

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def throughput(worker_count: int, calibration_path: Path, directory: Path) -> dict[str, Any]:
    """The campaign through worker_count workers: its wall time and runs per hour, and each run's overhead."""
    redis = Redis(directory)
    started_workers: list[subprocess.Popen[str]] = []
    environment = {**os.environ, "SATLAB_BROKER_URL": redis.url, "SATLAB_CALIBRATION": str(calibration_path)}
    try:
        client = connection.connect(redis.url)
        for index in range(worker_count):
            name = f"bench-{index + 1}"
            started_workers.append(subprocess.Popen(
                [SATLAB, "worker", "--name", name], env={**environment, "SATLAB_LOCK_DIR": str(directory / name)},
                stdout=subprocess.DEVNULL, stderr=open(directory / f"{name}.log", "w"), text=True))  # noqa: SIM115
        wait_until(lambda: len(workers.live_workers(client)) == worker_count, 60, "the workers to announce themselves")
        with Store(directory / f"bench-{worker_count}.db") as store:
            manager = RunManager(store)
            manager.use_broker(redis.url)
            manager.recover()
            try:
                labs_dir = Settings.from_env().labs_dir
                spec, items = campaign_from_dict(CAMPAIGN, labs_dir, labs_dir)
                began = time.monotonic()
                campaign_id = manager.start_campaign(spec, items)
                wait_until(lambda: store.get_campaign(campaign_id).status != "running", 3600,  # type: ignore[union-attr]
                           "the campaign to end")
                wall_s = time.monotonic() - began
            finally:
                manager.shutdown()
            campaign = store.get_campaign(campaign_id)
            assert campaign is not None
            runs = [store.get_run(item.run_id) for item in campaign.items if item.run_id is not None]
            overheads = [run.finished_at - run.started_at - run.result["flows"][0]["download_time_s"]
                         for run in runs if run is not None and run.status == "done" and run.started_at
                         and run.finished_at and run.result and run.result["flows"][0]["download_time_s"]]
            by_worker: dict[str, int] = {}
            for run in runs:
                if run is not None and run.worker:
                    by_worker[run.worker] = by_worker.get(run.worker, 0) + 1
        client.close()
        return {"bench": "scale.throughput", "workers": worker_count, "runs": len(items),
                "done": campaign.progress.done, "failed": campaign.progress.failed, "wall_s": round(wall_s, 1),
                "runs_per_hour": round(3600 * campaign.progress.done / wall_s, 1), "runs_by_worker": by_worker,
                "overhead_s_median": round(statistics.median(overheads), 2) if overheads else None,
                "load_avg_1m": fidelity.read_load_avg_1m()}
    finally:
        for process in started_workers:
            process.send_signal(signal.SIGTERM)
        for process in started_workers:
            process.wait(120)
        redis.stop()


def petrou_kind(levels: dict[str, str]) -> RunKind:
    if levels["transport"] != "tcp-cubic":
        return "quic"
    return "tunnel" if levels["tunnel"] != "none" else "kernel_tcp"


def petrou_estimates(calibration: Calibration, overhead_s: float) -> list[dict[str, Any]]:
    """The 1-flow matrix's machine time (each run's expected time, its published median plus the measured
    overhead, times its kind's cost), spread over N machines; never less than its longest run."""
    study = load_study(Settings.from_env().labs_dir / "studies" / "petrou2022")
    published = {tuple(figure.configuration.values()): figure.value for figure in study.published
                 if figure.statistic == "median" and figure.metric == "flow_download_time_s"}
    machine_s, longest_s, runs = 0.0, 0.0, 0
    for configuration in configurations(study, only={"experiment": ["one-flow"]}):
        run_s = published[tuple(configuration.levels.values())] + overhead_s
        kind = petrou_kind(configuration.levels)
        measured = calibration.kinds.get(kind)
        cost = 1 / measured.max_concurrent if measured is not None else 1.0
        machine_s += PETROU_ITERATIONS * run_s * cost
        longest_s = max(longest_s, run_s)
        runs += PETROU_ITERATIONS
    return [{"bench": "scale.petrou_one_flow", "runs": runs, "machines": machines,
             "expected_wall_h": round(max(machine_s / machines, longest_s) / 3600, 2)} for machines in MACHINES]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a quick calibration: a check that this works")
    parser.add_argument("--background-loops", type=int, choices=range(0, 9), default=1, metavar="0..8",
                        help="calibrate again with this many CPU-bound processes beside (0: not again)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("bench-scale: needs root (runs create network namespaces)")
    emit(host_record("start"))
    parameters = CalibrationParameters.quick() if args.quick else CalibrationParameters()
    calibration = calibrate(parameters)
    for record in capacity_records(calibration):
        emit(record)
    if args.background_loops:
        loaded = calibrate(dataclasses.replace(parameters, background_busy_loops=args.background_loops))
        for record in capacity_records(loaded):
            emit(record)
    with tempfile.TemporaryDirectory(prefix="satlab-bench-scale-") as scratch:
        directory = Path(scratch)
        calibration_path = directory / "calibration.json"
        capacity.save(calibration, calibration_path)
        overheads = []
        for worker_count in (1, 2):
            record = throughput(worker_count, calibration_path, directory)
            emit(record)
            if record["overhead_s_median"] is not None:
                overheads.append(record["overhead_s_median"])
    for record in petrou_estimates(calibration, statistics.median(overheads) if overheads else 0.0):
        emit(record)
    emit(host_record("end"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
